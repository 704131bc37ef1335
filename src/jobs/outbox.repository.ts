import type { Executor } from '../db/executor.js';
import type { OutboxRow } from '../db/schema/index.js';

/** The worker's bookkeeping on `outbox` rows: which are due, claims, and the outcome of each send. */

export function findDueMessages(db: Executor, now: string, limit: number): Promise<OutboxRow[]> {
  return db
    .selectFrom('outbox')
    .selectAll()
    .where('status', '=', 'pending')
    .where('available_at', '<=', now)
    .orderBy('available_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Claims a due message by moving its `available_at` to the end of the lease, only while it is as it was read:
 * another worker that read the same row first has already moved it, and this claim changes nothing.
 */
export async function claimMessage(db: Executor, row: OutboxRow, leaseUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({ available_at: leaseUntil, attempts: row.attempts + 1 })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('available_at', '=', row.available_at)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** A sent message keeps only what its sender chose to keep of the payload. */
export async function markSent(db: Executor, id: number, keptPayload: string, at: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'sent', sent_at: at, last_error: null, payload: keptPayload })
    .where('id', '=', id)
    .execute();
}

export async function markFailed(db: Executor, id: number, failure: { dead: boolean; retryAt: string; error: string }): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: failure.dead ? 'dead' : 'pending', available_at: failure.retryAt, last_error: failure.error })
    .where('id', '=', id)
    .execute();
}
