import { SHORT_LEASE_MS } from '../../lib/background-job.js';
import type { AppModule, Platform } from '../module.js';
import type { NotificationsServices } from '../notifications/index.js';
import { type DeliveryPolicy, WebhookDeliverer } from './delivery/webhook-deliverer.service.js';
import { webhookGauges } from './delivery/webhook-gauges.js';
import { WebhookEventsFollower, type WebhookSources } from './events/webhook-events.service.js';
import { webhookRoutes } from './webhooks.routes.js';
import { WebhookDelivery, WebhookEndpoint, WebhookSettings } from './webhooks.schemas.js';
import { WebhooksService } from './webhooks.service.js';

const HOUR_MS = 3600_000;

export interface WebhooksServices {
  /** The administrators' endpoints (docs/api.md, "Webhooks"). */
  webhooks: WebhooksService;
  /** Derives events from the change log and queues their deliveries (the `webhook-events` job). */
  webhookEvents: WebhookEventsFollower;
  /** Sends the queued deliveries (the `webhook-deliveries` job). */
  webhookDeliverer: WebhookDeliverer;
}

/**
 * Outbound webhooks (issue 43, docs/webhooks.md): endpoints, events about listings, leads, reviews, agents,
 * agencies, invoices and memberships derived from the change log, deliveries
 * signed to Standard Webhooks 1.0, in order per record, retried for about three days.
 */
export function createWebhooksModule(
  { config, database }: Platform,
  deps: WebhookSources & { notifier: NotificationsServices['notifier'] },
): AppModule<WebhooksServices> {
  const { db } = database;
  const policy: DeliveryPolicy = { allowedHosts: config.webhooks.allowedHosts, timeoutMs: config.webhooks.timeoutMs };
  const webhookDeliverer = new WebhookDeliverer(db, deps.notifier, policy, { paused: config.webhooks.paused });
  const webhookEvents = new WebhookEventsFollower(db, deps);
  const webhooks = new WebhooksService(db, webhookDeliverer, config.webhooks.allowedHosts);
  const { pollMs } = config.webhooks;
  return {
    services: { webhooks, webhookEvents, webhookDeliverer },
    schemas: [WebhookEndpoint, WebhookDelivery, WebhookSettings],
    gauges: webhookGauges(db, webhookDeliverer),
    routes: async (api) => {
      await api.register(webhookRoutes, { webhooks });
    },
    jobs: [
      {
        name: 'webhook-events',
        intervalMs: pollMs,
        leaseMs: SHORT_LEASE_MS,
        run: async (now) => ((await webhookEvents.runOnce(now)) ? 0 : undefined),
      },
      {
        name: 'webhook-deliveries',
        intervalMs: pollMs,
        leaseMs: SHORT_LEASE_MS,
        run: async (now) => ((await webhookDeliverer.runOnce(now)).more ? 0 : undefined),
      },
      {
        name: 'webhook-prune',
        intervalMs: HOUR_MS,
        run: async (now) => {
          await webhookEvents.prune(now);
        },
      },
    ],
  };
}
