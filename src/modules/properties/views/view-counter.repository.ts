import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';

/** Adds counted views to their listings in one transaction. */
export async function addListingViews(db: Kysely<DB>, views: ReadonlyMap<number, number>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // In id order, so that processes flushing at once take row locks in the same order (no deadlock).
    for (const [id, n] of [...views].sort(([a], [b]) => a - b)) {
      await trx
        .updateTable('listings')
        .set((eb) => ({ views: eb('views', '+', n) }))
        .where('id', '=', id)
        .execute();
    }
  });
}
