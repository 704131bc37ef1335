import type { Executor } from '../../../db/executor.js';

/** Deliveries by status: pending (queued or retrying), delivered, failed (given up). */
export async function countDeliveriesByStatus(db: Executor): Promise<{ status: string; count: number }[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}

/** Pending deliveries per endpoint. */
export async function pendingByEndpoint(db: Executor): Promise<{ endpointId: number; count: number }[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['endpoint_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('status', '=', 'pending')
    .groupBy('endpoint_id')
    .execute();
  return rows.map((row) => ({ endpointId: row.endpoint_id, count: Number(row.count) }));
}

/** When the oldest delivery that is due now (to an enabled endpoint) was queued; undefined when none is. */
export async function oldestDueQueuedAt(db: Executor, at: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select((eb) => eb.fn.min('d.created_at').as('oldest'))
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', at)
    .where('e.enabled', '=', 1)
    .executeTakeFirstOrThrow();
  return row.oldest ?? undefined;
}

/** The change-log number the event follower has handled (0 before its first run). */
export async function followerPosition(db: Executor): Promise<number> {
  const row = await db.selectFrom('webhook_follower').select('position').executeTakeFirst();
  return row ? Number(row.position) : 0;
}
