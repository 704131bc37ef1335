import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';
import { EXPIRING_STATES, type ExpiringState, expireListings, findDueForExpiry, recordSystemTransitions } from './moderation.repository.js';

export interface ListingExpiryOptions {
  /** Listings moved per transaction. */
  batchSize?: number;
}

/**
 * Moves `publish` and `on_hold` listings whose `expires_at` has passed to `expired` (docs/api.md 4.3), recording
 * each move in the listing's history with no actor and the reason `expired`. Several processes may run it at
 * once: every move is conditional, so a listing expires once, and one that its owner moved in the meantime
 * is left alone. Term counts follow through the database triggers.
 */
export class ListingExpiryJob {
  private readonly batchSize: number;

  constructor(
    private readonly db: Kysely<DB>,
    options: ListingExpiryOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 200;
  }

  /** Expires every listing due at `now`, one transaction per batch; returns how many it moved. */
  async runOnce(now = new Date()): Promise<number> {
    const at = nowIso(now);
    let total = 0;
    for (;;) {
      const moved = await this.expireBatch(at);
      total += moved.expired;
      // A short batch was the last; a full one that moved nothing lost every row to concurrent moves.
      if (moved.due < this.batchSize || moved.expired === 0) return total;
    }
  }

  private async expireBatch(at: string): Promise<{ due: number; expired: number }> {
    return this.db.transaction().execute(async (trx) => {
      const due = await findDueForExpiry(trx, at, this.batchSize);
      const moves: { listingId: number; from: ExpiringState }[] = [];
      for (const from of EXPIRING_STATES) {
        const ids = due.filter((listing) => listing.status === from).map((listing) => listing.id);
        for (const listingId of await expireListings(trx, ids, from, at)) moves.push({ listingId, from });
      }
      await recordSystemTransitions(trx, moves, 'expired', 'expired', at);
      return { due: due.length, expired: moves.length };
    });
  }
}
