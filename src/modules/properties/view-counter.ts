import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { Repeater } from '../../jobs/repeater.js';

/** Where a failed flush is reported; its counts are kept for the next one. */
export interface ViewLog {
  error(details: object, message: string): void;
}

const HOUR_MS = 3_600_000;
/** Clients remembered at once; past this the oldest hour of memory is dropped (some repeat views then count). */
const MAX_SEEN = 500_000;

/**
 * Counts listing views without a write per read (API.md 4.2): a view counts once per client (user id, else
 * IP address) and listing per hour, increments are summed in memory and written in one transaction every
 * `flushIntervalMs` and at shutdown. NOTE: the once-per-hour memory is per process; behind several processes
 * a client alternating between them can count once per process. Counts not yet flushed are lost if the
 * process is killed (at most one interval's worth), which view counts can afford.
 */
export class ViewCounter {
  private seen = new Map<string, number>();
  private pending = new Map<number, number>();
  private flushing: Promise<void> | undefined;
  private readonly repeater = new Repeater(async () => {
    await this.flush();
    return this.flushIntervalMs;
  });

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: ViewLog,
    private readonly flushIntervalMs: number,
  ) {}

  /** Notes a view of the listing by the client; returns whether it counted. */
  count(listingId: number, client: string, now = Date.now()): boolean {
    const key = `${listingId}:${client}`;
    const last = this.seen.get(key);
    if (last !== undefined && now - last < HOUR_MS) return false;
    if (this.seen.size >= MAX_SEEN) this.forgetBefore(now - HOUR_MS);
    // Re-inserted so the map's order stays oldest first.
    this.seen.delete(key);
    this.seen.set(key, now);
    this.pending.set(listingId, (this.pending.get(listingId) ?? 0) + 1);
    return true;
  }

  /** Writes the summed increments; concurrent calls share one write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  start(): void {
    this.repeater.start();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    await this.repeater.stop();
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.db.transaction().execute(async (trx) => {
        // In id order, so that processes flushing at once take row locks in the same order (no deadlock).
        for (const [id, n] of [...batch].sort(([a], [b]) => a - b)) {
          await trx.updateTable('listings').set((eb) => ({ views: eb('views', '+', n) })).where('id', '=', id).execute();
        }
      });
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
