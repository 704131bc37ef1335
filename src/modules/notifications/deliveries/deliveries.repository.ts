import type { OutboxState } from '../../../db/schema/index.js';
import type { Executor } from '../../../db/executor.js';

export interface DeliveryFilter {
  status: OutboxState;
  channel?: string;
}

/** Every column the administrator may see: all but the payload. */
const VISIBLE = ['id', 'channel', 'status', 'attempts', 'last_error', 'idempotency_key', 'created_at', 'available_at', 'sent_at'] as const;

function filtered(db: Executor, filter: DeliveryFilter) {
  let query = db.selectFrom('outbox').where('status', '=', filter.status);
  if (filter.channel !== undefined) query = query.where('channel', '=', filter.channel);
  return query;
}

/** A page of outbox messages in one state, newest first (outbox_status_idx: status, id). */
export async function findDeliveries(db: Executor, filter: DeliveryFilter, page: { limit: number; offset: number }) {
  return filtered(db, filter).select(VISIBLE).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export type DeliveryRow = Awaited<ReturnType<typeof findDeliveries>>[number];

export async function countDeliveries(db: Executor, filter: DeliveryFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findDelivery(db: Executor, id: number): Promise<DeliveryRow | undefined> {
  return db.selectFrom('outbox').select(VISIBLE).where('id', '=', id).executeTakeFirst();
}
