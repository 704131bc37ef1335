import type { WebhookEndpointRow } from '../../db/schema/index.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { WebhookEndpointRecord, WebhookEventType, WebhookFilterInput } from './webhooks.schemas.js';

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
