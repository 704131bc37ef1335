import type { Kysely } from 'kysely';
import { changeLogHead } from '../../../db/change-log.js';
import type { DB } from '../../../db/schema/index.js';
import type { MetricGauge } from '../../../lib/metric-gauge.js';
import { nowIso } from '../../../lib/time.js';
import type { WebhookDeliverer } from './webhook-deliverer.service.js';
import * as repository from './webhook-metrics.repository.js';

/**
 * The webhooks' figures on GET /metrics (http/metrics.ts), read from the database at each scrape, so that every
 * process reports the same whichever one delivers: deliveries by outcome, queue depth per endpoint, the lag of
 * the oldest due delivery, the change-log numbers not yet turned into events, and whether deliveries are paused.
 */
export function webhookGauges(db: Kysely<DB>, deliverer: Pick<WebhookDeliverer, 'pause'>): MetricGauge[] {
  return [
    {
      name: 'realty_webhook_deliveries',
      help: 'Webhook deliveries by status: pending (queued or retrying), delivered, failed (given up)',
      labelNames: ['status'],
      read: async () => (await repository.countDeliveriesByStatus(db)).map(({ status, count }) => ({ labels: { status }, value: count })),
    },
    {
      name: 'realty_webhook_queue_depth',
      help: 'Pending webhook deliveries per endpoint',
      labelNames: ['endpoint_id'],
      read: async () =>
        (await repository.pendingByEndpoint(db)).map(({ endpointId, count }) => ({
          labels: { endpoint_id: String(endpointId) },
          value: count,
        })),
    },
    {
      name: 'realty_webhook_lag_seconds',
      help: 'How long the oldest webhook delivery that is due now has been queued (0 when none is due)',
      read: async () => {
        const now = new Date();
        const oldest = await repository.oldestDueQueuedAt(db, nowIso(now));
        return oldest === undefined ? 0 : Math.max(0, (now.getTime() - Date.parse(oldest)) / 1000);
      },
    },
    {
      name: 'realty_webhook_events_backlog',
      help: 'Change-log entries not yet turned into webhook events',
      read: async () => Math.max(0, (await changeLogHead(db)) - (await repository.followerPosition(db))),
    },
    {
      name: 'realty_webhook_paused',
      help: 'Whether every delivery is held back (1: WEBHOOK_DELIVERIES_PAUSED or PUT /webhooks/settings) or not (0)',
      read: async () => ((await deliverer.pause()).paused ? 1 : 0),
    },
  ];
}
