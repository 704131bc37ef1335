/** A rating target's stored totals (docs/api.md 6.1): the sum of its reviews' ratings and their number. */
export interface RatingTotals {
  rating_sum: number;
  reviews_count: number;
}

/**
 * The one-decimal average of a target's ratings, null without reviews. Computed here rather than in SQL so
 * that both databases give the same value (they round halves differently); totals may arrive as strings
 * from PostgreSQL's bigint sums.
 */
export function averageRating({ rating_sum, reviews_count }: RatingTotals): number | null {
  const count = Number(reviews_count);
  return count === 0 ? null : Math.round((Number(rating_sum) * 10) / count) / 10;
}
