/**
 * A review as GET /users/reviews and GET /users/reviews-received answer it (docs/api.md 6.1, `UserReview`): the
 * review with what it is about. The buyers' "My reviews" and the owners' "Reviews received" read the same record.
 */

export const REVIEW_TARGET_TYPES = ['property', 'agent', 'agency'] as const;
export type ReviewTargetType = (typeof REVIEW_TARGET_TYPES)[number];

export interface UserReview {
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
  /** Once the author's account is deleted the API names them "Deleted user" (localized) with a null id. */
  author: { id: number | null; display_name: string; avatar_url: string | null };
  created_at: string;
}

/** A rating as a whole number of stars from 0 to 5 (the API's ratings are integers 1–5; anything else is clamped). */
export function starCount(rating: number): number {
  return Math.max(0, Math.min(5, Math.round(rating)));
}

/** Five stars, as many filled as the rating ("★★★★☆"), for the eye; the page says the number in text too. */
export function stars(rating: number): string {
  const filled = starCount(rating);
  return '★'.repeat(filled) + '☆'.repeat(5 - filled);
}
