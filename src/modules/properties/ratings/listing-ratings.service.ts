import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { averageRating } from '../../../lib/rating.js';
import { addToListingTotals, setListingRating } from './listing-ratings.repository.js';

/**
 * A listing's review totals and the rating its records show. The reviews module asks for them inside the
 * transaction that adds or removes a review; `listings` is this module's table (modules/table-owners.ts).
 */
export class ListingRatings {
  /**
   * Adds a review's rating and count (negative when one is removed), then sets the one-decimal average from the
   * totals that update returned, under the same row lock. False when the listing is gone.
   */
  async addReview(trx: Transaction<DB>, listingId: number, ratingDelta: number, countDelta: number): Promise<boolean> {
    const totals = await addToListingTotals(trx, listingId, ratingDelta, countDelta);
    if (!totals) return false;
    await setListingRating(trx, listingId, averageRating(totals));
    return true;
  }
}
