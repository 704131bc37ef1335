import type { Selectable } from 'kysely';
import type { Executor } from '../../../db/executor.js';
import type { FeedTokensTable } from '../../../db/schema/index.js';

export type FeedTokenRow = Selectable<FeedTokensTable>;

export async function insertFeedToken(
  db: Executor,
  values: { name: string; format: string; token_hash: string; token_hint: string; created_by: number; created_at: string },
): Promise<FeedTokenRow> {
  return db.insertInto('feed_tokens').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Every token, newest first (a site has a handful: one per portal). */
export async function findFeedTokens(db: Executor): Promise<FeedTokenRow[]> {
  return db.selectFrom('feed_tokens').selectAll().orderBy('id', 'desc').execute();
}

/** The token whose hash this is, through the unique index on token_hash. */
export async function findFeedTokenByHash(db: Executor, tokenHash: string): Promise<FeedTokenRow | undefined> {
  return db.selectFrom('feed_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Deletes the token; false when there was none. */
export async function deleteFeedToken(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('feed_tokens').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Records a pull at `now` unless one was recorded since `staleBefore`: the condition in the statement keeps
 * concurrent pulls of one token from writing more than once.
 */
export async function touchFeedToken(db: Executor, id: number, now: string, staleBefore: string): Promise<void> {
  await db
    .updateTable('feed_tokens')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}
