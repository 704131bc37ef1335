import type { ColumnType, Generated, Selectable } from 'kysely';

/** Machinery under every feature: cache stamps, the outbox, domain events, the scheduler, the change log. */
export interface PlatformTables {
  cache_versions: CacheVersionsTable;
  change_log: ChangeLogTable;
  outbox: OutboxTable;
  domain_events: DomainEventsTable;
  scheduled_jobs: ScheduledJobsTable;
}

/** Stamps that change whenever a cached answer's data changes (e.g. `terms`), set by triggers. */
interface CacheVersionsTable {
  name: string;
  version: string;
}

export type ChangeEntity = 'listing' | 'term' | 'agent' | 'agency' | 'lead' | 'review' | 'invoice' | 'membership';

/**
 * One change to what a search or the outbound webhooks read, written by triggers (db/dialect/ddl/change-log.ts,
 * change-log-webhook-sources.ts) and numbered in commit order. Readers skip entities they do not know. Read it through db/change-log.ts: on PostgreSQL a row is unnumbered (`seq` null) until its
 * transaction commits, and the table has bookkeeping columns of its own there.
 */
interface ChangeLogTable {
  /** A bigint: PostgreSQL returns it as a string, so readers convert it with Number(). */
  seq: ColumnType<number | string | null, never, never>;
  entity: ChangeEntity;
  entity_id: number;
  changed_at: ColumnType<string, string | undefined, never>;
}

export const OUTBOX_STATES = ['pending', 'sent', 'dead'] as const;

export type OutboxState = (typeof OUTBOX_STATES)[number];

interface OutboxTable {
  id: Generated<number>;
  /** `email`, `stripe_subscription`, and the notifications' `notification_email` and `notification_push`. */
  channel: string;
  /** Unique: enqueuing the same message twice stores it once, and receivers can drop repeats. */
  idempotency_key: string;
  /** JSON of the channel's message. */
  payload: string;
  status: Generated<OutboxState>;
  attempts: Generated<number>;
  /** When the message may next be claimed: now, after a back-off, or after a claim's lease runs out. */
  available_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

interface DomainEventsTable {
  id: Generated<number>;
  /** e.g. `new_lead`, `new_review`. */
  type: string;
  /** JSON object. */
  payload: string;
  created_at: string;
  /** Set by the notifications module once the event has been turned into notifications. */
  processed_at: Generated<string | null>;
}

/** One row per background job: its next run and the lease of the process running it. */
interface ScheduledJobsTable {
  name: string;
  next_run_at: string;
  locked_until: Generated<string | null>;
  locked_by: Generated<string | null>;
  last_finished_at: Generated<string | null>;
  last_error: Generated<string | null>;
}

export type OutboxRow = Selectable<OutboxTable>;
