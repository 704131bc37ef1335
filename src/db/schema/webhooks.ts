import type { ColumnType, Generated, Selectable } from 'kysely';

/** Outbound webhooks (migration 0034, modules/webhooks). */
export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_follower: WebhookFollowerTable;
  webhook_snapshots: WebhookSnapshotsTable;
  webhook_settings: WebhookSettingsTable;
}

/** The administrators' switch (migration 0038): one row, id 1, absent until first set. */
interface WebhookSettingsTable {
  id: number;
  /** 1: every delivery held back (events are still derived and queued). */
  deliveries_paused: number;
  updated_by: number | null;
  updated_at: string;
}

/** Who owns an endpoint: an administrator's account (`users.id`) or a machine client (`api_clients.id`). */
type WebhookOwnerType = 'user' | 'client';

export type WebhookDisabledReason = 'gone' | 'failing' | 'manual';

interface WebhookEndpointsTable {
  id: Generated<number>;
  url: string;
  description: Generated<string>;
  /** JSON array of event type names. */
  events: string;
  /** JSON of the filter, or null. */
  filter: string | null;
  /** `whsec_<base64>`. */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  owner_type: WebhookOwnerType;
  owner_id: number;
  enabled: Generated<number>;
  disabled_reason: WebhookDisabledReason | null;
  disabled_at: string | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

interface WebhookEventsTable {
  id: Generated<number>;
  /** `evt_<seq>_<n>`, the body's `id` and the `webhook-id` header. */
  public_id: string;
  /** A bigint: PostgreSQL returns it as a string, so readers convert it with Number(). */
  seq: ColumnType<number | string, number, never>;
  type: string;
  entity: string;
  entity_id: number;
  /** The JSON body sent, byte for byte. */
  body: string;
  /** JSON of what filters test (webhook-filter.ts). */
  facets: string;
  created_at: string;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: number;
  record_key: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: string;
  give_up_at: string;
  last_attempt_at: string | null;
  response_status: number | null;
  response_body: string | null;
  latency_ms: number | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

interface WebhookFollowerTable {
  name: string;
  position: ColumnType<number | string, number, number>;
  started_at: string;
}

interface WebhookSnapshotsTable {
  entity: string;
  entity_id: number;
  /** JSON: field name → hash of its value. */
  fields: string;
  /** JSON of the record's facets (webhook-filter.ts), which a deletion's event is filtered by. */
  facets: string;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
