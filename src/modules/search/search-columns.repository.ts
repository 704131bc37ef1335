import type { Executor } from '../../db/executor.js';
import { searchColumnsOf } from '../../lib/search-columns.js';

/** Recomputes the listing's search columns from its stored text and coordinates (after a partial update). */
export async function refreshSearchColumns(db: Executor, listingId: number): Promise<void> {
  const source = await db
    .selectFrom('listings')
    .select(['title', 'description', 'address', 'zipcode', 'reference', 'latitude', 'longitude'])
    .where('id', '=', listingId)
    .executeTakeFirst();
  if (!source) return;
  await db.updateTable('listings').set(searchColumnsOf(source)).where('id', '=', listingId).execute();
}
