import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { Repeater } from '../../../lib/repeater.js';
import { addListingViews } from './view-counter.repository.js';

/** Where a failed flush (its counts are kept for the next one) or an unreachable Redis is reported. */
export interface ViewLog {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

const HOUR_MS = 3_600_000;
/** Clients remembered at once; past this the oldest hour of memory is dropped (some repeat views then count). */
const MAX_SEEN = 500_000;

/**
 * Counts listing views without a write per read (docs/api.md 4.2): a view counts once per client (user id, else
 * IP address) and listing per hour, increments are summed in memory and written in one transaction every
 * `flushIntervalMs` and at shutdown. With Redis the once-per-hour memory is shared by every process (a key
 * set only if absent, living an hour), checked after the local memory so that repeats cost no round trip;
 * when Redis cannot answer the view counts (fail open, as rate limits do). Without Redis the memory is per
 * process. Counts not yet flushed are lost if the process is killed (at most one interval's worth), which
 * view counts can afford.
 */
export class ViewCounter {
  private seen = new Map<string, number>();
  private pending = new Map<number, number>();
  /** Redis checks under way; a flush waits for them, so that a counted view is in it. */
  private readonly checking = new Set<Promise<void>>();
  private flushing: Promise<void> | undefined;
  private redisFailing = false;
  private readonly repeater = new Repeater(async () => {
    await this.flush();
    return this.flushIntervalMs;
  });

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: ViewLog,
    private readonly flushIntervalMs: number,
    /** Remembers recent viewers across processes; keys start with REDIS_KEY_PREFIX. */
    private readonly redis?: { client: Redis; keyPrefix: string },
  ) {}

  /** Notes a view of the listing by the client (never waits: a shared check completes on its own). */
  count(listingId: number, client: string, now = Date.now()): void {
    const key = `${listingId}:${client}`;
    const last = this.seen.get(key);
    if (last !== undefined && now - last < HOUR_MS) return;
    if (this.seen.size >= MAX_SEEN) this.forgetBefore(now - HOUR_MS);
    // Re-inserted so the map's order stays oldest first.
    this.seen.delete(key);
    this.seen.set(key, now);
    if (!this.redis) {
      this.increment(listingId);
      return;
    }
    const check = this.redis.client.set(`${this.redis.keyPrefix}view:${key}`, '1', 'PX', HOUR_MS, 'NX').then(
      (result) => {
        this.redisFailing = false;
        if (result === 'OK') this.increment(listingId);
      },
      (error: unknown) => {
        this.increment(listingId);
        // Once per outage, not once per view.
        if (!this.redisFailing) this.log.warn({ err: error }, 'redis unavailable: listing views are counted per process');
        this.redisFailing = true;
      },
    );
    this.checking.add(check);
    void check.finally(() => this.checking.delete(check));
  }

  /** Writes the summed increments; concurrent calls share one write. */
  async flush(): Promise<void> {
    await Promise.all(this.checking);
    return this.flushOnce();
  }

  start(): void {
    this.repeater.start();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    await this.repeater.stop();
    await this.flush();
  }

  private increment(listingId: number): void {
    this.pending.set(listingId, (this.pending.get(listingId) ?? 0) + 1);
  }

  private flushOnce(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await addListingViews(this.db, batch);
    } catch (error) {
      for (const [id, n] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + n);
      this.log.error({ err: error }, 'could not write listing views; they are kept for the next flush');
    }
  }

  /** Drops clients last seen before `cutoff`, and everything if that frees too little. */
  private forgetBefore(cutoff: number): void {
    for (const [key, at] of this.seen) {
      if (at >= cutoff) break;
      this.seen.delete(key);
    }
    if (this.seen.size >= MAX_SEEN) this.seen = new Map();
  }
}
