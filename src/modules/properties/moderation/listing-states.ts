import type { ListingState } from '../../../db/schema/index.js';

/**
 * The listing state machine (docs/api.md 4.3, 3.3) as pure functions: which move an action makes from which
 * state, for whom. Permissions on the listing itself (owner or moderator) are checked by the caller.
 */
export const STATE_ACTIONS = ['approve', 'disapprove', 'hold', 'live', 'sold', 'expire', 'submit_listing'] as const;
export type StateAction = (typeof STATE_ACTIONS)[number];

/** Actions only administrators and managers may take; owners take the others. */
export const MODERATOR_ACTIONS: readonly StateAction[] = ['approve', 'disapprove', 'expire'];

export interface TransitionContext {
  /** The actor is an administrator or manager: their listings skip the approval queue. */
  byModerator: boolean;
  /** REQUIRE_APPROVAL: listings of others wait in `pending`. */
  requireApproval: boolean;
}

/** The state the action moves a listing to from `from`, or undefined when the action is not possible there. */
export function targetState(action: StateAction, from: ListingState, context: TransitionContext): ListingState | undefined {
  const published = publishOrPending(context);
  switch (action) {
    case 'approve':
      return from === 'pending' || from === 'disapproved' ? 'publish' : undefined;
    case 'disapprove':
      return from === 'pending' || from === 'publish' ? 'disapproved' : undefined;
    case 'hold':
      return from === 'publish' ? 'on_hold' : undefined;
    case 'live':
      if (from === 'on_hold' || from === 'sold') return 'publish';
      return from === 'expired' ? published : undefined;
    case 'sold':
      return from === 'publish' || from === 'on_hold' ? 'sold' : undefined;
    case 'expire':
      return from === 'publish' || from === 'on_hold' ? 'expired' : undefined;
    case 'submit_listing':
      return from === 'draft' ? published : undefined;
  }
}

/** The state of a new listing: `draft` when asked, else published or pending by who creates it. */
export function initialState(draft: boolean, context: TransitionContext): ListingState {
  return draft ? 'draft' : publishOrPending(context);
}

/**
 * The state after an edit: with EDIT_REQUIRES_APPROVAL an owner's edit of a published listing sends it back
 * to `pending`; moderators' edits never move it.
 */
export function stateAfterEdit(from: ListingState, byModerator: boolean, editRequiresApproval: boolean): ListingState {
  return from === 'publish' && editRequiresApproval && !byModerator ? 'pending' : from;
}

function publishOrPending({ byModerator, requireApproval }: TransitionContext): ListingState {
  return byModerator || !requireApproval ? 'publish' : 'pending';
}

/**
 * `expires_at` when a listing enters `publish` with LISTING_TTL_DAYS set: a new period starts on every
 * publication except a return from `on_hold` or `sold`, which keeps the running one. Undefined: keep it.
 */
export function expiryOnPublish(from: ListingState | null, now: Date, ttlDays: number | undefined): string | undefined {
  if (ttlDays === undefined || from === 'on_hold' || from === 'sold' || from === 'publish') return undefined;
  return new Date(now.getTime() + ttlDays * 86_400_000).toISOString();
}
