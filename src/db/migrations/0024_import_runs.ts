import type { Kysely } from 'kysely';
import { identity } from '../dialect/ddl/columns.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Imports over HTTP (modules/exchange): feed sources (a URL pulled on a schedule), import runs (one import, queued
 * by POST /imports or by a source falling due, run by the background job `feed-imports`) and the rejected records
 * each run reports. Booleans are 0/1 integers and times ISO text, as everywhere.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('feed_sources')
    .addColumn('id', 'integer', identity(db))
    /** The source name its imports run under: keys are unique within it, so two sources may not share one. */
    .addColumn('name', 'text', (col) => col.notNull().unique())
    /** May carry a token in its query: shown to administrators only, never logged. */
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('format', 'text', (col) => col.notNull())
    .addColumn('interval_minutes', 'integer', (col) => col.notNull())
    .addColumn('withdraw_missing', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('paused', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_pull_at', 'text', (col) => col.notNull())
    .addColumn('created_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('feed_sources_due_idx').on('feed_sources').columns(['paused', 'next_pull_at']).execute();

  await db.schema
    .createTable('import_runs')
    .addColumn('id', 'integer', identity(db))
    /** `queued`, `running`, `done` or `failed`. */
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('queued'))
    .addColumn('format', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('dry_run', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('withdraw_missing', 'integer', (col) => col.notNull().defaultTo(0))
    /** A URL the job downloads (whole: its query may be needed), or null for an upload. */
    .addColumn('url', 'text')
    /** An upload: the name the client gave (shown only) and the random name of the file under DATA_DIR/imports. */
    .addColumn('file_name', 'text')
    .addColumn('file_key', 'text')
    .addColumn('feed_source_id', 'integer', (col) => col.references('feed_sources.id').onDelete('set null'))
    .addColumn('owner_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    /** Written every second while the run runs; a stale one is queued again. */
    .addColumn('heartbeat_at', 'text')
    /** A random token per start: only its holder writes progress and the outcome. */
    .addColumn('claim', 'text')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('read_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('unchanged_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('withdrawn_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('rejected_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('import_runs_state_idx').on('import_runs').columns(['state', 'id']).execute();
  await db.schema.createIndex('import_runs_source_idx').on('import_runs').columns(['feed_source_id', 'state']).execute();

  /** The first rejected records of a run (the report is capped; `rejected_count` counts them all). */
  await db.schema
    .createTable('import_rejections')
    .addColumn('run_id', 'integer', (col) => col.notNull().references('import_runs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('source_key', 'text')
    /** JSON: `[{ "field", "reason" }]`. */
    .addColumn('errors', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('import_rejections_pk', ['run_id', 'position'])
    .execute();
}
