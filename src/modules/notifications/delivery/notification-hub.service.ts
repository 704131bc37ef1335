import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { NotificationRow } from '../../../db/schema/index.js';
import { toNotification } from '../notifications.mapper.js';
import type { NotificationRecord } from '../notifications.schemas.js';
import type { NotificationPublisher } from './notifier.service.js';

/** The Redis channel every process publishes new notifications on and subscribes to. */
const NOTIFICATION_CHANNEL = 'realty-api:notifications';

/** Receives each new notification of one user, as its API record. */
export type NotificationListener = (notification: NotificationRecord) => void;

/**
 * Told that notifications may have been missed (the Redis subscription was down for a while): the stream
 * should end, so that its client reconnects with Last-Event-ID and reads the gap from the database.
 */
export type GapListener = () => void;

export interface NotificationHubOptions {
  /** Shares notifications between processes; without it they are delivered in this process only. */
  redis?: Redis;
  /** Default NOTIFICATION_CHANNEL; tests use their own, so that parallel test files do not hear each other. */
  channel?: string;
}

/** What travels on the channel: the API record and whose it is. */
type WireMessage = NotificationRecord & { user_id: number };

interface Subscription {
  listener: NotificationListener;
  onGap: GapListener | undefined;
}

/**
 * Hands new notifications to the live streams (notification-stream.routes.ts) of their user.
 *
 * Without Redis, `publish` delivers in this process at once. With Redis, `publish` only PUBLISHes, and
 * every process — the publishing one included — delivers what its own subscriber connection receives, so
 * each stream gets each notification once, whichever process created it. Publishing never throws: the
 * notification is committed already and a Redis outage must not fail the request or job that wrote it;
 * streams fill such gaps from the database when their client reconnects with Last-Event-ID.
 */
export class NotificationHub implements NotificationPublisher {
  private readonly subscriptions = new Map<number, Set<Subscription>>();
  private readonly channel: string;
  private readonly redis: Redis | undefined;
  private readonly subscriber: Redis | undefined;
  private closed = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    options: NotificationHubOptions = {},
  ) {
    this.channel = options.channel ?? NOTIFICATION_CHANNEL;
    this.redis = options.redis;
    this.subscriber = options.redis ? this.subscribeToRedis(options.redis) : undefined;
  }

  publish(notifications: readonly NotificationRow[]): void {
    if (this.closed || notifications.length === 0) return;
    if (this.redis === undefined) {
      for (const row of notifications) this.deliver(row.user_id, toNotification(row));
      return;
    }
    try {
      const pipeline = this.redis.pipeline();
      for (const row of notifications) {
        const message: WireMessage = { ...toNotification(row), user_id: row.user_id };
        pipeline.publish(this.channel, JSON.stringify(message));
      }
      pipeline.exec().then(
        (results) => {
          const failure = results?.find(([error]) => error !== null)?.[0];
          if (failure) this.logPublishFailure(failure, notifications);
        },
        (error: unknown) => this.logPublishFailure(error, notifications),
      );
    } catch (error) {
      this.logPublishFailure(error, notifications);
    }
  }

  /**
   * Calls `listener` with each new notification of `userId` until the returned function is called.
   * `onGap`, when given, is called if notifications may have been missed (see GapListener).
   */
  subscribe(userId: number, listener: NotificationListener, onGap?: GapListener): () => void {
    const subscription: Subscription = { listener, onGap };
    let own = this.subscriptions.get(userId);
    if (own === undefined) {
      own = new Set();
      this.subscriptions.set(userId, own);
    }
    own.add(subscription);
    return () => {
      const current = this.subscriptions.get(userId);
      if (current?.delete(subscription) && current.size === 0) this.subscriptions.delete(userId);
    };
  }

  /** Local listeners, for tests and metrics. */
  listenerCount(userId?: number): number {
    if (userId !== undefined) return this.subscriptions.get(userId)?.size ?? 0;
    let count = 0;
    for (const own of this.subscriptions.values()) count += own.size;
    return count;
  }

  /** Stops delivering and closes the subscriber connection (the shared `redis` stays the caller's). */
  close(): void {
    this.closed = true;
    this.subscriptions.clear();
    this.subscriber?.disconnect();
  }

  private subscribeToRedis(redis: Redis): Redis {
    const subscriber = redis.duplicate();
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      const message = parseWireMessage(text);
      if (message === undefined) {
        this.log.warn({ channel }, 'ignored a malformed live notification message');
        return;
      }
      const { user_id: userId, ...record } = message;
      this.deliver(userId, record);
    });
    // On every (re)connection: while the subscription was not live, messages may have been lost, so every
    // stream open meanwhile is told to start again from the database.
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel).then(
        () => this.signalGap(),
        (error: unknown) => this.log.warn({ err: error }, 'live notification subscription failed'),
      );
    });
    subscriber.on('error', (error: unknown) => this.log.warn({ err: error }, 'live notification channel error'));
    return subscriber;
  }

  private deliver(userId: number, record: NotificationRecord): void {
    const own = this.subscriptions.get(userId);
    if (own === undefined) return;
    for (const { listener } of [...own]) {
      try {
        listener(record);
      } catch (error) {
        this.log.error({ err: error, userId }, 'a live notification listener failed');
      }
    }
  }

  private signalGap(): void {
    if (this.closed) return;
    for (const own of [...this.subscriptions.values()]) {
      for (const { onGap } of [...own]) {
        try {
          onGap?.();
        } catch (error) {
          this.log.error({ err: error }, 'a live notification gap listener failed');
        }
      }
    }
  }

  private logPublishFailure(error: unknown, notifications: readonly NotificationRow[]): void {
    this.log.warn(
      { err: error, notifications: notifications.length },
      'could not publish live notifications; streams pick them up from the database when they reconnect',
    );
  }
}

function parseWireMessage(text: string): WireMessage | undefined {
  try {
    const value = JSON.parse(text) as Partial<WireMessage> | null;
    if (value === null || typeof value !== 'object') return undefined;
    if (!Number.isSafeInteger(value.user_id) || !Number.isSafeInteger(value.id)) return undefined;
    return value as WireMessage;
  } catch {
    return undefined;
  }
}
