import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import type { RatingTotals } from '../../../lib/rating.js';

/**
 * Adds to a listing's review totals by increments and returns the new ones; undefined when the listing is gone.
 * NOTE: never recompute them with an aggregate subquery instead. Under PostgreSQL's READ COMMITTED, an UPDATE
 * that waited for a concurrent review's row lock re-reads the row but not the subquery, whose snapshot misses
 * that review: a lost update. An increment applies to the row as the lock holder left it.
 */
export async function addToListingTotals(
  trx: Transaction<DB>,
  listingId: number,
  ratingDelta: number,
  countDelta: number,
): Promise<RatingTotals | undefined> {
  const row = await trx
    .updateTable('listings')
    .set((eb) => ({
      rating_sum: eb('rating_sum', '+', ratingDelta),
      reviews_count: eb('reviews_count', '+', countDelta),
    }))
    .where('id', '=', listingId)
    .returning(['rating_sum', 'reviews_count'])
    .executeTakeFirst();
  return row && { rating_sum: Number(row.rating_sum), reviews_count: Number(row.reviews_count) };
}

/** The rounded average that listing records show (`listings.rating`), set under the row lock of addToListingTotals. */
export async function setListingRating(trx: Transaction<DB>, listingId: number, rating: number | null): Promise<void> {
  await trx.updateTable('listings').set({ rating }).where('id', '=', listingId).execute();
}
