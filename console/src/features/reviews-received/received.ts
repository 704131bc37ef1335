import type { CrudFilter } from '@refinedev/core';
import { REVIEW_TARGET_TYPES, type ReviewTargetType, type UserReview } from '../../api/reviews';

/**
 * How the page shows and filters the reviews of the caller's listings, agent records and agency
 * (GET /users/reviews-received, docs/api.md 6.1).
 */

/** The API resource of this feature's list. */
export const RECEIVED_RESOURCE = 'reviews-received';

/** The list's filter on the kind of target: a kind, or '' for every kind (no parameter sent). */
export type TargetFilter = ReviewTargetType | '';

/** The filter a control's value (or a value read back from the table's filters) stands for; anything else is ''. */
export function targetFilter(value: unknown): TargetFilter {
  return (REVIEW_TARGET_TYPES as readonly unknown[]).includes(value) ? (value as ReviewTargetType) : '';
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

/**
 * Where the reviewed record opens in the console: the caller's own listing opens in the listing editor (it is
 * theirs, in whatever state); agents and agencies have no page of their own here, and a target without a title
 * (gone, or no longer visible) has none.
 */
export function targetPath(review: Pick<UserReview, 'target_type' | 'target_id' | 'target_title'>): string | null {
  if (review.target_title === null || review.target_type !== 'property') return null;
  return `/listings/${review.target_id}/edit`;
}
