import type { Insertable } from 'kysely';
import type { Role, BroadcastRow, BroadcastsTable } from '../../../db/schema/index.js';
import type { Executor } from '../../../db/executor.js';

/** How many users a broadcast to `role` (or everyone) reaches now. */
export async function countRecipients(db: Executor, role: Role | null): Promise<number> {
  let query = db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (role !== null) query = query.where('role', '=', role);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

export async function insertBroadcast(db: Executor, broadcast: Insertable<BroadcastsTable>): Promise<number> {
  const row = await db.insertInto('broadcasts').values(broadcast).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The oldest broadcast still being fanned out. */
export async function findQueuedBroadcast(db: Executor): Promise<BroadcastRow | undefined> {
  return db.selectFrom('broadcasts').selectAll().where('status', '=', 'queued').orderBy('id').limit(1).executeTakeFirst();
}

/** The next recipients of a broadcast after the last one done, in id order (users_role_idx or the key). */
export async function findRecipientsAfter(db: Executor, role: Role | null, afterUserId: number, limit: number): Promise<number[]> {
  let query = db.selectFrom('users').select('id').where('id', '>', afterUserId);
  if (role !== null) query = query.where('role', '=', role);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((row) => row.id);
}

/**
 * Records a batch's progress, conditional on the progress that was read: false when another run got there
 * first (its transaction then rolls this batch back).
 */
export async function advanceBroadcast(db: Executor, id: number, from: number, to: number, finishedAt: string | null): Promise<boolean> {
  const result = await db
    .updateTable('broadcasts')
    .set({ last_user_id: to, ...(finishedAt ? { status: 'done' as const, finished_at: finishedAt } : {}) })
    .where('id', '=', id)
    .where('last_user_id', '=', from)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
