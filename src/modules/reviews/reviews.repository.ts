import type { Expression, SqlBool, Transaction } from 'kysely';
import type { DB, Reaction, ReviewTarget } from '../../db/schema/index.js';
import type { PageWindow } from '../../lib/paging.js';
import type { RatingTotals } from '../../lib/rating.js';
import type { ReviewSort } from './reviews.schemas.js';
import { insertRows } from '../../db/dialect/bulk-load.js';
import type { Executor } from '../../db/executor.js';
import type { AgentAccess } from '../directory/index.js';

/** A reviewed record: a listing, an agent or an agency. */
export interface TargetRef {
  type: ReviewTarget;
  id: number;
}

/** The tables of the targets; each keeps `rating_sum` and `reviews_count` of its reviews (migration 0004). */
const TARGET_TABLES = { property: 'listings', agent: 'agents', agency: 'agencies' } as const;

// Reading reviews

/** A review with what its record shows of the author. */
export interface ReviewRow {
  id: number;
  target_type: ReviewTarget;
  target_id: number;
  author_id: number | null;
  rating: number;
  title: string;
  content: string;
  created_at: string;
  author_display_name: string | null;
  /** `media.sizes` JSON of the author's avatar, or null without one. */
  author_avatar_sizes: string | null;
}

/** `reviews as r`, the base of every read of review records. */
function reviewsTable(db: Executor) {
  return db.selectFrom('reviews as r');
}
type ReviewsQuery = ReturnType<typeof reviewsTable>;

function selectReviews(db: Executor) {
  return withReviewColumns(reviewsTable(db));
}

function withReviewColumns(query: ReviewsQuery) {
  return query
    .leftJoin('users as u', 'u.id', 'r.author_id')
    .leftJoin('media as m', 'm.id', 'u.avatar_media_id')
    .select(['r.id', 'r.target_type', 'r.target_id', 'r.author_id', 'r.rating', 'r.title', 'r.content', 'r.created_at'])
    .select(['u.display_name as author_display_name', 'm.sizes as author_avatar_sizes']);
}

const ORDER: Record<ReviewSort, { column: 'r.created_at' | 'r.rating'; direction: 'asc' | 'desc' }> = {
  d_date: { column: 'r.created_at', direction: 'desc' },
  a_date: { column: 'r.created_at', direction: 'asc' },
  d_rating: { column: 'r.rating', direction: 'desc' },
  a_rating: { column: 'r.rating', direction: 'asc' },
};

/** One page of a target's reviews (reviews_target_date_idx, reviews_target_rating_idx); ties by id descending. */
export async function findReviewPage(db: Executor, target: TargetRef, sort: ReviewSort, window: PageWindow): Promise<ReviewRow[]> {
  const { column, direction } = ORDER[sort];
  return selectReviews(db)
    .where('r.target_type', '=', target.type)
    .where('r.target_id', '=', target.id)
    .orderBy(column, direction)
    .orderBy('r.id', 'desc')
    .limit(window.perPage)
    .offset(window.offset)
    .execute();
}

export async function countReviewsOf(db: Executor, target: TargetRef): Promise<number> {
  const row = await db
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The records whose reviews a user receives (GET /users/reviews-received), as sets: listings by their authors, agent
 * and agency records by id. Each set is bounded by the user's agency and its agents, never by their listings.
 */
export interface OwnedTargets {
  listingAuthorIds: readonly number[];
  agentIds: readonly number[];
  agencyIds: readonly number[];
}

/** Which reviews a user's own list holds: those they wrote, or those of the records they own (of one kind, if given). */
export type UserReviewScope =
  { kind: 'authored'; authorId: number } | { kind: 'received'; owned: OwnedTargets; targetType?: ReviewTarget | undefined };

/**
 * Narrows a query over `reviews as r` to the scope. Received reviews are one OR of a branch per kind of target, each
 * read through reviews_target_date_idx; listings are found by author in a subquery (listings_author_idx), so the
 * statement stays the same whatever the number of listings. A scope with nothing in it matches nothing.
 */
function inScope(query: ReviewsQuery, scope: UserReviewScope): ReviewsQuery {
  if (scope.kind === 'authored') return query.where('r.author_id', '=', scope.authorId);
  const { owned, targetType } = scope;
  const wants = (type: ReviewTarget, ids: readonly number[]) => (targetType === undefined || targetType === type) && ids.length > 0;
  return query.where((eb) => {
    const branches: Expression<SqlBool>[] = [];
    if (wants('property', owned.listingAuthorIds)) {
      const listings = eb.selectFrom('listings as l').select('l.id').where('l.author_id', 'in', owned.listingAuthorIds);
      branches.push(eb.and([eb('r.target_type', '=', 'property'), eb('r.target_id', 'in', listings)]));
    }
    if (wants('agent', owned.agentIds)) branches.push(eb.and([eb('r.target_type', '=', 'agent'), eb('r.target_id', 'in', owned.agentIds)]));
    if (wants('agency', owned.agencyIds))
      branches.push(eb.and([eb('r.target_type', '=', 'agency'), eb('r.target_id', 'in', owned.agencyIds)]));
    return eb.or(branches);
  });
}

/**
 * One page of a user's own list of reviews (written or received), newest first, ties by id descending. Written
 * ones are found through reviews_author_target_unique (author_id first); only the scope's reviews are sorted.
 */
export async function findUserReviewPage(db: Executor, scope: UserReviewScope, window: PageWindow): Promise<ReviewRow[]> {
  return withReviewColumns(inScope(reviewsTable(db), scope))
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(window.perPage)
    .offset(window.offset)
    .execute();
}

export async function countUserReviews(db: Executor, scope: UserReviewScope): Promise<number> {
  const row = await inScope(reviewsTable(db), scope)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findReviewRow(db: Executor, id: number): Promise<ReviewRow | undefined> {
  return selectReviews(db).where('r.id', '=', id).executeTakeFirst();
}

export async function findReviewRows(db: Executor, ids: readonly number[]): Promise<ReviewRow[]> {
  if (ids.length === 0) return [];
  return selectReviews(db).where('r.id', 'in', ids).execute();
}

/** What permission checks need to know about a review. */
export interface ReviewSubject {
  target_type: ReviewTarget;
  target_id: number;
  author_id: number | null;
}

export async function findReviewSubject(db: Executor, id: number): Promise<ReviewSubject | undefined> {
  return db.selectFrom('reviews').select(['target_type', 'target_id', 'author_id']).where('id', '=', id).executeTakeFirst();
}

// Target names

/** An agent record a review names: its name and who stands behind it (what decides who may see it). */
export interface AgentTarget {
  name: string;
  access: AgentAccess;
}

/** The agent records of the ids, in one query; ids of deleted records are absent. */
export async function findAgentTargets(db: Executor, ids: readonly number[]): Promise<AgentTarget[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('agents')
    .leftJoin('agencies', 'agencies.id', 'agents.agency_id')
    .select(['agents.id', 'agents.name', 'agents.user_id', 'agents.agency_id', 'agencies.user_id as agency_user_id', 'agents.visible'])
    .where('agents.id', 'in', ids)
    .execute();
  return rows.map((row) => ({
    name: row.name,
    access: { id: row.id, userId: row.user_id, agencyId: row.agency_id, agencyUserId: row.agency_user_id, visible: row.visible === 1 },
  }));
}

/** The names of the agencies of the ids, in one query; ids of deleted records are absent. Agencies are public. */
export async function findAgencyNames(db: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('agencies').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

// Target totals

export async function findTotals(db: Executor, target: TargetRef): Promise<RatingTotals | undefined> {
  const row = await db
    .selectFrom(TARGET_TABLES[target.type])
    .select(['rating_sum', 'reviews_count'])
    .where('id', '=', target.id)
    .executeTakeFirst();
  return row && { rating_sum: Number(row.rating_sum), reviews_count: Number(row.reviews_count) };
}

// Writing reviews

export interface NewReview {
  target: TargetRef;
  authorId: number;
  rating: number;
  title: string;
  content: string;
  at: string;
}

/** Fails with a unique violation (reviews_author_target_unique) when the author has reviewed the target. */
export async function insertReview(trx: Transaction<DB>, review: NewReview): Promise<number> {
  const row = await trx
    .insertInto('reviews')
    .values({
      target_type: review.target.type,
      target_id: review.target.id,
      author_id: review.authorId,
      rating: review.rating,
      title: review.title,
      content: review.content,
      created_at: review.at,
      updated_at: review.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const LISTING_REVIEW_COLUMNS = ['target_type', 'target_id', 'author_id', 'rating', 'title', 'content', 'created_at', 'updated_at'];

/** Many listings' reviews with few multi-row statements (the bulk write path): `[listing, author, rating, title, content, at]` each. */
export function insertListingReviewRows(
  trx: Executor,
  rows: readonly (readonly [number, number, number, string, string, string])[],
): Promise<void> {
  return insertRows(
    trx,
    'reviews',
    LISTING_REVIEW_COLUMNS,
    rows.map(([listingId, authorId, rating, title, content, at]) => ['property', listingId, authorId, rating, title, content, at, at]),
  );
}

/** Deletes the review (its reactions go with it) and returns what its target's totals lose; undefined if gone. */
export async function deleteReview(trx: Transaction<DB>, id: number): Promise<{ target: TargetRef; rating: number } | undefined> {
  const row = await trx.deleteFrom('reviews').where('id', '=', id).returning(['target_type', 'target_id', 'rating']).executeTakeFirst();
  return row && { target: { type: row.target_type, id: row.target_id }, rating: row.rating };
}

// Reactions

export interface ReactionCounts {
  likes: number;
  dislikes: number;
}

/** Likes and dislikes of the reviews, counted from their rows in one query (review_reactions_pk). */
export async function countReactions(db: Executor, reviewIds: readonly number[]): Promise<Map<number, ReactionCounts>> {
  const counts = new Map<number, ReactionCounts>();
  if (reviewIds.length === 0) return counts;
  const rows = await db
    .selectFrom('review_reactions')
    .select(['review_id', 'reaction', (eb) => eb.fn.countAll().as('n')])
    .where('review_id', 'in', reviewIds)
    .groupBy(['review_id', 'reaction'])
    .execute();
  for (const row of rows) {
    const entry = counts.get(row.review_id) ?? { likes: 0, dislikes: 0 };
    if (row.reaction === 'like') entry.likes = Number(row.n);
    else entry.dislikes = Number(row.n);
    counts.set(row.review_id, entry);
  }
  return counts;
}

/** The user's reactions to the given reviews, in one query. */
export async function findReactionsOf(db: Executor, userId: number, reviewIds: readonly number[]): Promise<Map<number, Reaction>> {
  if (reviewIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('review_reactions')
    .select(['review_id', 'reaction'])
    .where('user_id', '=', userId)
    .where('review_id', 'in', reviewIds)
    .execute();
  return new Map(rows.map((row) => [row.review_id, row.reaction]));
}

/*
 * Each reaction write is one conditional statement that reports whether it applied: it does nothing when a
 * concurrent request of the same user has changed the row since it was read, and the caller decides again.
 */

/** Adds the reaction unless the user has one; true when this call added it. */
export async function insertReaction(db: Executor, reviewId: number, userId: number, reaction: Reaction, at: string): Promise<boolean> {
  const result = await db
    .insertInto('review_reactions')
    .values({ review_id: reviewId, user_id: userId, reaction, created_at: at })
    .onConflict((oc) => oc.columns(['review_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes the user's reaction if it is still `reaction`; true when this call removed it. */
export async function deleteReaction(db: Executor, reviewId: number, userId: number, reaction: Reaction): Promise<boolean> {
  const result = await db
    .deleteFrom('review_reactions')
    .where('review_id', '=', reviewId)
    .where('user_id', '=', userId)
    .where('reaction', '=', reaction)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Turns the user's reaction from `from` into `to` if it is still `from`; true when this call changed it. */
export async function switchReaction(
  db: Executor,
  reviewId: number,
  userId: number,
  from: Reaction,
  to: Reaction,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('review_reactions')
    .set({ reaction: to, created_at: at })
    .where('review_id', '=', reviewId)
    .where('user_id', '=', userId)
    .where('reaction', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findReaction(db: Executor, reviewId: number, userId: number): Promise<Reaction | undefined> {
  const row = await db
    .selectFrom('review_reactions')
    .select('reaction')
    .where('review_id', '=', reviewId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.reaction;
}
