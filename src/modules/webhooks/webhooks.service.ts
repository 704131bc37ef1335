import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import { isRefusedAddress } from '../../adapters/http/guarded-fetch.js';
import type { DB, WebhookEndpointRow } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { plainText } from '../../lib/text.js';
import { pageWindow, paginationOf } from '../../lib/paging.js';
import { nowIso, toApiTimestamp } from '../../lib/time.js';
import { signingSecrets, type WebhookDeliverer } from './delivery/webhook-deliverer.service.js';
import { newSigningSecret } from './delivery/signatures.js';
import { GIVE_UP_AFTER_MS } from './delivery/backoff.js';
import { passesFilter } from './webhook-filter.js';
import { toWebhookDelivery, toWebhookEndpoint } from './webhooks.mapper.js';
import * as repository from './webhooks.repository.js';
import type {
  CreatedWebhookEndpointRecord,
  CreateWebhookInput,
  DeliveriesQueryInput,
  DeliveryListRecord,
  ReplayResultRecord,
  RotatedSecretRecord,
  UpdateWebhookInput,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookFilterInput,
  WebhookListRecord,
  WebhookSettingsInput,
  WebhookSettingsRecord,
  WebhookTestResultRecord,
} from './webhooks.schemas.js';

/** Endpoints per site: each costs a delivery per event, so the fan-out stays bounded. */
const MAX_ENDPOINTS = 100;
/** Events read per page while queuing a replay. */
const REPLAY_PAGE = 1000;
/** How long the secret before a rotation keeps signing beside the new one. */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/**
 * Webhook endpoints (docs/api.md, "Webhooks"): administrators make, change, rotate, test and delete them (the
 * routes say who may; endpoints are owned by the administrator who made one, and any administrator manages
 * every one). A machine client with the `webhooks:manage` scope owns the endpoints it makes and sees only those.
 */
export class WebhooksService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly deliverer: WebhookDeliverer,
    /** WEBHOOK_ALLOWED_HOSTS: hosts that may be private addresses. */
    private readonly allowedHosts: readonly string[],
  ) {}

  async create(caller: AuthUser, input: CreateWebhookInput, now = new Date()): Promise<CreatedWebhookEndpointRecord> {
    const url = this.checkedUrl(input.url);
    const at = nowIso(now);
    const secret = newSigningSecret();
    const row = await this.db.transaction().execute(async (trx) => {
      if ((await repository.countEndpoints(trx)) >= MAX_ENDPOINTS) throw new AppError('conflict', 'webhook_too_many');
      return repository.insertEndpoint(trx, {
        url,
        description: plainText(input.description ?? ''),
        events: JSON.stringify(input.events),
        filter: filterText(input.filter),
        secret,
        ...ownerOf(caller),
        created_at: at,
        updated_at: at,
      });
    });
    return { ...toWebhookEndpoint(row), secret };
  }

  /** Every endpoint for an administrator; a machine client's own only. */
  async list(caller: AuthUser): Promise<WebhookListRecord> {
    const rows = (await repository.findEndpoints(this.db)).filter((row) => isVisibleTo(caller, row));
    return { webhooks: rows.map(toWebhookEndpoint), total_webhooks: rows.length };
  }

  async get(id: number): Promise<WebhookEndpointRecord> {
    return toWebhookEndpoint(await this.found(id));
  }

  /** Another owner's endpoint is, to a machine client, one that does not exist: 404. */
  async assertVisible(caller: AuthUser, id: number): Promise<void> {
    const row = await repository.findEndpoint(this.db, id);
    if (row && !isVisibleTo(caller, row)) throw AppError.notFound();
  }

  async update(id: number, input: UpdateWebhookInput, now = new Date()): Promise<WebhookEndpointRecord> {
    const at = nowIso(now);
    const row = await repository.updateEndpoint(this.db, id, {
      ...(input.url === undefined ? {} : { url: this.checkedUrl(input.url) }),
      ...(input.events === undefined ? {} : { events: JSON.stringify(input.events) }),
      ...(input.filter === undefined ? {} : { filter: filterText(input.filter) }),
      ...(input.description === undefined ? {} : { description: plainText(input.description) }),
      ...(input.enabled === undefined
        ? {}
        : input.enabled
          ? { enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null }
          : { enabled: 0, disabled_reason: 'manual', disabled_at: at }),
      updated_at: at,
    });
    if (!row) throw AppError.notFound();
    return toWebhookEndpoint(row);
  }

  /** Deletes the endpoint and its deliveries (waiting ones are not sent). */
  async remove(id: number): Promise<void> {
    if (!(await repository.deleteEndpoint(this.db, id))) throw AppError.notFound();
  }

  /**
   * A new secret, shown once; the current one becomes the previous one and keeps signing beside it for 24 hours
   * (a second rotation within them drops the oldest), so receivers can switch without losing a delivery.
   */
  async rotateSecret(id: number, now = new Date()): Promise<RotatedSecretRecord> {
    const secret = newSigningSecret();
    const until = nowIso(new Date(now.getTime() + ROTATION_OVERLAP_MS));
    const row = await this.db.transaction().execute(async (trx) => {
      const current = await repository.findEndpoint(trx, id);
      if (!current) throw AppError.notFound();
      return repository.updateEndpoint(trx, id, {
        secret,
        previous_secret: current.secret,
        previous_secret_expires_at: until,
        updated_at: nowIso(now),
      });
    });
    return { id: row!.id, secret, previous_secret_expires_at: toApiTimestamp(until) };
  }

  /**
   * Sends a `webhook.test` event to the endpoint now, signed like every delivery and through the same guard, and
   * tells how the receiver answered. Nothing is queued or retried; a disabled endpoint is tested too.
   */
  async test(id: number, now = new Date()): Promise<WebhookTestResultRecord> {
    const endpoint = await this.found(id);
    const at = nowIso(now);
    const messageId = `evt_test_${endpoint.id}_${now.getTime()}`;
    const body = JSON.stringify({ id: messageId, type: 'webhook.test', timestamp: at, sequence: null, data: { webhook_id: endpoint.id } });
    const outcome = await this.deliverer.post(endpoint.url, messageId, body, signingSecrets(endpoint, at), now);
    const status = outcome.responseStatus;
    return {
      delivered: status !== null && status >= 200 && status <= 299,
      response_status: status,
      response_body: outcome.responseBody,
      latency_ms: outcome.latencyMs,
      error: outcome.error,
    };
  }

  /** The switch over every delivery, and what holds them back now. */
  async settings(): Promise<WebhookSettingsRecord> {
    const pause = await this.deliverer.pause();
    return {
      deliveries_paused: pause.paused,
      paused_by_switch: pause.bySwitch,
      paused_by_environment: pause.byEnvironment,
      updated_at: pause.updatedAt === null ? null : toApiTimestamp(pause.updatedAt),
      updated_by: pause.updatedBy,
    };
  }

  /**
   * Pauses or resumes every delivery (docs/webhooks.md, "Pausing"): stored, so that every process's next delivery
   * run reads it without a restart. Events keep being derived and queued while paused.
   */
  async updateSettings(caller: AuthUser, input: WebhookSettingsInput, now = new Date()): Promise<WebhookSettingsRecord> {
    await this.deliverer.setPaused(input.deliveries_paused, caller.id, now);
    return this.settings();
  }

  /** The endpoint's deliveries, newest first, one page (docs/api.md 0.2 paging), optionally of one status. */
  async deliveries(id: number, query: DeliveriesQueryInput): Promise<DeliveryListRecord> {
    await this.found(id);
    const window = pageWindow(query);
    const { rows, total } = await repository.findDeliveries(this.db, id, query.status, { offset: window.offset, limit: window.perPage });
    return { deliveries: rows.map(toWebhookDelivery), pagination: paginationOf(total, window) };
  }

  /**
   * Makes a pending or given-up delivery due now, with three more days of retries. It keeps its place in its
   * record's order: later events of the record still pending wait for it again. A delivered one → 409 (replay
   * sends delivered events again). Unknown, or another endpoint's → 404.
   */
  async retryDelivery(id: number, deliveryId: number, now = new Date()): Promise<WebhookDeliveryRecord> {
    return this.db.transaction().execute(async (trx) => {
      const row = await repository.findDelivery(trx, id, deliveryId);
      if (!row) throw AppError.notFound();
      if (row.status === 'delivered') throw new AppError('invalid_transition', 'webhook_delivery_delivered');
      await repository.requeueDelivery(trx, deliveryId, nowIso(now), nowIso(new Date(now.getTime() + GIVE_UP_AFTER_MS)));
      return toWebhookDelivery((await repository.findDelivery(trx, id, deliveryId))!);
    });
  }

  /**
   * Queues a new delivery of every kept event numbered `from_sequence` or later that the endpoint wants now (its
   * events and filter), in their order: they go out in order per record, after any of the record's deliveries
   * still pending from before. Events are kept 7 days; the answer tells the oldest one kept.
   */
  async replay(id: number, fromSequence: number, now = new Date()): Promise<ReplayResultRecord> {
    const at = nowIso(now);
    const giveUpAt = nowIso(new Date(now.getTime() + GIVE_UP_AFTER_MS));
    return this.db.transaction().execute(async (trx) => {
      const endpoint = await repository.findEndpoint(trx, id);
      if (!endpoint) throw AppError.notFound();
      const events = JSON.parse(endpoint.events) as string[];
      const filter = endpoint.filter === null ? null : (JSON.parse(endpoint.filter) as WebhookFilterInput);
      let queued = 0;
      let after: { seq: number; id: number } | undefined;
      for (;;) {
        const page = await repository.findEventsFrom(trx, fromSequence, after, REPLAY_PAGE);
        const wanted = page.filter((event) => events.includes(event.type) && passesFilter(filter, event.type, JSON.parse(event.facets)));
        await repository.insertDeliveryRows(
          trx,
          wanted.map((event) => ({
            endpoint_id: id,
            event_id: event.id,
            record_key: `${event.entity}:${event.entity_id}`,
            next_attempt_at: at,
            give_up_at: giveUpAt,
            created_at: at,
          })),
        );
        queued += wanted.length;
        const last = page[page.length - 1];
        if (!last || page.length < REPLAY_PAGE) break;
        after = { seq: last.seq, id: last.id };
      }
      return { queued, from_sequence: fromSequence, first_kept_sequence: await repository.firstKeptSequence(trx) };
    });
  }

  private async found(id: number): Promise<WebhookEndpointRow> {
    const row = await repository.findEndpoint(this.db, id);
    if (!row) throw AppError.notFound();
    return row;
  }

  /**
   * The URL as it is stored, when it may be one: absolute http(s), no credentials, and not a private address
   * written as such (a name is resolved and checked by the guard at every attempt: its addresses may change).
   */
  private checkedUrl(input: string): string {
    let url: URL;
    try {
      url = new URL(input.trim());
    } catch {
      throw AppError.invalidField('url', 'webhook_rule_url');
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
      throw AppError.invalidField('url', 'webhook_rule_url');
    }
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const allowed = this.allowedHosts.includes(host.toLowerCase());
    const local =
      isIP(host) !== 0 ? isRefusedAddress(host) : host.toLowerCase() === 'localhost' || host.toLowerCase().endsWith('.localhost');
    if (local && !allowed) throw AppError.invalidField('url', 'webhook_rule_private_address');
    return url.href;
  }
}

function filterText(filter: WebhookFilterInput | null | undefined): string | null {
  if (!filter || Object.keys(filter).length === 0) return null;
  return JSON.stringify(filter);
}

function ownerOf(caller: AuthUser): Pick<WebhookEndpointRow, 'owner_type' | 'owner_id'> {
  return caller.client ? { owner_type: 'client', owner_id: caller.client.id } : { owner_type: 'user', owner_id: caller.id };
}

function isVisibleTo(caller: AuthUser, row: WebhookEndpointRow): boolean {
  return !caller.client || (row.owner_type === 'client' && row.owner_id === caller.client.id);
}
