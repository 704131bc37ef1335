import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';

/**
 * Favorites storage. Each write is one statement that cannot fail on a concurrent one: an insert meeting the
 * row a concurrent request has just added does nothing, and a delete of a row already gone deletes nothing,
 * so two requests racing on the same favorite both succeed. The caller's list is in property-lists.repository.ts.
 */

/** Adds the favorite unless it exists; true when this call added it. */
export async function addFavorite(db: Kysely<DB>, userId: number, listingId: number, at: string): Promise<boolean> {
  const result = await db
    .insertInto('favorites')
    .values({ user_id: userId, listing_id: listingId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'listing_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes the favorite; true when this call removed it. */
export async function removeFavorite(db: Kysely<DB>, userId: number, listingId: number): Promise<boolean> {
  const result = await db.deleteFrom('favorites').where('user_id', '=', userId).where('listing_id', '=', listingId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * How many users have the listing among their favorites (favorites_listing_idx), and whether the user is one
 * of them: one statement, so both figures come from the same moment even while other requests write.
 */
export async function favoriteStateOf(db: Kysely<DB>, userId: number, listingId: number): Promise<{ count: number; mine: boolean }> {
  const row = await db
    .selectFrom('favorites')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>(eb.case().when('user_id', '=', userId).then(1).else(0).end()).as('mine')])
    .where('listing_id', '=', listingId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), mine: Number(row.mine ?? 0) > 0 };
}
