import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { LocalWrites } from '../../../db/cache-versions.js';
import { changeLogHead } from '../../../db/change-log.js';
import type { DB } from '../../../db/schema/index.js';
import { Repeater } from '../../../lib/repeater.js';
import type { IndexFeed } from './index-feed.service.js';

export interface IndexFollowerOptions {
  /** How often it looks (SEARCH_ENGINE_POLL_MS): without Redis, reads the log's head this often. */
  pollMs: number;
  /** Tells other processes the head after this process's own writes, and hears theirs. */
  redis?: { client: Redis; channel: string };
}

/**
 * With Redis, how many polls pass between two reads of the head without news (a message lost while the
 * subscription was down, a process whose publication failed): 20 × 250 ms = 5 s by default.
 */
const SAFETY_POLLS = 20;
/**
 * After this process writes, how long it keeps reading the head at every poll. A write is counted when its
 * statement completes, before its transaction commits (db/cache-versions.ts): the number it gets at commit
 * may come a little later than the count, and a catch-up run in between finds nothing yet.
 */
const OWN_WRITES_WATCH_MS = 2_000;

/**
 * Keeps this process's search index following the changes of every process (issue 18: within 1 s). Runs in
 * every process that serves (modules/search/index.ts starts it), unlike the scheduler's jobs, which run in one
 * process per period.
 *
 * Without Redis it reads the change log's head every `pollMs` (the maximum of a unique index: cheap) and
 * catches up when it moved. With Redis a process that catches up after its own writes publishes its new
 * position on a channel, and the others catch up when told; each still reads the head now and then in case a
 * message was lost, and after a (re)connection of its subscriber.
 */
export class IndexFollower {
  private readonly repeater = new Repeater(() => this.tick());
  private subscriber: Redis | undefined;
  private writesSeen: number;
  private watchOwnWritesUntil = 0;
  private nextSafetyPollAt = 0;
  /** The highest position this process published or heard: it publishes only past it. */
  private announced = 0;

  constructor(
    private readonly feed: IndexFeed,
    private readonly db: Kysely<DB>,
    private readonly localWrites: LocalWrites,
    private readonly log: FastifyBaseLogger,
    private readonly options: IndexFollowerOptions,
  ) {
    this.writesSeen = localWrites.count;
  }

  /**
   * Starts following. The first build is begun by whoever starts the follower (engine/search-index.ts); a
   * tick that finds the index not built (that build failed) builds it.
   */
  start(): void {
    if (this.options.redis && !this.subscriber) this.subscriber = this.subscribe(this.options.redis);
    this.repeater.start();
  }

  /** Stops following and closes the subscriber connection (the shared Redis client stays open). */
  async stop(): Promise<void> {
    await this.repeater.stop();
    this.subscriber?.disconnect();
    this.subscriber = undefined;
  }

  private async tick(): Promise<number> {
    const { pollMs, redis } = this.options;
    try {
      const now = performance.now();
      const writes = this.localWrites.count;
      if (writes !== this.writesSeen) {
        this.writesSeen = writes;
        this.watchOwnWritesUntil = now + OWN_WRITES_WATCH_MS;
      }
      const watching = now < this.watchOwnWritesUntil;
      if (!redis || watching || now >= this.nextSafetyPollAt || !this.feed.built) {
        this.nextSafetyPollAt = now + pollMs * SAFETY_POLLS;
        // Builds when the first build failed; the head read is skipped while there is nothing to compare it with.
        if (!this.feed.built || (await changeLogHead(this.db)) > this.feed.position) await this.feed.catchUp();
      }
      // Searches catch up after this process's writes too (IndexFeed.fresh): announce whatever got applied.
      if (redis && watching && this.feed.position > this.announced) this.publish(redis, this.feed.position);
    } catch (error) {
      this.log.warn({ err: error }, 'search index follower could not catch up; trying again');
    }
    return pollMs;
  }

  private publish(redis: NonNullable<IndexFollowerOptions['redis']>, position: number): void {
    this.announced = position;
    redis.client.publish(redis.channel, String(position)).catch((error: unknown) => {
      this.log.warn({ err: error }, 'could not announce the search index position; other processes find it by polling');
    });
  }

  private subscribe({ client, channel }: NonNullable<IndexFollowerOptions['redis']>): Redis {
    const subscriber = client.duplicate();
    subscriber.on('message', (from: string, text: string) => {
      if (from !== channel) return;
      const head = Number(text);
      if (!Number.isSafeInteger(head)) return;
      this.announced = Math.max(this.announced, head);
      if (head > this.feed.position && this.feed.built) this.catchUpInBackground();
    });
    // On every (re)connection: messages sent while it was down are lost, so look at the log itself.
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).then(
        () => {
          if (this.feed.built) this.catchUpInBackground();
        },
        (error: unknown) => this.log.warn({ err: error }, 'search index channel subscription failed'),
      );
    });
    subscriber.on('error', (error: unknown) => this.log.warn({ err: error }, 'search index channel error'));
    return subscriber;
  }

  private catchUpInBackground(): void {
    this.feed.catchUp().catch((error: unknown) => this.log.warn({ err: error }, 'search index follower could not catch up'));
  }
}
