import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { translate } from '../../../i18n/index.js';
import type { PackagesService } from './packages.service.js';
import { CreatePackageBody, PackageDeletion, PackageIdParams, PackageList, PackagesQuery, UpdatePackageBody } from './packages.schemas.js';

const PackageRef = Type.Ref('Package');
const manage = { auth: ['administrator'] } as const;
const security = [{ bearer: [] }];
// Anonymous or signed in: a token is optional (and lets administrators see hidden packages).
const optionalSecurity: Record<string, string[]>[] = [{}, { bearer: [] }];

const BODY_RULES =
  '`title` (1–200) and `description` (≤ 5,000) are plain text: HTML tags removed, white space trimmed. `price` ' +
  '(≥ 0, before tax) may have no more decimals than `currency` has (USD 2, JPY 0, KWD 3), else 400; price plus ' +
  'tax must fit the invoices’ integer columns. `currency` is an ISO 4217 code (default DEFAULT_CURRENCY). ' +
  '`tax_rate` is a percentage from 0 to 100 with at most two decimals. `listings_included` is an integer ≥ 0 or ' +
  'null for unlimited; `featured_included` an integer ≥ 0. `billing_period` ∈ day, week, month, year, one_time; ' +
  '`billing_frequency` 1–365 periods per renewal, and 1 for one_time. Unknown fields → 400. A 400 lists every ' +
  'offending field.';

/** Membership packages (docs/api.md 10): public catalogue, administrator management. */
export async function packageRoutes(app: FastifyInstance, { packages }: { packages: PackagesService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/payments/packages',
    {
      schema: {
        tags: ['payments'],
        summary: 'The packages on sale, in order',
        description:
          'Visible packages ordered by `order`, then id. `total_packages` counts the packages answered (no paging: a ' +
          'catalogue is short). Administrators may add `include_hidden=true` to see hidden packages too; anyone ' +
          'else sending it → 400.',
        security: optionalSecurity,
        querystring: PackagesQuery,
        response: { 200: Envelope(PackageList), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ success: true, data: await packages.listPackages(request.user, request.query) }),
  );

  api.get(
    '/payments/packages/:id',
    {
      schema: {
        tags: ['payments'],
        summary: 'One package',
        description: 'A hidden package is 404 to everyone but administrators.',
        security: optionalSecurity,
        params: PackageIdParams,
        response: { 200: Envelope(PackageRef), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await packages.getPackage(request.user, request.params.id) }),
  );

  api.post(
    '/payments/packages',
    {
      config: manage,
      schema: {
        tags: ['payments'],
        summary: 'Create a package (administrator)',
        description:
          `Required: \`title\`, \`price\`, \`listings_included\` (null for unlimited, so that unlimited is never an ` +
          `accident), \`billing_period\`. Defaults: \`description\` "", \`tax_rate\` 0, \`featured_included\` 0, ` +
          `\`billing_frequency\` 1, \`visible\` true, \`popular\` false, \`order\` 0. ${BODY_RULES}`,
        security,
        body: CreatePackageBody,
        response: { 201: Envelope(PackageRef), ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => reply.code(201).send({ success: true, data: await packages.createPackage(request.body) }),
  );

  api.put(
    '/payments/packages/:id',
    {
      config: manage,
      schema: {
        tags: ['payments'],
        summary: 'Update a package (administrator); omitted fields stay unchanged',
        description:
          'The rules hold for the package as it will be: e.g. `billing_period: "one_time"` on a package renewed every ' +
          '3 months needs `billing_frequency: 1` too. A new `currency` without a new `price` keeps the amount (19.99 ' +
          'stays 19.99), which must suit the new currency’s decimals. Members keep what they bought: changes apply ' +
          `to later purchases and renewals. ${BODY_RULES}`,
        security,
        params: PackageIdParams,
        body: UpdatePackageBody,
        response: { 200: Envelope(PackageRef), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await packages.updatePackage(request.params.id, request.body) }),
  );

  api.delete(
    '/payments/packages/:id',
    {
      config: manage,
      schema: {
        tags: ['payments'],
        summary: 'Delete a package (administrator); a package in use is hidden instead',
        description:
          'A package is in use when a membership or an invoice refers to it (docs/api.md 12): it is then hidden ' +
          '(`visible: false`; it can no longer be bought, its members and invoices keep it) and the answer is ' +
          '`{id, deleted: false, hidden: true}`. Otherwise it is deleted: `{id, deleted: true}`. Unknown ids → 404.',
        security,
        params: PackageIdParams,
        response: { 200: Envelope(PackageDeletion), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const result = await packages.deletePackage(request.params.id);
      return {
        success: true,
        data: result,
        message: translate(request.lang, result.deleted ? 'package_deleted' : 'package_hidden_in_use'),
      };
    },
  );
}
