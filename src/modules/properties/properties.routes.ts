import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { PRIVATE_REVALIDATE, PUBLIC_REVALIDATE, sendCacheable } from '../../http/cache.js';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { translate } from '../../i18n/index.js';
import { jsonValidator } from '../../http/validation.js';
import { readListingForm } from './listing-form.multipart.js';
import {
  type CreatePropertyInput,
  CreatePropertyBody,
  GalleryList,
  LISTING_CREATORS,
  MAX_GALLERY,
  PropertyDeleted,
  PropertyIdParams,
  UpdatePropertyBody,
} from './properties.schemas.js';
import type { PropertiesService } from './properties.service.js';

export interface PropertyRouteOptions {
  properties: PropertiesService;
}

export interface PropertyUploadRouteOptions extends PropertyRouteOptions {
  maxFileBytes: number;
  maxFiles: number;
}

const PropertyRef = Type.Ref('Property');
const security = [{ bearer: [] }];

/**
 * Anonymous answers are shared, so their serialization is cached with them; `no-cache` makes clients
 * revalidate (ETag, 304) so that every visit reaches the view counter. Signed-in answers carry the caller's
 * `is_favorite` and are private.
 */

const WRITE_RULES =
  'Unknown fields → 400. `status`, `featured`, `author_id`, `views` and `expires_at` are for administrators ' +
  'and managers only: anyone else sending one → 400. Term ids must exist in their taxonomy; `media_ids` must ' +
  'be the caller’s own images not in another listing (or already in this gallery); `featured_image_id` one of ' +
  'the gallery’s; `agent_ids` the caller’s own agent record or agents of the caller’s agency; `agency_id` the ' +
  'caller’s own agency. All problems are listed together in `errors`.';

const CREATION_PAYMENT_RULES =
  'PAYMENT_MODE (docs/api.md 10) applies to everyone but administrators and managers. `membership`: the creation ' +
  'spends one listing credit of the caller’s own membership (an agent’s own, not its agency’s) in the same ' +
  'transaction; no active membership (none, expired, cancelled, past `expires_at`) or no listing credit left ' +
  '→ 402 `quota_exceeded` and nothing is written; of concurrent creations only as many succeed as credits ' +
  'remained. `per_listing` with a LISTING_PRICE above 0: the listing is created as `draft` whatever `draft` ' +
  'says, and is submitted once its `listing` fee is paid (POST /payments/checkout). `free`: nothing is charged.';

export async function propertyRoutes(app: FastifyInstance, { properties }: PropertyRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/properties/:id',
    {
      schema: {
        tags: ['properties'],
        summary: 'One listing',
        description:
          'Published and sold listings are public; other states only for their owner (author, or the agency of ' +
          'the authoring agent) and administrators/managers, else 404. Counts a view once per client (user, else ' +
          'IP address) and hour; counts are written in batches, so `views` may lag by a few seconds.',
        params: PropertyIdParams,
        response: { 200: Envelope(PropertyRef), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const record = await properties.get(request.user, request.params.id, request.ip);
      if (request.user) return reply.header('cache-control', PRIVATE_REVALIDATE).send({ success: true, data: record });
      return sendCacheable(request, reply, record, PUBLIC_REVALIDATE, () => ({ success: true, data: record }));
    },
  );

  api.get(
    '/properties/:id/media',
    {
      schema: {
        tags: ['properties'],
        summary: 'The gallery of a listing, in order',
        description: 'Visible exactly when the listing is (404 otherwise).',
        params: PropertyIdParams,
        response: { 200: Envelope(GalleryList), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: { media: await properties.gallery(request.user, request.params.id) } }),
  );

  api.post(
    '/properties',
    {
      config: { auth: LISTING_CREATORS },
      schema: {
        tags: ['properties'],
        summary: 'Create a listing (listing creators)',
        description:
          'Administrators’ and managers’ listings are published at once; others’ wait in `pending` while ' +
          'REQUIRE_APPROVAL is on (default), else publish; `draft: true` keeps it a draft. Location fields take ' +
          `a term id or a name (an unknown name creates the term under the given parent level). ${WRITE_RULES} ` +
          CREATION_PAYMENT_RULES,
        security,
        body: CreatePropertyBody,
        response: { 201: Envelope(PropertyRef), ...errorResponses(400, 401, 402, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => reply.code(201).send({ success: true, data: await properties.create(request.user!, request.body) }),
  );

  api.put(
    '/properties/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['properties'],
        summary: 'Update a listing (owner, administrators, managers)',
        description:
          'Partial: omitted fields stay; `null` clears an optional value; arrays replace. With ' +
          'EDIT_REQUIRES_APPROVAL an owner’s edit of a published listing sends it back to `pending`. ' +
          '`draft: false` submits a draft (as `submit_listing`); in PAYMENT_MODE `per_listing` with a LISTING_PRICE ' +
          'above 0 an owner’s submission needs the listing’s paid `listing` invoice, else 402 `quota_exceeded` and ' +
          'nothing changes. `draft: true` on a listing that is not a draft → 409. `slug` moves the listing to a new ' +
          'path; the former one is remembered and redirects (301) to it, and a slug another listing holds or held is ' +
          'a 409. A listing the caller cannot see → ' +
          `404; one they see but do not own → 403. ${WRITE_RULES}`,
        security,
        params: PropertyIdParams,
        body: UpdatePropertyBody,
        response: { 200: Envelope(PropertyRef), ...errorResponses(400, 401, 402, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await properties.update(request.user!, request.params.id, request.body) }),
  );

  api.delete(
    '/properties/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['properties'],
        summary: 'Delete a listing and its gallery (owner, administrators, managers)',
        description: 'Gallery files are removed from storage unless another media item uses the same file.',
        security,
        params: PropertyIdParams,
        response: { 200: Envelope(PropertyDeleted), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      await properties.delete(request.user!, request.params.id);
      return {
        success: true,
        data: { id: request.params.id, deleted: true as const },
        message: translate(request.lang, 'listing_deleted'),
      };
    },
  );
}

const validateCreateBody = jsonValidator<CreatePropertyInput>(CreatePropertyBody);

/** POST /properties/with-media: registered in a scope with multipart parsing (http/multipart.ts). */
export async function propertyUploadRoutes(app: FastifyInstance, { properties, maxFileBytes, maxFiles }: PropertyUploadRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/properties/with-media',
    {
      config: { auth: LISTING_CREATORS },
      schema: {
        tags: ['properties'],
        summary: 'Create a listing with its gallery images in one request (listing creators)',
        description:
          'multipart/form-data: a `data` part holding the JSON body of POST /properties (a text field, or a part ' +
          `of type application/json) and up to ${maxFiles} \`images\` file parts (JPEG, PNG or WebP), which ` +
          'become the gallery in order, after any `media_ids` of `data`. Every image is checked before any is ' +
          'stored; if the listing is refused (402 included) the images are removed. Too many files or a file over ' +
          `UPLOAD_MAX_FILE_BYTES → 413; a file that is not an accepted image → 415; a gallery over ${MAX_GALLERY} → 400. ` +
          CREATION_PAYMENT_RULES,
        security,
        body: {
          content: {
            'multipart/form-data': {
              // For the OpenAPI document: the parts are read by readListingForm, and Fastify sees no parsed
              // body for a multipart request, so the schema admits `null` (as the media forms do).
              schema: Type.Unsafe<unknown>({
                type: ['object', 'null'],
                properties: {
                  data: Type.String({ description: 'The JSON body of POST /properties' }),
                  images: Type.Array(Type.String({ format: 'binary' }), { maxItems: maxFiles }),
                },
                required: ['data'],
              }),
            },
          },
        },
        response: { 201: Envelope(PropertyRef), ...errorResponses(400, 401, 402, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const form = await readListingForm(request, maxFileBytes);
      const record = await properties.createWithImages(request.user!, validateCreateBody(form.data), form.images);
      return reply.code(201).send({ success: true, data: record });
    },
  );
}
