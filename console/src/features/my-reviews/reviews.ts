/** The caller's own reviews as GET /users/reviews answers them (docs/api.md 6.1), and how the page shows them. */

export type ReviewTargetType = 'property' | 'agent' | 'agency';

export interface MyReview {
  id: number;
  target_type: ReviewTargetType;
  target_id: number;
  /** The listing's title or the agent's or agency's name; null when the target is gone or hidden from the caller. */
  target_title: string | null;
  rating: number;
  title: string;
  content: string;
  likes: number;
  dislikes: number;
  created_at: string;
}

/** The API resource of this feature's list and deletion. */
export const MY_REVIEWS_RESOURCE = 'my-reviews';

/** A rating as a whole number of stars from 1 to 5 (the API's ratings are integers; anything else is clamped). */
export function starCount(rating: number): number {
  return Math.max(0, Math.min(5, Math.round(rating)));
}

/** Five stars, as many filled as the rating ("★★★★☆"), for the eye; the page says the number in text too. */
export function stars(rating: number): string {
  const filled = starCount(rating);
  return '★'.repeat(filled) + '☆'.repeat(5 - filled);
}

/**
 * Where the reviewed record opens in the console: a listing the caller may still see opens on the explore page;
 * agents and agencies have no page of their own in the console, and a target that is gone or hidden has none.
 */
export function targetPath(review: Pick<MyReview, 'target_type' | 'target_id' | 'target_title'>): string | null {
  if (review.target_title === null) return null;
  return review.target_type === 'property' ? `/explore/${review.target_id}` : null;
}

/** The name of a review in controls that act on it ("Delete the review of …"): its title, else its target's. */
export function reviewName(review: Pick<MyReview, 'title' | 'target_title'>, fallback: string): string {
  return review.title.trim() || review.target_title?.trim() || fallback;
}

/**
 * The page to show after a deletion: when the last review of the last page went, the page before it (the API
 * answers an empty page past the end, which would leave the caller on a page with nothing).
 */
export function pageAfterDeletion(currentPage: number, rowsLeftOnPage: number, totalPages: number): number {
  if (rowsLeftOnPage > 0 || currentPage <= 1) return currentPage;
  return Math.max(1, Math.min(currentPage - 1, totalPages));
}
