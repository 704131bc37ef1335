import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { pruneChangeLog } from '../db/change-log.js';
import type { DB } from '../db/schema/index.js';
import { type BackgroundJob, SHORT_LEASE_MS } from '../lib/background-job.js';
import { nowIso } from '../lib/time.js';
import type { OutboxWorker } from './outbox.js';
import { Scheduler } from './scheduler.js';

const HOUR_MS = 60 * 60 * 1000;
/** How long the change log keeps a change (db/change-log.ts): a follower further behind rebuilds from the tables. */
const CHANGE_LOG_RETENTION_MS = 24 * HOUR_MS;

/**
 * Every background job of the service on one scheduler: the outbox's sending, the change log's pruning, then
 * the jobs the modules declare. Each runs once per period however many processes serve the API (scheduler.ts); a job that has
 * more to do at once asks to run again without waiting. Listing view counts are not here: each process
 * flushes its own counters (the properties module starts them).
 */
export function scheduleBackgroundJobs(
  db: Kysely<DB>,
  log: FastifyBaseLogger,
  outbox: OutboxWorker,
  jobs: readonly BackgroundJob[],
  /** OUTBOX_POLL_MS: how soon a new message is sent; the scheduler looks for due jobs at least this often. */
  pollMs: number,
): Scheduler {
  const scheduler = new Scheduler(db, log, { tickMs: Math.min(1000, pollMs) });
  scheduler.every('outbox', pollMs, (now) => outbox.runScheduled(now), { leaseMs: SHORT_LEASE_MS });
  scheduler.every('change-log-prune', HOUR_MS, async (now) => {
    const pruned = await pruneChangeLog(db, nowIso(new Date(now.getTime() - CHANGE_LOG_RETENTION_MS)));
    if (pruned > 0) log.debug({ pruned }, 'change log pruned');
  });
  for (const job of jobs) {
    scheduler.every(job.name, job.intervalMs, (now) => job.run(now), job.leaseMs === undefined ? {} : { leaseMs: job.leaseMs });
  }
  return scheduler;
}
