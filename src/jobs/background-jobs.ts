import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { compactGeoCells } from '../db/dialect/geo-cell-compaction.js';
import type { DB } from '../db/schema.js';
import type { Broadcasts } from '../modules/notifications/broadcasts/broadcasts.service.js';
import type { ListingExpiryJob } from '../modules/properties/moderation/listing-expiry.service.js';
import type { MembershipExpiryJob } from '../modules/payments/memberships/membership-expiry.service.js';
import type { NotificationEventsJob } from '../modules/notifications/events/notification-events.service.js';
import type { OutboxWorker } from './outbox.js';
import { Scheduler } from './scheduler.js';

export interface BackgroundJobs {
  outbox: OutboxWorker;
  notificationEvents: NotificationEventsJob;
  broadcasts: Broadcasts;
  digests: { sendDigests(now: Date): Promise<number> };
  listingExpiry: ListingExpiryJob;
  membershipExpiry: MembershipExpiryJob;
}

export interface BackgroundIntervals {
  /** OUTBOX_POLL_MS: how soon a new message is sent, and events become notifications. */
  pollMs: number;
  /** GEO_CELLS_COMPACT_SECONDS. */
  geoCellsCompactMs: number;
}

const MINUTE = 60_000;
/** The frequent jobs bound their own runs to seconds; a process that dies holding one delays it by this. */
const SHORT_LEASE = { leaseMs: MINUTE };

/**
 * Every background job of the service, on one scheduler: each runs once per period however many processes
 * serve the API (scheduler.ts). A job that has more to do at once asks to run again without waiting.
 * Listing view counts are not here: each process flushes its own counters (view-counter.ts).
 */
export function scheduleBackgroundJobs(
  db: Kysely<DB>,
  log: FastifyBaseLogger,
  jobs: BackgroundJobs,
  intervals: BackgroundIntervals,
): Scheduler {
  const scheduler = new Scheduler(db, log, { tickMs: Math.min(1000, intervals.pollMs) });
  scheduler.every('outbox', intervals.pollMs, (now) => jobs.outbox.runScheduled(now), SHORT_LEASE);
  scheduler.every(
    'notification-events',
    intervals.pollMs,
    async (now) => {
      const run = await jobs.notificationEvents.runOnce(now);
      if (run.processed > 0) log.debug({ events: run.processed }, 'domain events announced');
      return run.more ? 0 : undefined;
    },
    SHORT_LEASE,
  );
  scheduler.every('broadcasts', intervals.pollMs, (now) => jobs.broadcasts.fanOut(now), SHORT_LEASE);
  scheduler.every('saved-search-digests', 5 * MINUTE, async (now) => {
    const sent = await jobs.digests.sendDigests(now);
    if (sent > 0) log.info({ digests: sent }, 'saved-search digests sent');
  });
  scheduler.every('listing-expiry', MINUTE, async (now) => {
    const expired = await jobs.listingExpiry.runOnce(now);
    if (expired > 0) log.info({ expired }, 'listings expired');
  });
  scheduler.every('membership-expiry', MINUTE, async (now) => {
    const run = await jobs.membershipExpiry.runOnce(now);
    if (run.noticed + run.expired > 0) log.info(run, 'memberships noticed and expired');
  });
  scheduler.every('geo-cells-compaction', intervals.geoCellsCompactMs, async () => {
    const folded = await compactGeoCells(db);
    if (folded > 0) log.debug({ folded }, 'geo cell changes compacted');
  });
  return scheduler;
}
