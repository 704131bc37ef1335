import type { UserReview } from '../../api/reviews';

/** How the page shows the caller's own reviews (GET /users/reviews, docs/api.md 6.1). */

/** The API resource of this feature's list and deletion. */
export const MY_REVIEWS_RESOURCE = 'my-reviews';

/**
 * Where the reviewed record opens in the console: a listing the caller may still see opens on the explore page;
 * agents and agencies have no page of their own in the console, and a target that is gone or hidden has none.
 */
export function targetPath(review: Pick<UserReview, 'target_type' | 'target_id' | 'target_title'>): string | null {
  if (review.target_title === null) return null;
  return review.target_type === 'property' ? `/explore/${review.target_id}` : null;
}

/** The name of a review in controls that act on it ("Delete the review of …"): its title, else its target's. */
export function reviewName(review: Pick<UserReview, 'title' | 'target_title'>, fallback: string): string {
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
