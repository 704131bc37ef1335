import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';
import { recordTransition } from '../properties.repository.js';
import { expiryOnPublish, targetState } from './listing-states.js';
import {
  EXPIRING_STATES,
  deleteUnpublishedListingsOfAuthor,
  expireListingsOfAuthors,
  findListingState,
  moveListingState,
  recordSystemTransitions,
  setFeatured,
  unpublishListingsOfAuthor,
} from './moderation.repository.js';
import type { ModerationSettings } from './moderation.service.js';

/**
 * The listing moves other modules make inside their own transactions (payments: a paid draft is submitted,
 * a paid upgrade features a listing, an expired membership expires its owner's listings; users: an account
 * deletion takes its author's listings off the site). The listings
 * module owns its state machine and its history: other modules ask, they never write `listings` themselves.
 */
export class ListingMoves {
  constructor(private readonly settings: ModerationSettings) {}

  /**
   * The paid draft is submitted as its owner's `submit_listing` would: to `pending` with approval required,
   * else to `publish` (with LISTING_TTL_DAYS), with a history entry by the buyer. A listing that left `draft`
   * meanwhile (or was deleted) is left as it is; says whether it moved.
   */
  async submitPaidDraft(trx: Transaction<DB>, listingId: number, buyerId: number | null, paidAt: Date): Promise<boolean> {
    if ((await findListingState(trx, listingId)) !== 'draft') return false;
    const to = targetState('submit_listing', 'draft', { byModerator: false, requireApproval: this.settings.requireApproval });
    if (to === undefined) return false;
    const at = nowIso(paidAt);
    const expiresAt = to === 'publish' ? expiryOnPublish('draft', paidAt, this.settings.ttlDays) : undefined;
    if (!(await moveListingState(trx, { listingId, from: 'draft', to, at, expiresAt }))) return false;
    await recordTransition(trx, { listingId, from: 'draft', to, actorId: buyerId, reason: '', at });
    return true;
  }

  /** Features a listing whose upgrade was paid for. */
  async featurePaidListing(trx: Transaction<DB>, listingId: number, paidAt: Date): Promise<void> {
    await setFeatured(trx, listingId, true, nowIso(paidAt));
  }

  /**
   * Expires the `publish` and `on_hold` listings of these authors, each with a history entry without actor and
   * the given reason; returns the moves made.
   */
  async expireListingsOfAuthors(
    trx: Transaction<DB>,
    authorIds: readonly number[],
    reason: string,
    at: string,
  ): Promise<{ listingId: number; authorId: number }[]> {
    const moves: Awaited<ReturnType<typeof expireListingsOfAuthors>> = [];
    for (const from of EXPIRING_STATES) moves.push(...(await expireListingsOfAuthors(trx, authorIds, from, at)));
    await recordSystemTransitions(trx, moves, 'expired', reason, at);
    return moves;
  }

  /**
   * The listings side of an account deletion (docs/api.md 3.2), in the deleting transaction before the user row
   * goes: the author's listings outside `publish` are deleted; the published ones move to `draft` and are kept
   * (the foreign key turns their author to null with the user row), each with a history entry without actor,
   * since the account is gone.
   */
  async releaseListingsOfDeletedAuthor(trx: Transaction<DB>, authorId: number, at: string): Promise<void> {
    await deleteUnpublishedListingsOfAuthor(trx, authorId);
    await recordSystemTransitions(trx, await unpublishListingsOfAuthor(trx, authorId, at), 'draft', 'account deleted', at);
  }
}
