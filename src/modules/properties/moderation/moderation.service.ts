import type { Kysely } from 'kysely';
import type { Config } from '../../../config.js';
import type { DB, ListingState } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { plainText } from '../../../lib/text.js';
import { nowIso, toApiTimestamp } from '../../../lib/time.js';
import { assertCanManage, isModerator } from '../listing-access.js';
import type { ListingCharges } from '../listing-charges.js';
import { accessOf } from '../listing-records.service.js';
import { expiryOnPublish, MODERATOR_ACTIONS, type StateAction, targetState } from './listing-states.js';
import { assertSubmittable, type SubmissionRules } from '../submission-rule.js';
import * as moderation from './moderation.repository.js';
import {
  FEATURE_ACTIONS,
  type FeatureAction,
  type HistoryEntryRecord,
  type ListingHistoryRecord,
  type ListingStateRecord,
  type PropertyAction,
} from './moderation.schemas.js';
import { findListingCores, type ListingCoreRow, recordTransition } from '../properties.repository.js';
import type { Executor } from '../../../db/executor.js';

export type ModerationSettings = Pick<Config['listings'], 'requireApproval' | 'ttlDays'>;

/**
 * Listing states and moderation (docs/api.md 3.3, 4.3): who may move a listing where, each move made once however
 * many requests race for it, and its history. The state machine itself is listing-states.ts.
 */
export class ModerationService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: ModerationSettings,
    private readonly quotas: ListingCharges,
    private readonly submission: SubmissionRules,
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
  private async transition(
    caller: AuthUser,
    listingId: number,
    action: StateAction,
    reason: string | undefined,
  ): Promise<ListingStateRecord> {
    // Read before the transaction: on SQLite its one connection is the transaction's until it ends.
    const required = action === 'submit_listing' && !isModerator(caller) ? await this.submission.submissionFields() : [];
    return this.db.transaction().execute(async (trx) => {
      const listing = await findListing(trx, listingId);
      assertCanManage(caller, accessOf(listing));
      if (MODERATOR_ACTIONS.includes(action) && !isModerator(caller)) throw new AppError('forbidden');

      const from = listing.status;
      const to = targetState(action, from, { byModerator: isModerator(caller), requireApproval: this.settings.requireApproval });
      if (to === undefined) throw invalidTransition(from);
      // Before the fee: a listing that cannot be submitted is not charged for.
      await assertSubmittable(trx, listingId, required);
      // Paid before the move, as every flow that spends a credit locks the membership row before the listing
      // row; a move lost to a concurrent one below rolls the payment back with it.
      await this.quotas.chargeMove(trx, caller, listingId, from, to);
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
    // A paid featuring is bought once: featuring a listing that is featured already costs nothing.
    if (this.quotas.featuringCost(caller, featured) === 'none') {
      await moderation.setFeatured(this.db, listingId, featured, nowIso());
    } else if (listing.featured === 0) {
      await this.featureWithCredit(caller, listingId);
    }
    return { property_id: listingId, status: listing.status, featured };
  }

  /** Features the listing and spends the caller's featured credit, both or neither (402 without a credit). */
  private async featureWithCredit(caller: AuthUser, listingId: number): Promise<void> {
    try {
      await this.db.transaction().execute(async (trx) => {
        // The credit first, as every flow that spends one: the membership row is locked before the listing row.
        await this.quotas.chargeFeaturing(trx, caller);
        const changed = await moderation.setFeatured(trx, listingId, true, nowIso(), { onlyIfUnfeatured: true });
        if (!changed) throw new FeaturedMeanwhile();
      });
    } catch (error) {
      // A concurrent request featured it first: this one's credit is rolled back, and the listing is featured.
      if (!(error instanceof FeaturedMeanwhile)) throw error;
    }
  }
}

/** Rolls back a featured credit spent on a listing that another request featured meanwhile. */
class FeaturedMeanwhile extends Error {}

function isFeatureAction(action: PropertyAction): action is FeatureAction {
  return (FEATURE_ACTIONS as readonly string[]).includes(action);
}

async function findListing(db: Executor, id: number): Promise<ListingCoreRow> {
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
    actor: row.actor_id === null || row.actor_display_name === null ? null : { id: row.actor_id, display_name: row.actor_display_name },
    reason: row.reason,
    at: toApiTimestamp(row.at),
  };
}
