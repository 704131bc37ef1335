import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../../db/executor.js';
import type { FeedSourcesTable } from '../../../db/schema/index.js';

export type FeedSourceRow = Selectable<FeedSourcesTable>;

export async function insertSource(db: Executor, values: Insertable<FeedSourcesTable>): Promise<FeedSourceRow> {
  return db.insertInto('feed_sources').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Every source, newest first (a site has a handful: one per partner feed). */
export async function findSources(db: Executor): Promise<FeedSourceRow[]> {
  return db.selectFrom('feed_sources').selectAll().orderBy('id', 'desc').execute();
}

export async function findSource(db: Executor, id: number): Promise<FeedSourceRow | undefined> {
  return db.selectFrom('feed_sources').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateSource(db: Executor, id: number, values: Updateable<FeedSourcesTable>): Promise<FeedSourceRow | undefined> {
  return db.updateTable('feed_sources').set(values).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteSource(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('feed_sources').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Unpaused sources whose pull is due at `now`, the longest overdue first (index feed_sources_due_idx). */
export async function findDueSources(db: Executor, now: string, limit: number): Promise<FeedSourceRow[]> {
  return db
    .selectFrom('feed_sources')
    .selectAll()
    .where('paused', '=', 0)
    .where('next_pull_at', '<=', now)
    .orderBy('next_pull_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Moves a source's next pull on, only if it is still the one read (`dueAt`) and the source is not paused: of two
 * processes that saw it due, one queues the pull.
 */
export async function advanceSource(db: Executor, id: number, dueAt: string, nextPullAt: string): Promise<boolean> {
  const result = await db
    .updateTable('feed_sources')
    .set({ next_pull_at: nextPullAt })
    .where('id', '=', id)
    .where('next_pull_at', '=', dueAt)
    .where('paused', '=', 0)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
