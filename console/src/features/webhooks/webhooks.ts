import type { Schemas } from '@realty-api/client';

/** An endpoint and a delivery as the API gives them (docs/api.md 16). */
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];

/** The event types an endpoint may take, in the order the form offers them. */
export const EVENT_TYPES = ['listing.created', 'listing.updated', 'listing.state_changed', 'listing.deleted'] as const;

/** The message key of an endpoint's state: enabled, or why it was disabled. */
export function stateKey(endpoint: Pick<WebhookEndpoint, 'enabled' | 'disabled_reason'>): string {
  return endpoint.enabled ? 'webhooks.state_enabled' : `webhooks.state_disabled_${endpoint.disabled_reason ?? 'manual'}`;
}

/** The events an endpoint takes as words: their message keys, in the form's order. */
export function eventKeys(events: readonly string[]): string[] {
  return EVENT_TYPES.filter((type) => events.includes(type)).map((type) => `webhooks.event_${type.replace('.', '_')}`);
}
