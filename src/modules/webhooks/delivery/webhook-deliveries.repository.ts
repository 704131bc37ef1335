import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../../db/executor.js';
import type { WebhookDisabledReason, WebhookEndpointRow } from '../../../db/schema/index.js';

/** A delivery whose turn it is, with what sending it needs. */
export interface DueDelivery {
  id: number;
  endpoint_id: number;
  attempts: number;
  give_up_at: string;
  public_id: string;
  body: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

/**
 * Deliveries due at `at` to enabled endpoints, each the first one still pending of its record and endpoint (a
 * record's next event waits for the previous one: in order per record), oldest due first. Deliveries of one
 * record to one endpoint never come twice in one answer, so they may all be sent at once.
 */
export async function findDueDeliveries(db: Executor, at: string, limit: number): Promise<DueDelivery[]> {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'd.attempts',
      'd.give_up_at',
      'v.public_id',
      'v.body',
      'e.url',
      'e.secret',
      'e.previous_secret',
      'e.previous_secret_expires_at',
    ])
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', at)
    .where('e.enabled', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as p')
            .select('p.id')
            .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
            .whereRef('p.record_key', '=', 'd.record_key')
            .where('p.status', '=', 'pending')
            .whereRef('p.event_id', '<', 'd.event_id'),
        ),
      ),
    )
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(limit)
    .execute();
}

export interface AttemptRecord {
  at: string;
  responseStatus: number | null;
  responseBody: string | null;
  latencyMs: number;
  error: string | null;
}

/** One attempt and what came of it, as recordAttempts takes them. */
export interface RecordedAttempt {
  id: number;
  attempt: AttemptRecord;
  outcome: { status: 'delivered' | 'failed' } | { status: 'pending'; nextAttemptAt: string };
}

/** Rows per statement: seven CASE columns of two parameters each stay far below either database's limit. */
const ATTEMPTS_PER_STATEMENT = 128;

/**
 * Records attempts' outcomes: delivered, retried at `nextAttemptAt`, or given up (`failed`); only deliveries still
 * pending are touched. One UPDATE per ATTEMPTS_PER_STATEMENT (a CASE on the id per column), not one per delivery:
 * on PostgreSQL each statement is a round trip, and a batch is 256 of them.
 */
export async function recordAttempts(db: Executor, attempts: readonly RecordedAttempt[]): Promise<void> {
  for (let start = 0; start < attempts.length; start += ATTEMPTS_PER_STATEMENT) {
    const chunk = attempts.slice(start, start + ATTEMPTS_PER_STATEMENT);
    const byId = (value: (one: RecordedAttempt) => RawBuilder<unknown>) =>
      sql<never>`case id ${sql.join(
        chunk.map((one) => sql`when ${one.id} then ${value(one)}`),
        sql` `,
      )} end`;
    const text = (value: string | null) => sql`${value}`;
    const integer = (value: number | null) => sql`cast(${value} as integer)`;
    await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        last_attempt_at: byId((one) => text(one.attempt.at)),
        response_status: byId((one) => integer(one.attempt.responseStatus)),
        response_body: byId((one) => text(one.attempt.responseBody)),
        latency_ms: byId((one) => integer(one.attempt.latencyMs)),
        last_error: byId((one) => text(one.attempt.error)),
        status: byId((one) => text(one.outcome.status)),
        next_attempt_at: byId((one) => (one.outcome.status === 'pending' ? text(one.outcome.nextAttemptAt) : sql.ref('next_attempt_at'))),
        finished_at: byId((one) => (one.outcome.status === 'pending' ? sql.ref('finished_at') : text(one.attempt.at))),
      }))
      .where(
        'id',
        'in',
        chunk.map((one) => one.id),
      )
      .where('status', '=', 'pending')
      .execute();
  }
}

/** The endpoint answered: it is no longer failing. */
export async function clearFailing(db: Executor, endpointIds: readonly number[]): Promise<void> {
  if (endpointIds.length === 0) return;
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', 'in', endpointIds)
    .where('failing_since', 'is not', null)
    .execute();
}

/** Notes the first failure since the last success; returns the endpoint as it is now. */
export async function noteFailing(db: Executor, endpointId: number, at: string): Promise<WebhookEndpointRow | undefined> {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: at })
    .where('id', '=', endpointId)
    .where('failing_since', 'is', null)
    .execute();
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirst();
}

/** Disables the endpoint if it is enabled; returns it when this call disabled it. */
export async function disableEndpoint(
  db: Executor,
  endpointId: number,
  reason: WebhookDisabledReason,
  at: string,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason, disabled_at: at, updated_at: at })
    .where('id', '=', endpointId)
    .where('enabled', '=', 1)
    .returningAll()
    .executeTakeFirst();
}

/** The administrators' switch (migration 0038); undefined until first set (not paused). */
export async function findSettings(
  db: Executor,
): Promise<{ deliveries_paused: number; updated_by: number | null; updated_at: string } | undefined> {
  return db.selectFrom('webhook_settings').select(['deliveries_paused', 'updated_by', 'updated_at']).where('id', '=', 1).executeTakeFirst();
}

/** Sets the switch (its one row, made the first time). */
export async function saveSettings(db: Executor, paused: boolean, userId: number, at: string): Promise<void> {
  const values = { deliveries_paused: paused ? 1 : 0, updated_by: userId, updated_at: at };
  await db
    .insertInto('webhook_settings')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}
