import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { CacheVersionReader } from '../../db/cache-versions.js';
import type { RevocationSignal } from './session-cache.service.js';

/** What revocation code calls after its transaction commits, so that other processes drop cached sessions. */
export interface RevocationAnnouncer {
  announce(): Promise<void>;
}

/** The database stamp `sessions`, moved by triggers in every revoking transaction (db/dialect/ddl/session-triggers.ts). */
export class DatabaseStampSignal implements RevocationSignal, RevocationAnnouncer {
  constructor(private readonly read: CacheVersionReader) {}

  isTrustworthy(): boolean {
    return true;
  }

  stamp(): Promise<string> {
    return this.read('sessions');
  }

  /** The stamp moved with the transaction itself: nothing more to tell. */
  async announce(): Promise<void> {}
}

/**
 * Revocations pushed through Redis pub/sub: every process subscribes; each message (and each reconnect,
 * when messages may have been missed) moves a local counter that serves as the stamp. While the
 * subscription is not live the cache is bypassed, so a Redis outage costs speed, never correctness.
 */
export class RedisRevocationChannel implements RevocationSignal, RevocationAnnouncer {
  private epoch = 0;
  private subscribed = false;
  private readonly subscriber: Redis;

  constructor(
    private readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
    /** REDIS_KEY_PREFIX + `sessions:revoked`. */
    private readonly channel: string,
  ) {
    this.subscriber = redis.duplicate();
    this.subscriber.on('message', () => {
      this.epoch++;
    });
    this.subscriber.on('ready', () => {
      this.subscriber.subscribe(this.channel).then(
        () => {
          this.epoch++;
          this.subscribed = true;
        },
        (error: unknown) => this.log.warn({ err: error }, 'session revocation subscription failed'),
      );
    });
    for (const event of ['close', 'end', 'reconnecting'] as const) {
      this.subscriber.on(event, () => {
        this.subscribed = false;
      });
    }
    this.subscriber.on('error', (error: unknown) => this.log.warn({ err: error }, 'session revocation channel error'));
  }

  isTrustworthy(): boolean {
    return this.subscribed;
  }

  stamp(): string {
    return String(this.epoch);
  }

  async announce(): Promise<void> {
    this.epoch++; // this process at once, before the message comes back
    try {
      await this.redis.publish(this.channel, '1');
    } catch (error) {
      // Subscribers whose connection is down bypass their cache; others keep an entry at most a minute.
      this.log.warn({ err: error }, 'could not announce a session revocation');
    }
  }

  close(): void {
    this.subscriber.disconnect();
  }
}
