import type { WebhookEndpointRow } from '../../db/schema/index.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { DeliveryListRow } from './webhooks.repository.js';
import type {
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookEventType,
  WebhookFilterInput,
  WebhookRecordType,
} from './webhooks.schemas.js';

const orNull = (stored: string | null) => (stored === null ? null : toApiTimestamp(stored));

/** An endpoint row as the API shows it: lists parsed, times in API form, never a secret. */
export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpointRecord {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEventType[],
    filter: row.filter === null ? null : (JSON.parse(row.filter) as WebhookFilterInput),
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    disabled_at: orNull(row.disabled_at),
    failing_since: orNull(row.failing_since),
    previous_secret_expires_at: orNull(row.previous_secret_expires_at),
    owner: { type: row.owner_type, id: row.owner_id },
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}

/** A delivery row (with its event's id, type and number) as GET /webhooks/{id}/deliveries shows it. */
export function toWebhookDelivery(row: DeliveryListRow): WebhookDeliveryRecord {
  return {
    id: row.id,
    event: { id: row.public_id, type: row.type, sequence: Number(row.seq) },
    record: { type: row.entity as WebhookRecordType, id: row.entity_id },
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? toApiTimestamp(row.next_attempt_at) : null,
    give_up_at: toApiTimestamp(row.give_up_at),
    last_attempt_at: orNull(row.last_attempt_at),
    response_status: row.response_status,
    response_body: row.response_body,
    latency_ms: row.latency_ms,
    error: row.last_error,
    created_at: toApiTimestamp(row.created_at),
    finished_at: orNull(row.finished_at),
  };
}
