import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/schema/index.js';

/**
 * Adds to an agent's or an agency's review totals by increments; false when the record is gone.
 * NOTE: increments, never an aggregate subquery: see properties' addToListingTotals for the lost update that
 * a recomputation would allow under PostgreSQL's READ COMMITTED.
 */
export async function addToDirectoryTotals(
  trx: Transaction<DB>,
  type: 'agent' | 'agency',
  id: number,
  ratingDelta: number,
  countDelta: number,
): Promise<boolean> {
  // One literal table per branch, so that the architecture test can see which table is written.
  const totals = { rating_sum: sql<number>`rating_sum + ${ratingDelta}`, reviews_count: sql<number>`reviews_count + ${countDelta}` };
  const result =
    type === 'agent'
      ? await trx.updateTable('agents').set(totals).where('id', '=', id).executeTakeFirst()
      : await trx.updateTable('agencies').set(totals).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
