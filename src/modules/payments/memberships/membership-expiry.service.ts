import type { Kysely } from 'kysely';
import type { PaymentMode } from '../../../config.js';
import { recordEvent } from '../../../db/domain-events.js';
import type { DB } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';
import * as memberships from './memberships.repository.js';
import type { ListingMoves } from '../../properties/index.js';

export interface MembershipExpiryOptions {
  /** PAYMENT_MODE: only in `membership` mode do a membership's listings expire with it (docs/api.md 10). */
  mode: PaymentMode;
  /** Memberships handled per transaction. */
  batchSize?: number;
}

/** What one run did. */
export interface MembershipExpiryRun {
  /** Memberships whose owners were told they end within three days. */
  noticed: number;
  /** Memberships moved to `expired`. */
  expired: number;
  /** Listings of those memberships' owners moved to `expired`. */
  listingsExpired: number;
}

/**
 * Tells owners a few days ahead that their membership ends (`membership_expiring`, once per period: the
 * notice mark is cleared by each renewal or new package), and expires active memberships past their end
 * (`membership_expired`), expiring in `membership` mode their owners' `publish` and `on_hold` listings with
 * them, each with a history entry without actor and the reason `membership_expired`. Several processes may
 * run it at once: every change is a conditional update that re-checks what made it due, so each membership
 * is noticed and expired once, and a listing its owner moved meanwhile is left alone.
 */
export class MembershipExpiryJob {
  private readonly mode: PaymentMode;
  private readonly batchSize: number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly listings: Pick<ListingMoves, 'expireListingsOfAuthors'>,
    options: MembershipExpiryOptions,
  ) {
    this.mode = options.mode;
    this.batchSize = options.batchSize ?? 200;
  }

  /** Sends the notices and expiries due at `now`, one transaction per batch. */
  async runOnce(now = new Date()): Promise<MembershipExpiryRun> {
    const at = nowIso(now);
    const run: MembershipExpiryRun = { noticed: 0, expired: 0, listingsExpired: 0 };
    for (;;) {
      const batch = await this.noticeBatch(at, now);
      run.noticed += batch.done;
      // A short batch was the last; a full one that changed nothing lost every row to another process.
      if (batch.due < this.batchSize || batch.done === 0) break;
    }
    for (;;) {
      const batch = await this.expireBatch(at, now);
      run.expired += batch.done;
      run.listingsExpired += batch.listings;
      if (batch.due < this.batchSize || batch.done === 0) break;
    }
    return run;
  }

  private noticeBatch(at: string, now: Date): Promise<{ due: number; done: number }> {
    return this.db.transaction().execute(async (trx) => {
      const due = await memberships.findDueForNotice(trx, at, this.batchSize);
      const noticed = await memberships.markNoticed(trx, due, at);
      for (const membership of noticed) {
        await recordEvent(
          trx,
          'membership_expiring',
          {
            user_id: membership.user_id,
            membership_id: membership.id,
            package_id: membership.package_id,
            expires_at: membership.expires_at,
            // A renewing membership's notice announces the renewal rather than the end.
            auto_renew: membership.auto_renew === 1,
          },
          now,
        );
      }
      return { due: due.length, done: noticed.length };
    });
  }

  private expireBatch(at: string, now: Date): Promise<{ due: number; done: number; listings: number }> {
    return this.db.transaction().execute(async (trx) => {
      const due = await memberships.findDueForExpiry(trx, at, this.batchSize);
      const expired = await memberships.expireMemberships(trx, due, at);
      const ownerIds = expired.map((membership) => membership.user_id);
      const moves = this.mode === 'membership' ? await this.listings.expireListingsOfAuthors(trx, ownerIds, 'membership_expired', at) : [];
      for (const membership of expired) {
        await recordEvent(
          trx,
          'membership_expired',
          {
            user_id: membership.user_id,
            membership_id: membership.id,
            package_id: membership.package_id,
            expires_at: membership.expires_at,
            listings_expired: moves.filter((move) => move.authorId === membership.user_id).length,
          },
          now,
        );
      }
      return { due: due.length, done: expired.length, listings: moves.length };
    });
  }
}
