import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { bodyDefaultsToEmpty, callerOf } from '../../../http/route-helpers.js';
import type { StateAction } from './listing-states.js';
import { ListingHistory, ListingStateResult, PropertyActionBody, ReasonBody } from './moderation.schemas.js';
import type { ModerationService } from './moderation.service.js';
import { PropertyIdParams } from '../properties.schemas.js';

const security = [{ bearer: [] }];
const signedIn = { auth: 'user' } as const;
const moveResponses = { 200: Envelope(ListingStateResult), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) };
/** Moves that may cost a credit or a paid fee (PAYMENT_MODE, docs/api.md 10). */
const paidMoveResponses = { ...moveResponses, ...errorResponses(402) };

const ACCESS_RULES =
  'A listing the caller cannot see (unknown, or unpublished and not theirs) → 404; one they see but may not ' +
  'act on (someone else’s published listing; any listing for a buyer) → 403. An action not possible from the ' +
  'listing’s current state → 409 `invalid_transition`, whose message names that state; of two requests racing ' +
  'for the same move, one succeeds and the other gets that 409.';

const RELISTING_RULES =
  'PAYMENT_MODE (docs/api.md 10), for everyone but administrators and managers: in `membership` mode `live` from ' +
  '`expired` (re-listing) spends one listing credit of the caller’s own membership, and none left or no active ' +
  'membership → 402 `quota_exceeded` with the listing unchanged (`live` from on_hold or sold costs nothing); ' +
  'in `per_listing` mode with a LISTING_PRICE above 0, `submit_listing` needs the listing’s paid `listing` ' +
  'invoice, else 402.';

/** The single-action routes of docs/api.md 3.3 (houzez-api paths), each one action of /users/property-actions. */
const SINGLE_ACTIONS: { path: string; action: StateAction; summary: string; paid?: boolean }[] = [
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
      'or for moderators); re-listing an expired listing spends a listing credit in membership mode',
    paid: true,
  },
  { path: 'mark-sold-property', action: 'sold', summary: 'Mark a listing sold: publish or on_hold → sold (owner, moderators)' },
];

/** Listing states and moderation (docs/api.md 3.3), and the listing history (4.2). */
export async function moderationRoutes(app: FastifyInstance, { moderation }: { moderation: ModerationService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  for (const { path, action, summary, paid = false } of SINGLE_ACTIONS) {
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
            `agent author; administrators and managers act on every listing. ${ACCESS_RULES}` +
            (paid ? ` ${RELISTING_RULES}` : ''),
          security,
          params: PropertyIdParams,
          body: ReasonBody,
          response: paid ? paidMoveResponses : moveResponses,
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
          'owners and moderators. `set_featured`, `remove_featured`: administrators, on any listing and without ' +
          'credits; in PAYMENT_MODE `membership` also owners, `set_featured` spending one featured credit of the ' +
          'caller’s own membership (none, or no active membership → 402 `quota_exceeded`; a listing already ' +
          'featured costs nothing again; of concurrent requests only as many succeed as credits remained) and ' +
          '`remove_featured` spending nothing (no refund); in `per_listing` mode owners may remove the flag but ' +
          'buy featuring through POST /payments/checkout (item `featured`), so their `set_featured` → 403; in ' +
          '`free` mode owners → 403, as are managers in every mode. These two accept any state, are not state ' +
          'moves and take no `reason` (→ 400). `reason` is kept in the listing’s history. ' +
          `${RELISTING_RULES} ${ACCESS_RULES}`,
        security,
        body: PropertyActionBody,
        response: paidMoveResponses,
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
          'The first entry (`from: null`) is the creation. A listing the caller cannot see → 404; one they see ' + 'but do not own → 403.',
        security,
        params: PropertyIdParams,
        response: { 200: Envelope(ListingHistory), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await moderation.history(callerOf(request), request.params.id) }),
  );
}
