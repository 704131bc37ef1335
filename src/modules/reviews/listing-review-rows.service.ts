import type { Executor } from '../../db/executor.js';
import type { ListingReviewRow, ListingReviewRowsWriter } from '../properties/index.js';
import { insertListingReviewRows } from './reviews.repository.js';

/**
 * Writes the `reviews` rows of many listings with few statements: the bulk write path's (properties'
 * ListingBulkWriter) way into reviews' table. The listings' rating totals are written by the bulk writer with
 * their rows, from the same reviews (what ListingRatings keeps for the reviews written one at a time).
 */
export class ListingReviewRows implements ListingReviewRowsWriter {
  insert(trx: Executor, reviews: readonly ListingReviewRow[]): Promise<void> {
    return insertListingReviewRows(
      trx,
      reviews.map((r) => [r.listingId, r.authorId, r.rating, r.title, r.content, r.createdAt] as const),
    );
  }
}
