/** What the caller may have been reviewed on (docs/api.md 6.1), and the review records. */

export interface ReviewRecord {
  id: number;
  target_type: 'property' | 'agent' | 'agency';
  target_id: number;
  rating: number;
  title: string;
  content: string;
  likes: number;
  dislikes: number;
  author: { id: number; display_name: string; avatar_url: string | null } | null;
  created_at: string;
}

export interface ReviewsAnswer {
  reviews: ReviewRecord[];
  pagination: { total_records: number; total_pages: number; current_page: number };
  rating: number | null;
  reviews_count: number;
}

export type ReviewTarget =
  { type: 'agent'; id: number } | { type: 'agency'; id: number } | { type: 'property'; id: number; title: string; reviews: number };

export interface ListingSummary {
  id: number;
  title: string;
  reviews_count?: number | null;
}

/**
 * The caller's reviewable records: their agent record, their agency, then their listings that have reviews
 * (the API has no route of "reviews about me", so each target is read on its own route).
 */
export function reviewTargets(
  identity: { agent_id: number | null; agency_id: number | null } | null | undefined,
  listings: readonly ListingSummary[],
): ReviewTarget[] {
  const targets: ReviewTarget[] = [];
  if (identity?.agency_id) targets.push({ type: 'agency', id: identity.agency_id });
  if (identity?.agent_id) targets.push({ type: 'agent', id: identity.agent_id });
  for (const listing of listings) {
    if ((listing.reviews_count ?? 0) > 0)
      targets.push({ type: 'property', id: listing.id, title: listing.title, reviews: listing.reviews_count ?? 0 });
  }
  return targets;
}

/** A target as the value of a <select> ("agent:30"), and back. */
export function targetKey(target: Pick<ReviewTarget, 'type' | 'id'>): string {
  return `${target.type}:${target.id}`;
}

export function findTarget(targets: readonly ReviewTarget[], key: string | null | undefined): ReviewTarget | undefined {
  return targets.find((target) => targetKey(target) === key) ?? targets[0];
}

const COLLECTION = { agent: '/agents', agency: '/agencies', property: '/properties' } as const;

/** The API route of a target's reviews. */
export function reviewsPath(target: Pick<ReviewTarget, 'type' | 'id'>): string {
  return `${COLLECTION[target.type]}/${target.id}/reviews`;
}

/** Five stars, as many filled as the rounded rating ("★★★★☆"), for the eye; the text says the number. */
export function stars(rating: number): string {
  const filled = Math.max(0, Math.min(5, Math.round(rating)));
  return '★'.repeat(filled) + '☆'.repeat(5 - filled);
}

export const REVIEW_SORTS = ['d_date', 'a_date', 'd_rating', 'a_rating'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];
