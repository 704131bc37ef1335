import type { Executor } from '../../../db/executor.js';

/** Of the given listings, those whose reference is exactly `reference` (the index keeps only a hash of it). */
export async function listingsWithReference(db: Executor, ids: readonly number[], reference: string): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('listings').select('id').where('id', 'in', ids).where('reference', '=', reference).execute();
  return new Set(rows.map((row) => row.id));
}
