import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { bodyDefaultsToEmpty, callerOf } from '../../../http/route-helpers.js';
import { translate } from '../../../i18n/index.js';
import { CancelBody, UserPackage } from './memberships.schemas.js';
import type { MembershipsService } from './memberships.service.js';

const MembershipRef = Type.Ref('Membership');
const security = [{ bearer: [] }];
const signedIn = { auth: 'user' } as const;

/** The caller's membership (docs/api.md 10) and its flat houzez-api form (3.2 GET /users/package). */
export async function membershipRoutes(app: FastifyInstance, { memberships }: { memberships: MembershipsService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/membership/package',
    {
      config: signedIn,
      schema: {
        tags: ['payments'],
        summary: 'The caller’s membership',
        description:
          'The package the caller bought last, with the credits left and the paid period. Without a membership: ' +
          '`status: "none"`, `package` and the figures null, `auto_renew` false. Past `expires_at` the status is ' +
          '`expired` at once (before the expiry job stores it) and the credits are 0; a membership that a Stripe ' +
          'subscription renews keeps one day’s grace for the renewal payment to arrive. Unlimited listing ' +
          'credits are null.',
        security,
        response: { 200: Envelope(MembershipRef), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await memberships.membershipOf(callerOf(request)) }),
  );

  api.post(
    '/membership/cancel',
    {
      config: signedIn,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags: ['payments'],
        summary: 'Stop the renewal of the caller’s membership',
        description:
          'No body (or `{}`; any field → 400). Turns `auto_renew` off: the membership stays `active` with its ' +
          'credits until `expires_at`, then expires (docs/api.md 12). A Stripe subscription is set to end with its ' +
          'current period first; when Stripe cannot be reached (or is not configured) → 503 and nothing changes. ' +
          'Cancelling a membership that does not renew changes nothing and answers 200. No membership → 404; an ' +
          'expired or cancelled one → 409 `conflict`.',
        security,
        body: CancelBody,
        response: { 200: Envelope(MembershipRef), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429, 503) },
      },
    },
    async (request) => ({
      success: true,
      data: await memberships.cancel(callerOf(request)),
      message: translate(request.lang, 'membership_cancelled'),
    }),
  );

  api.get(
    '/users/package',
    {
      config: signedIn,
      schema: {
        tags: ['users', 'payments'],
        summary: 'The caller’s package, flat (houzez-api form)',
        description:
          'The membership of GET /membership/package as flat fields. Unlimited listings are -1 (docs/api.md 12). Without ' +
          'a membership every field is null. Once the membership has expired the package is still named, with ' +
          '`package_expired_date` in the past and no credits left (0).',
        security,
        response: { 200: Envelope(UserPackage), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await memberships.userPackageOf(callerOf(request)) }),
  );
}
