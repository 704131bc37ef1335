import { FcmClient } from '../../adapters/push/fcm.js';
import { SHORT_LEASE_MS } from '../../lib/background-job.js';
import type { AppModule, Platform } from '../module.js';
import { Broadcasts } from './broadcasts/broadcasts.service.js';
import { deliveryRoutes } from './deliveries/deliveries.routes.js';
import { DeliveriesService } from './deliveries/deliveries.service.js';
import { notificationEmailSender } from './delivery/notification-email-sender.service.js';
import { NotificationHub } from './delivery/notification-hub.service.js';
import { Notifier, PUSH_CHANNEL } from './delivery/notifier.service.js';
import { pushSender } from './delivery/push-sender.service.js';
import { NotificationEventsJob } from './events/notification-events.service.js';
import { notificationRoutes } from './notifications.routes.js';
import { Notification } from './notifications.schemas.js';
import { NotificationsService } from './notifications.service.js';
import { notificationStreamRoutes } from './stream/notification-stream.routes.js';
import { UnsubscribeTokens } from './unsubscribe/unsubscribe-tokens.service.js';
import { unsubscribeRoutes } from './unsubscribe/unsubscribe.routes.js';
import { UnsubscribeService } from './unsubscribe/unsubscribe.service.js';

export interface NotificationsServices {
  /** Writes notifications (in-app rows, e-mail and push in the outbox) and hands them to the live streams. */
  notifier: Notifier;
  /** New notifications to the live streams (GET /notifications/stream), through Redis when it is set. */
  notificationHub: NotificationHub;
  /** Turns domain events (leads, reviews, listing moves, payments) into notifications. */
  notificationEvents: NotificationEventsJob;
  /** The administrator's queued notifications to a role or everyone; the scheduler fans them out. */
  broadcasts: Broadcasts;
  /** The caller's notifications, preferences and devices (docs/api.md 8). */
  notifications: NotificationsService;
  /** The administrator's view of the outbox: dead messages, and sending them again. */
  notificationDeliveries: DeliveriesService;
  /** The notification e-mails' unsubscribe links. */
  notificationUnsubscribe: UnsubscribeService;
}

/** Notifications (docs/api.md 8): in-app, e-mail and push deliveries, the live stream, broadcasts, unsubscribe links. */
export function createNotificationsModule({
  config,
  database,
  jwtSecret,
  redis,
  log,
  mailer,
  apiBaseUrl,
}: Platform): AppModule<NotificationsServices> {
  const { db } = database;
  const notifier = new Notifier({ push: config.push.fcm !== undefined });
  const notificationHub = new NotificationHub(log, redis ? { redis, channel: `${config.redisKeyPrefix}notifications` } : {});
  notifier.setPublisher(notificationHub);
  const unsubscribeTokens = new UnsubscribeTokens(jwtSecret);
  const notificationEvents = new NotificationEventsJob(db, notifier);
  const broadcasts = new Broadcasts(db, notifier);
  const notifications = new NotificationsService(db, notifier, broadcasts);
  const notificationDeliveries = new DeliveriesService(db);
  const notificationUnsubscribe = new UnsubscribeService(db, notifications, unsubscribeTokens);
  return {
    services: { notifier, notificationHub, notificationEvents, broadcasts, notifications, notificationDeliveries, notificationUnsubscribe },
    schemas: [Notification],
    routes: async (api) => {
      await api.register(notificationRoutes, { notifications });
      await api.register(deliveryRoutes, { deliveries: notificationDeliveries });
      await api.register(notificationStreamRoutes, {
        notifications,
        hub: notificationHub,
        heartbeatMs: config.notificationStreamHeartbeatMs,
      });
      await api.register(unsubscribeRoutes, { unsubscribe: notificationUnsubscribe });
    },
    senders: {
      notification_email: notificationEmailSender(db, mailer, {
        apiBaseUrl,
        listingUrlTemplate: config.listings.urlTemplate,
        tokens: unsubscribeTokens,
      }),
      ...(config.push.fcm ? { [PUSH_CHANNEL]: pushSender(db, new FcmClient(config.push.fcm)) } : {}),
    },
    jobs: [
      {
        name: 'notification-events',
        intervalMs: config.outboxPollMs,
        leaseMs: SHORT_LEASE_MS,
        run: async (now) => {
          const run = await notificationEvents.runOnce(now);
          if (run.processed > 0) log.debug({ events: run.processed }, 'domain events announced');
          return run.more ? 0 : undefined;
        },
      },
      { name: 'broadcasts', intervalMs: config.outboxPollMs, leaseMs: SHORT_LEASE_MS, run: (now) => broadcasts.fanOut(now) },
    ],
    stop: async () => notificationHub.close(),
  };
}

export type { Announcement, Notifier } from './delivery/notifier.service.js';
