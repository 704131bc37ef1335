import type { Schemas } from '@realty-api/client';

/** An endpoint and a delivery as the API gives them (docs/api.md 16). */
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];

/** The switch over every delivery (GET and PUT /webhooks/settings). */
export type WebhookSettings = Schemas['WebhookSettings'];

/** The listing event types: what a new endpoint takes unless the form says otherwise. */
export const LISTING_EVENT_TYPES = ['listing.created', 'listing.updated', 'listing.state_changed', 'listing.deleted'] as const;

/** The event types an endpoint may take, in the order the form offers them. */
export const EVENT_TYPES = [
  ...LISTING_EVENT_TYPES,
  'lead.created',
  'review.created',
  'agent.updated',
  'agency.updated',
  'invoice.paid',
  'membership.changed',
] as const;

/** The message key of a delivery's record ("Listing #42"): its type's. */
export function recordKey(record: { type: string }): string {
  return `webhooks.record_${record.type}`;
}

/** The message key of the sending switch's state: paused by the environment, by an administrator, or running. */
export function pauseKey(settings: Pick<WebhookSettings, 'deliveries_paused' | 'paused_by_environment'>): string {
  if (settings.paused_by_environment) return 'webhooks.paused_by_environment';
  return settings.deliveries_paused ? 'webhooks.paused_state' : 'webhooks.running_state';
}

/** The message key of an endpoint's state: enabled, or why it was disabled. */
export function stateKey(endpoint: Pick<WebhookEndpoint, 'enabled' | 'disabled_reason'>): string {
  return endpoint.enabled ? 'webhooks.state_enabled' : `webhooks.state_disabled_${endpoint.disabled_reason ?? 'manual'}`;
}

/** The events an endpoint takes as words: their message keys, in the form's order. */
export function eventKeys(events: readonly string[]): string[] {
  return EVENT_TYPES.filter((type) => events.includes(type)).map((type) => `webhooks.event_${type.replace('.', '_')}`);
}
