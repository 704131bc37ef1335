import type { CrudFilter } from '@refinedev/core';

/**
 * Reviews of the caller's listings, agent records and agency as GET /users/reviews-received answers them
 * (docs/api.md 6.1), and how the page shows and filters them.
 */

export const TARGET_TYPES = ['property', 'agent', 'agency'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export interface ReceivedReview {
  id: number;
  target_type: TargetType;
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

/** The API resource of this feature's list. */
export const RECEIVED_RESOURCE = 'reviews-received';

/** The list's filter on the kind of target: a kind, or '' for every kind (no parameter sent). */
export type TargetFilter = TargetType | '';

/** The filter a control's value (or a value read back from the table's filters) stands for; anything else is ''. */
export function targetFilter(value: unknown): TargetFilter {
  return (TARGET_TYPES as readonly unknown[]).includes(value) ? (value as TargetType) : '';
}

/** The table's filters for a kind of target: `target_type`, a parameter of the route, or none for every kind. */
export function toCrudFilters(filter: TargetFilter): CrudFilter[] {
  return filter === '' ? [] : [{ field: 'target_type', operator: 'eq', value: filter }];
}

/** The kind of target the table's current filters keep (after a reload with the filter in the address, too). */
export function fromCrudFilters(filters: readonly CrudFilter[]): TargetFilter {
  const found = filters.find((filter) => 'field' in filter && filter.field === 'target_type');
  return targetFilter(found?.value);
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

/**
 * Where the reviewed record opens in the console: the caller's own listing opens in the listing editor (it is
 * theirs, in whatever state); agents and agencies have no page of their own here, and a target without a title
 * (gone, or no longer visible) has none.
 */
export function targetPath(review: Pick<ReceivedReview, 'target_type' | 'target_id' | 'target_title'>): string | null {
  if (review.target_title === null || review.target_type !== 'property') return null;
  return `/listings/${review.target_id}/edit`;
}
