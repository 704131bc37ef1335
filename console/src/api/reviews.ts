import type { Schemas } from '@realty-api/client';

/**
 * A review as GET /users/reviews and GET /users/reviews-received answer it (docs/api.md 6.1, `UserReview`): the
 * review with what it is about. The buyers' "My reviews" and the owners' "Reviews received" read the same record.
 */

export type ReviewTargetType = Schemas['UserReview']['target_type'];
export const REVIEW_TARGET_TYPES = ['property', 'agent', 'agency'] as const satisfies readonly ReviewTargetType[];

export type UserReview = Schemas['UserReview'];

/** A rating as a whole number of stars from 0 to 5 (the API's ratings are integers 1–5; anything else is clamped). */
export function starCount(rating: number): number {
  return Math.max(0, Math.min(5, Math.round(rating)));
}

/** Five stars, as many filled as the rating ("★★★★☆"), for the eye; the page says the number in text too. */
export function stars(rating: number): string {
  const filled = starCount(rating);
  return '★'.repeat(filled) + '☆'.repeat(5 - filled);
}
