import type { Executor } from './executor.js';
import type { OutboxRow } from './schema/index.js';
import { nowIso } from '../lib/time.js';

/**
 * Recording durable side effects: a message written here in the transaction of the change that causes it
 * exists exactly when the change does; the outbox worker (jobs/outbox.ts) sends it later, at least once.
 */
export interface OutboxMessage {
  channel: string;
  /** Same key, same message: enqueuing it again is a no-op, and senders pass it on to receivers. */
  idempotencyKey: string;
  payload: unknown;
}

/**
 * Writes a side effect into the outbox. Call it with the transaction that makes the change it reports,
 * so that the message exists exactly when the change does.
 */
export async function enqueue(db: Executor, message: OutboxMessage, now = new Date()): Promise<void> {
  await enqueueMany(db, [message], now);
}

/** `enqueue` for several messages in one statement. */
export async function enqueueMany(db: Executor, messages: readonly OutboxMessage[], now = new Date()): Promise<void> {
  if (messages.length === 0) return;
  const at = nowIso(now);
  await db
    .insertInto('outbox')
    .values(
      messages.map((message) => ({
        channel: message.channel,
        idempotency_key: message.idempotencyKey,
        payload: JSON.stringify(message.payload),
        available_at: at,
        created_at: at,
        last_error: null,
        sent_at: null,
      })),
    )
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
}

/** The outbox payload of the `email` channel. */
export interface EmailPayload {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

/** Delivers one message of a channel; throwing schedules a retry. Returns what to keep of the payload once sent. */
export type ChannelSender = (payload: unknown, message: OutboxRow) => Promise<unknown>;

/** Messages waiting to be sent (pending, due or retrying) and the age in seconds of the oldest, for metrics. */
export async function outboxBacklog(db: Executor, now = new Date()): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => [eb.fn.countAll<number | string>().as('pending'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), oldestAgeSeconds: ageSeconds(row.oldest, now) };
}

/** Seconds from an ISO timestamp to `now`; 0 without one. */
export function ageSeconds(iso: string | null, now: Date): number {
  return iso === null ? 0 : Math.max(0, (now.getTime() - Date.parse(iso)) / 1000);
}

// Requeueing dead messages (the administrators' deliveries page, notifications module): the outbox is the
// platform's table (modules/table-owners.ts), so its writes stay here.

/**
 * Puts dead messages back in the queue: pending, no attempts, due at `at`, so that the worker (which takes
 * pending messages due by now) sends them on its next run with every attempt again. Conditional on `dead`, so
 * that of two retries (or a retry racing anything else) only one moves a message. One statement, so a set is
 * moved all at once or not at all.
 */
function requeueWhereDead(db: Executor, at: string) {
  return db.updateTable('outbox').set({ status: 'pending', attempts: 0, available_at: at }).where('status', '=', 'dead');
}

/** Requeues one dead message (requeueWhereDead); false when it was not dead or not there. */
export async function requeueDead(db: Executor, id: number, at: string): Promise<boolean> {
  const result = await requeueWhereDead(db, at).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Requeues every dead message, or every dead one of a channel (requeueWhereDead); how many moved. */
export async function requeueAllDead(db: Executor, filter: { channel?: string }, at: string): Promise<number> {
  let query = requeueWhereDead(db, at);
  if (filter.channel !== undefined) query = query.where('channel', '=', filter.channel);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
