import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Warnings of an import run (issue 41): an optional value a record could not give (a plan's size "call us", a video
 * address that is none) is left out and the record imported without it; the run keeps the first warnings, each a
 * place, a key, a field and a reason, as it keeps its first rejections. `warning_count` counts them all; `strict`
 * is the run's choice to reject such records instead.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('import_runs')
    .addColumn('warning_count', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('import_runs')
    .addColumn('strict', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('import_warnings')
    .addColumn('run_id', 'integer', (col) => col.notNull().references('import_runs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('source_key', 'text')
    .addColumn('field', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('import_warnings_pk', ['run_id', 'position'])
    .execute();
}
