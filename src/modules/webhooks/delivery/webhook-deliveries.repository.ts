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

/** Records an attempt's outcome: delivered, retried at `nextAttemptAt`, or given up (`failed`). Only while pending. */
export async function recordAttempt(
  db: Executor,
  id: number,
  attempt: AttemptRecord,
  outcome: { status: 'delivered' | 'failed' } | { status: 'pending'; nextAttemptAt: string },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_attempt_at: attempt.at,
      response_status: attempt.responseStatus,
      response_body: attempt.responseBody,
      latency_ms: attempt.latencyMs,
      last_error: attempt.error,
      status: outcome.status,
      ...(outcome.status === 'pending' ? { next_attempt_at: outcome.nextAttemptAt } : { finished_at: attempt.at }),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
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
