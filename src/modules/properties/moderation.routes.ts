import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { AuthUser } from '../../http/request-context.js';
import type { StateAction } from './listing-states.js';
import { ListingHistory, ListingStateResult, PropertyActionBody, ReasonBody } from './moderation.schemas.js';
import type { ModerationService } from './moderation.service.js';
import { PropertyIdParams } from './properties.schemas.js';

const security = [{ bearer: [] }];
const signedIn = { auth: 'user' } as const;
const moveResponses = { 200: Envelope(ListingStateResult), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) };

const ACCESS_RULES =
  'A listing the caller cannot see (unknown, or unpublished and not theirs) → 404; one they see but may not ' +
  'act on (someone else’s published listing; any listing for a buyer) → 403. An action not possible from the ' +
  'listing’s current state → 409 `invalid_transition`, whose message names that state; of two requests racing ' +
  'for the same move, one succeeds and the other gets that 409.';

/** The single-action routes of API.md 3.3 (houzez-api paths), each one action of /users/property-actions. */
const SINGLE_ACTIONS: { path: string; action: StateAction; summary: string }[] = [
  {
    path: 'approve-property',
    action: 'approve',
    summary: 'Approve a listing: pending or disapproved → publish (administrator, manager)',
  },
  {
    path: 'disapprove-property',
    action: 'disapprove',
    summary: 'Disapprove a listing: pending or publish → disapproved (administrator, manager); `reason` is for the owner',
  },
  { path: 'hold-property', action: 'hold', summary: 'Put a listing on hold: publish → on_hold (owner, moderators)' },
  {
    path: 'live-property',
    action: 'live',
    summary:
      'Put a listing back live: on_hold or sold → publish; expired → pending (publish when REQUIRE_APPROVAL is off, ' +
      'or for moderators)',
  },
  { path: 'mark-sold-property', action: 'sold', summary: 'Mark a listing sold: publish or on_hold → sold (owner, moderators)' },
];

/** A POST without a body means `{}`: most of these routes need nothing but the id. */
async function bodyDefaultsToEmpty(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

/** The caller, on a route whose auth requirement guarantees one. */
function callerOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('unauthorized');
  return request.user;
}

/** Listing states and moderation (API.md 3.3), and the listing history (4.2). */
export async function moderationRoutes(app: FastifyInstance, { moderation }: { moderation: ModerationService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  for (const { path, action, summary } of SINGLE_ACTIONS) {
    api.post(
      `/users/${path}/:id`,
      {
        config: signedIn,
        preValidation: bodyDefaultsToEmpty,
        schema: {
          tags: ['moderation'],
          summary,
          description:
            `The same as POST /users/property-actions with \`action: "${action}"\`. The optional \`reason\` is kept ` +
            `in the listing’s history (GET /properties/{id}/history). Owners are the author and the agency of an ` +
            `agent author; administrators and managers act on every listing. ${ACCESS_RULES}`,
          security,
          params: PropertyIdParams,
          body: ReasonBody,
          response: moveResponses,
        },
      },
      async (request) => ({
        success: true,
        data: await moderation.act(callerOf(request), request.params.id, action, request.body.reason),
      }),
    );
  }

  api.post(
    '/users/property-actions',
    {
      config: signedIn,
      schema: {
        tags: ['moderation'],
        summary: 'Take one action on a listing',
        description:
          '`approve`, `disapprove`, `expire`: administrators and managers (owners → 403). `hold`, `live`, ' +
          '`sold`, `submit_listing` (draft → pending, or publish when REQUIRE_APPROVAL is off or for moderators): ' +
          'owners and moderators. `set_featured`, `remove_featured`: administrators only for now — owners will ' +
          'spend a featured credit once memberships and payments are available, and get 403 until then; these ' +
          'two accept any state, are not state moves and take no `reason` (→ 400). `reason` is kept in the ' +
          `listing’s history. ${ACCESS_RULES}`,
        security,
        body: PropertyActionBody,
        response: moveResponses,
      },
    },
    async (request) => {
      const { property_id, action, reason } = request.body;
      return { success: true, data: await moderation.act(callerOf(request), property_id, action, reason) };
    },
  );

  api.get(
    '/properties/:id/history',
    {
      config: signedIn,
      schema: {
        tags: ['properties'],
        summary: 'The listing’s state transitions, oldest first (owner, administrators, managers)',
        description:
          'The first entry (`from: null`) is the creation. A listing the caller cannot see → 404; one they see ' +
          'but do not own → 403.',
        security,
        params: PropertyIdParams,
        response: { 200: Envelope(ListingHistory), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await moderation.history(callerOf(request), request.params.id) }),
  );
}
