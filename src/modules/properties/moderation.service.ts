import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { DB, ListingState } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { AuthUser } from '../../http/request-context.js';
import { plainText } from '../../lib/text.js';
import { nowIso, toApiTimestamp } from '../../lib/time.js';
import { assertCanManage, isModerator } from './listing-access.js';
import { accessOf } from './listing-records.js';
import { expiryOnPublish, MODERATOR_ACTIONS, type StateAction, targetState } from './listing-states.js';
import * as moderation from './moderation.repository.js';
import {
  FEATURE_ACTIONS,
  FEATURE_SETTERS,
  type FeatureAction,
  type HistoryEntryRecord,
  type ListingHistoryRecord,
  type ListingStateRecord,
  type PropertyAction,
} from './moderation.schemas.js';
import { findListingCores, type ListingCoreRow, recordTransition } from './properties.repository.js';

export type ModerationSettings = Pick<Config['listings'], 'requireApproval' | 'ttlDays'>;

/**
 * Listing states and moderation (API.md 3.3, 4.3): who may move a listing where, each move made once however
 * many requests race for it, and its history. The state machine itself is listing-states.ts.
 */
export class ModerationService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: ModerationSettings,
  ) {}

  /** One action of POST /users/property-actions or of the single-action routes. */
  act(caller: AuthUser, listingId: number, action: PropertyAction, reason?: string): Promise<ListingStateRecord> {
    return isFeatureAction(action)
      ? this.setFeatured(caller, listingId, action === 'set_featured', reason)
      : this.transition(caller, listingId, action, reason);
  }

  async history(caller: AuthUser, listingId: number): Promise<ListingHistoryRecord> {
    const listing = await findListing(this.db, listingId);
    assertCanManage(caller, accessOf(listing));
    const rows = await moderation.findTransitions(this.db, listingId);
    return { history: rows.map(toHistoryEntry) };
  }

  /**
   * Reads, checks and moves in one transaction. The move is conditional on the state that was read, so a
   * concurrent move that got there first makes this one a 409 rather than a second move.
   */
  private transition(
    caller: AuthUser,
    listingId: number,
    action: StateAction,
    reason: string | undefined,
  ): Promise<ListingStateRecord> {
    return this.db.transaction().execute(async (trx) => {
      const listing = await findListing(trx, listingId);
      assertCanManage(caller, accessOf(listing));
      if (MODERATOR_ACTIONS.includes(action) && !isModerator(caller)) throw new AppError('forbidden');

      const from = listing.status;
      const to = targetState(action, from, { byModerator: isModerator(caller), requireApproval: this.settings.requireApproval });
      if (to === undefined) throw invalidTransition(from);
      // NOTE: `live` will need a listing credit in membership mode (API.md 3.3) once payments land.
      const now = new Date();
      const at = nowIso(now);
      const expiresAt = to === 'publish' ? expiryOnPublish(from, now, this.settings.ttlDays) : undefined;
      const moved = await moderation.moveListingState(trx, { listingId, from, to, at, expiresAt });
      if (!moved) {
        const current = await moderation.findListingState(trx, listingId);
        if (current === undefined) throw AppError.notFound();
        throw invalidTransition(current);
      }
      await recordTransition(trx, { listingId, from, to, actorId: caller.id, reason: plainText(reason ?? ''), at });
      // NOTE: notify the owner of approve, disapprove (with the reason) and expire here once notifications exist.
      return { property_id: listingId, status: to, featured: listing.featured === 1 };
    });
  }

  private async setFeatured(
    caller: AuthUser,
    listingId: number,
    featured: boolean,
    reason: string | undefined,
  ): Promise<ListingStateRecord> {
    // Featuring is not a state move and leaves no history, so there is nowhere to keep a reason.
    if (reason !== undefined) throw AppError.invalidField('reason', 'rule_unknown_field');
    const listing = await findListing(this.db, listingId);
    assertCanManage(caller, accessOf(listing));
    if (!(FEATURE_SETTERS as readonly string[]).includes(caller.role)) throw new AppError('forbidden');
    await moderation.setFeatured(this.db, listingId, featured, nowIso());
    return { property_id: listingId, status: listing.status, featured };
  }
}

function isFeatureAction(action: PropertyAction): action is FeatureAction {
  return (FEATURE_ACTIONS as readonly string[]).includes(action);
}

async function findListing(db: Kysely<DB> | Transaction<DB>, id: number): Promise<ListingCoreRow> {
  const [listing] = await findListingCores(db, [id]);
  if (!listing) throw AppError.notFound();
  return listing;
}

function invalidTransition(state: ListingState): AppError {
  return new AppError('invalid_transition', 'invalid_transition', [], { state });
}

function toHistoryEntry(row: moderation.TransitionRow): HistoryEntryRecord {
  return {
    from: row.from_state,
    to: row.to_state,
    actor:
      row.actor_id === null || row.actor_display_name === null
        ? null
        : { id: row.actor_id, display_name: row.actor_display_name },
    reason: row.reason,
    at: toApiTimestamp(row.at),
  };
}
