import type { Kysely } from 'kysely';
import { KeptConnections, OutboundError, postGuarded } from '../../../adapters/http/guarded-fetch.js';
import type { DB, WebhookDisabledReason, WebhookEndpointRow } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';
import type { Notifier } from '../../notifications/index.js';
import { DISABLE_AFTER_FAILING_MS, retryDelayMs } from './backoff.js';
import { signatureHeader } from './signatures.js';
import * as repository from './webhook-deliveries.repository.js';
import type { DueDelivery } from './webhook-deliveries.repository.js';

/** Deliveries picked at once, sent CONCURRENCY at a time: a batch lasts a few time-outs at most. */
const DELIVERY_BATCH = 256;
const CONCURRENCY = 64;
/** How long one run goes on sending batch after batch; well inside the job's lease (SHORT_LEASE_MS). */
const RUN_BUDGET_MS = 10_000;
/** Bytes of a receiver's answer kept with the delivery (and shown by the test route). */
const KEPT_RESPONSE_BYTES = 256;

export interface DeliveryPolicy {
  /** WEBHOOK_ALLOWED_HOSTS. */
  allowedHosts: readonly string[];
  /** WEBHOOK_TIMEOUT_MS: one attempt, from resolving the host to the answer's first bytes. */
  timeoutMs: number;
  /** Resolves host names (tests give one that answers without a network). */
  resolve?: (host: string) => Promise<string[]>;
}

/** What one POST to a receiver came to. */
export interface AttemptOutcome {
  responseStatus: number | null;
  responseBody: string | null;
  latencyMs: number;
  error: string | null;
}

/**
 * Sends queued deliveries (docs/webhooks.md, "Delivery"): at least once, in order per record and endpoint,
 * concurrently across records and endpoints. Each attempt goes through the outbound guard (the URL checked and
 * its address pinned every time, no redirect followed, WEBHOOK_TIMEOUT_MS), signed to Standard Webhooks 1.0.
 * A failure is retried with exponential back-off and jitter for about three days, then given up, which lets
 * the record's next event go. A 410, or five days without a success, disables the endpoint and tells its owner.
 *
 * Runs as the scheduled job `webhook-deliveries`, one process at a time; a batch's attempts are recorded after
 * they end, in one transaction, so a process killed mid-batch sends them again (at least once: receivers drop repeats by `webhook-id`).
 */
export class WebhookDeliverer {
  /**
   * Connections kept alive per receiver and checked address (guarded-fetch.ts): a new TCP connection per attempt
   * was most of an attempt's cost. Each attempt still checks the URL and its addresses.
   */
  private readonly connections = new KeptConnections(CONCURRENCY);

  constructor(
    private readonly db: Kysely<DB>,
    private readonly notifier: Notifier,
    private readonly policy: DeliveryPolicy,
    /** `paused`: WEBHOOK_DELIVERIES_PAUSED (beside the administrators' switch). `random`: the jitter's source. */
    private readonly options: { paused: boolean; random?: () => number },
  ) {}

  /**
   * Sends due deliveries batch after batch for up to RUN_BUDGET_MS (a job that asks to run again waits for the
   * scheduler's next tick, so one batch per run would cap the rate at a batch a second). `now` is the run's time;
   * later batches add the time spent. Answers how many were attempted, and whether more may be due at once.
   * Nothing is sent while paused: by WEBHOOK_DELIVERIES_PAUSED, or by the administrators' switch, read at every run
   * so that it holds across processes without a restart (a run already sending finishes its batch).
   */
  async runOnce(now: Date): Promise<{ attempted: number; more: boolean }> {
    if ((await this.pause()).paused) return { attempted: 0, more: false };
    const started = performance.now();
    let attempted = 0;
    for (;;) {
      const at = new Date(now.getTime() + (performance.now() - started));
      const due = await repository.findDueDeliveries(this.db, nowIso(at), DELIVERY_BATCH);
      const queue = [...due];
      const sent: SentAttempt[] = [];
      const workers = Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let delivery = queue.shift(); delivery; delivery = queue.shift()) sent.push(await this.attempt(delivery, at));
      });
      await Promise.all(workers);
      await this.record(sent, at);
      attempted += due.length;
      if (due.length < DELIVERY_BATCH) return { attempted, more: false };
      if (performance.now() - started >= RUN_BUDGET_MS) return { attempted, more: true };
    }
  }

  /**
   * Whether deliveries are held back, and by what: the setting (WEBHOOK_DELIVERIES_PAUSED, read at start) or the
   * administrators' switch (PUT /webhooks/settings, read from the database now).
   */
  async pause(): Promise<{
    paused: boolean;
    byEnvironment: boolean;
    bySwitch: boolean;
    updatedAt: string | null;
    updatedBy: number | null;
  }> {
    const row = await repository.findSettings(this.db);
    const bySwitch = row?.deliveries_paused === 1;
    const byEnvironment = this.options.paused;
    return {
      paused: byEnvironment || bySwitch,
      byEnvironment,
      bySwitch,
      updatedAt: row?.updated_at ?? null,
      updatedBy: row?.updated_by ?? null,
    };
  }

  /** Flips the administrators' switch; the next run of every process reads it. */
  async setPaused(paused: boolean, userId: number, now: Date): Promise<void> {
    await repository.saveSettings(this.db, paused, userId, nowIso(now));
  }

  /** POSTs a body to a URL, signed with the secrets, and tells what came of it; never throws. */
  async post(url: string, messageId: string, body: string, secrets: readonly string[], now: Date): Promise<AttemptOutcome> {
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'realty-api-webhooks/1',
      'webhook-id': messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, messageId, timestamp, body),
    };
    const started = performance.now();
    try {
      const answer = await postGuarded(url, { headers, body }, this.policy, KEPT_RESPONSE_BYTES, this.connections);
      return { responseStatus: answer.status, responseBody: storableText(answer.bodyStart), latencyMs: elapsed(started), error: null };
    } catch (error) {
      const reason = error instanceof OutboundError ? error.message : 'the request failed';
      return { responseStatus: null, responseBody: null, latencyMs: elapsed(started), error: reason };
    }
  }

  /** One attempt of a delivery; recorded with the rest of its batch. */
  private async attempt(delivery: DueDelivery, now: Date): Promise<SentAttempt> {
    const at = nowIso(now);
    const outcome = await this.post(delivery.url, delivery.public_id, delivery.body, signingSecrets(delivery, at), now);
    const status = outcome.responseStatus;
    return { delivery, attempt: { at, ...outcome }, succeeded: status !== null && status >= 200 && status <= 299 };
  }

  /**
   * Records a batch's attempts in one transaction (one commit per batch, not per delivery): delivered, retried
   * later with back-off, or given up past `give_up_at`. An endpoint that answered 2xx in the batch is no longer
   * failing; one that only failed is noted failing since its first failure, and disabled on a 410 or after five
   * days of it, its owner told in the same transaction.
   */
  private async record(sent: readonly SentAttempt[], now: Date): Promise<void> {
    if (sent.length === 0) return;
    const answered = new Set(sent.filter((one) => one.succeeded).map((one) => one.delivery.endpoint_id));
    const published = await this.db.transaction().execute(async (trx) => {
      const announced: Awaited<ReturnType<Notifier['announce']>> = [];
      await repository.recordAttempts(
        trx,
        sent.map(({ delivery, attempt, succeeded }): repository.RecordedAttempt => {
          if (succeeded) return { id: delivery.id, attempt, outcome: { status: 'delivered' } };
          const nextAttemptAt = now.getTime() + retryDelayMs(delivery.attempts + 1, this.options.random);
          const givenUp = nextAttemptAt > Date.parse(delivery.give_up_at);
          return {
            id: delivery.id,
            attempt,
            outcome: givenUp ? { status: 'failed' } : { status: 'pending', nextAttemptAt: nowIso(new Date(nextAttemptAt)) },
          };
        }),
      );
      await repository.clearFailing(trx, [...answered]);
      const failedOnly = new Map<number, SentAttempt>();
      for (const one of sent) if (!one.succeeded && !answered.has(one.delivery.endpoint_id)) failedOnly.set(one.delivery.endpoint_id, one);
      for (const [endpointId, { attempt }] of failedOnly) {
        const endpoint = await repository.noteFailing(trx, endpointId, attempt.at);
        if (!endpoint) continue;
        const gone = sent.some((one) => one.delivery.endpoint_id === endpointId && one.attempt.responseStatus === 410);
        const reason: WebhookDisabledReason | undefined = gone
          ? 'gone'
          : Date.parse(endpoint.failing_since ?? attempt.at) + DISABLE_AFTER_FAILING_MS <= now.getTime()
            ? 'failing'
            : undefined;
        if (!reason) continue;
        const disabled = await repository.disableEndpoint(trx, endpointId, reason, attempt.at);
        if (disabled) announced.push(...(await this.tellOwner(trx, disabled, reason, now)));
      }
      return announced;
    });
    this.notifier.publish(published);
  }

  /** The owner's notification that the endpoint was disabled, in the disabling transaction. */
  private async tellOwner(
    trx: Parameters<Notifier['announce']>[0],
    endpoint: WebhookEndpointRow,
    reason: WebhookDisabledReason,
    now: Date,
  ) {
    if (endpoint.owner_type !== 'user') return [];
    return this.notifier.announce(
      trx,
      [
        {
          userId: endpoint.owner_id,
          type: 'system',
          source: `webhook-disabled:${endpoint.id}:${nowIso(now)}`,
          text: {
            title: 'webhook_disabled_title',
            message: reason === 'gone' ? 'webhook_gone_message' : 'webhook_failing_message',
            params: { host: hostOf(endpoint.url) },
          },
          data: { webhook_id: endpoint.id, reason },
        },
      ],
      now,
    );
  }
}

interface SentAttempt {
  delivery: DueDelivery;
  attempt: repository.AttemptRecord;
  succeeded: boolean;
}

/** The endpoint's secret, and the one before its last rotation while that still signs. */
export function signingSecrets(
  endpoint: { secret: string; previous_secret: string | null; previous_secret_expires_at: string | null },
  at: string,
): string[] {
  const { secret, previous_secret: previous, previous_secret_expires_at: until } = endpoint;
  return previous !== null && until !== null && until > at ? [secret, previous] : [secret];
}

/**
 * A receiver's bytes as text both databases store: PostgreSQL refuses NUL in text, and a receiver answering one
 * would otherwise fail the recording of its whole batch, which would then be sent again and again.
 */
function storableText(text: string): string {
  return text.replaceAll('\u0000', '');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
