import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema/index.js';
import { type BackgroundJob, SHORT_LEASE_MS } from '../lib/background-job.js';
import type { OutboxWorker } from './outbox.js';
import { Scheduler } from './scheduler.js';

/**
 * Every background job of the service on one scheduler: the outbox's sending, then the jobs the modules
 * declare. Each runs once per period however many processes serve the API (scheduler.ts); a job that has
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
  for (const job of jobs) {
    scheduler.every(job.name, job.intervalMs, (now) => job.run(now), job.leaseMs === undefined ? {} : { leaseMs: job.leaseMs });
  }
  return scheduler;
}
