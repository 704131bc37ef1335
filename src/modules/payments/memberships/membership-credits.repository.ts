import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';
import { lapsedBy } from './memberships.repository.js';

export type CreditKind = 'listing' | 'featured';

/**
 * Spends one credit of the user's membership if it is active, has not lapsed (past `expires_at`, or past it
 * by the renewal grace for one a Stripe subscription renews: memberships.periods.ts), and has one left: a
 * single conditional decrement, so two concurrent requests can never spend the last credit twice (the second
 * update finds it at 0 and changes nothing). Unlimited listing credits (null) stay unlimited. False when no
 * credit could be spent: the caller answers 402 `quota_exceeded`, and its transaction rolls back anything
 * else it wrote.
 */
export async function spendCredit(trx: Transaction<DB>, userId: number, kind: CreditKind, now = new Date()): Promise<boolean> {
  const at = nowIso(now);
  let update = trx
    .updateTable('memberships')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb.not(lapsedBy(eb, at))]));
  update =
    kind === 'listing'
      ? update
          .set({ remaining_listings: sql`case when remaining_listings is null then null else remaining_listings - 1 end`, updated_at: at })
          .where((eb) => eb.or([eb('remaining_listings', 'is', null), eb('remaining_listings', '>', 0)]))
      : update.set({ remaining_featured: sql`remaining_featured - 1`, updated_at: at }).where('remaining_featured', '>', 0);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
