import type { ListingState } from '../../../db/schema/index.js';
import { recordListingMoves } from '../../../db/domain-events.js';
import type { Executor } from '../../../db/executor.js';

export interface StateMove {
  listingId: number;
  from: ListingState;
  to: ListingState;
  at: string;
  /** A new `expires_at`; undefined keeps the current one. */
  expiresAt?: string | undefined;
}

/**
 * Moves a listing to `to` only while it is still in `from`, and says whether it moved. Of two concurrent moves
 * from the same state only one applies: PostgreSQL re-checks the condition once the first mover's row lock is
 * released, and SQLite runs one write transaction at a time.
 */
export async function moveListingState(db: Executor, move: StateMove): Promise<boolean> {
  const result = await db
    .updateTable('listings')
    .set((eb) => ({
      status: move.to,
      updated_at: move.at,
      // As properties.repository setListingState: published_at records the first publication only.
      ...(move.to === 'publish' ? { published_at: eb.fn.coalesce('published_at', eb.val(move.at)) } : {}),
      ...(move.expiresAt === undefined ? {} : { expires_at: move.expiresAt }),
    }))
    .where('id', '=', move.listingId)
    .where('status', '=', move.from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findListingState(db: Executor, id: number): Promise<ListingState | undefined> {
  const row = await db.selectFrom('listings').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}

/**
 * Sets the featured flag and says whether a row changed. `onlyIfUnfeatured` sets it only on a listing not yet
 * featured, so that of two concurrent paid featurings only one applies (as moveListingState).
 */
export async function setFeatured(
  db: Executor,
  id: number,
  featured: boolean,
  at: string,
  { onlyIfUnfeatured = false }: { onlyIfUnfeatured?: boolean } = {},
): Promise<boolean> {
  let update = db
    .updateTable('listings')
    .set({ featured: featured ? 1 : 0, updated_at: at })
    .where('id', '=', id);
  if (onlyIfUnfeatured) update = update.where('featured', '=', 0);
  const result = await update.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface TransitionRow {
  from_state: ListingState | null;
  to_state: ListingState;
  actor_id: number | null;
  /** Null when the actor's account is gone (the foreign key sets `actor_id` null) or for the expiry job. */
  actor_display_name: string | null;
  reason: string;
  at: string;
}

/** The listing's transitions, oldest first (ids grow with time; `at` may tie within a millisecond). */
export async function findTransitions(db: Executor, listingId: number): Promise<TransitionRow[]> {
  return db
    .selectFrom('listing_transitions as t')
    .leftJoin('users as u', 'u.id', 't.actor_id')
    .select(['t.from_state', 't.to_state', 't.actor_id', 'u.display_name as actor_display_name', 't.reason', 't.at'])
    .where('t.listing_id', '=', listingId)
    .orderBy('t.id')
    .execute();
}

// The expiry job

/** States whose listings expire when `expires_at` passes (docs/api.md 4.3). */
export const EXPIRING_STATES = ['publish', 'on_hold'] as const satisfies readonly ListingState[];
export type ExpiringState = (typeof EXPIRING_STATES)[number];

/** Listings past their `expires_at`, oldest due first (index listings_status_expires_idx). */
export async function findDueForExpiry(db: Executor, now: string, limit: number): Promise<{ id: number; status: ExpiringState }[]> {
  return db
    .selectFrom('listings')
    .select(['id', 'status'])
    .where('status', 'in', EXPIRING_STATES)
    .where('expires_at', '<=', now)
    .$narrowType<{ status: ExpiringState }>()
    .orderBy('expires_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Moves those of `ids` still in `from` and still due to `expired`; returns the ids it moved. Re-checking both
 * conditions skips a listing that its owner moved, or that was published again, since it was read.
 */
export async function expireListings(db: Executor, ids: readonly number[], from: ExpiringState, now: string): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('listings')
    .set({ status: 'expired', updated_at: now })
    .where('id', 'in', ids)
    .where('status', '=', from)
    .where('expires_at', '<=', now)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** One history row per listing, for moves made by the system (no actor). */
export async function recordSystemTransitions(
  db: Executor,
  moves: readonly { listingId: number; from: ListingState }[],
  to: ListingState,
  reason: string,
  at: string,
): Promise<void> {
  if (moves.length === 0) return;
  await db
    .insertInto('listing_transitions')
    .values(moves.map((m) => ({ listing_id: m.listingId, from_state: m.from, to_state: to, actor_id: null, reason, at })))
    .execute();
  await recordListingMoves(
    db,
    moves.map((m) => ({ listingId: m.listingId, from: m.from, to, reason })),
    at,
  );
}

/**
 * Moves the users' listings in state `from` to `expired`, each only while still in that state (as the
 * listing expiry job's moves); returns the moves made.
 */
export async function expireListingsOfAuthors(
  db: Executor,
  authorIds: readonly number[],
  from: ExpiringState,
  now: string,
): Promise<{ listingId: number; authorId: number; from: ListingState }[]> {
  if (authorIds.length === 0) return [];
  const rows = await db
    .updateTable('listings')
    .set({ status: 'expired', updated_at: now })
    .where('author_id', 'in', authorIds)
    .where('status', '=', from)
    .returning(['id', 'author_id'])
    .$narrowType<{ author_id: number }>()
    .execute();
  return rows.map((row) => ({ listingId: row.id, authorId: row.author_id, from }));
}

/** Deletes the author's listings in every state but `publish` (an account deletion, docs/api.md 3.2). */
export async function deleteUnpublishedListingsOfAuthor(db: Executor, authorId: number): Promise<void> {
  await db.deleteFrom('listings').where('author_id', '=', authorId).where('status', '!=', 'publish').execute();
}

/** Moves the author's `publish` listings to `draft`; returns the moves made. */
export async function unpublishListingsOfAuthor(
  db: Executor,
  authorId: number,
  now: string,
): Promise<{ listingId: number; from: 'publish' }[]> {
  const rows = await db
    .updateTable('listings')
    .set({ status: 'draft', updated_at: now })
    .where('author_id', '=', authorId)
    .where('status', '=', 'publish')
    .returning('id')
    .execute();
  return rows.map((row) => ({ listingId: row.id, from: 'publish' as const }));
}
