import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../../db/executor.js';
import type { ImportRejectionsTable, ImportRunsTable, ImportWarningsTable } from '../../../db/schema/index.js';
import type { ImportCounts, Rejection, Warning } from '../import/import-summary.js';

export type ImportRunRow = Selectable<ImportRunsTable>;
export type RejectionRow = Selectable<ImportRejectionsTable>;
export type WarningRow = Selectable<ImportWarningsTable>;

export async function insertRun(db: Executor, values: Insertable<ImportRunsTable>): Promise<ImportRunRow> {
  return db.insertInto('import_runs').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findRun(db: Executor, id: number): Promise<ImportRunRow | undefined> {
  return db.selectFrom('import_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countRuns(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('import_runs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of runs, newest first (by the primary key). */
export async function findRuns(db: Executor, limit: number, offset: number): Promise<ImportRunRow[]> {
  return db.selectFrom('import_runs').selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export async function findRejections(db: Executor, runId: number): Promise<RejectionRow[]> {
  return db.selectFrom('import_rejections').selectAll().where('run_id', '=', runId).orderBy('position').execute();
}

export async function insertRejections(db: Executor, runId: number, first: number, rejections: readonly Rejection[]): Promise<void> {
  if (rejections.length === 0) return;
  await db
    .insertInto('import_rejections')
    .values(
      rejections.map((rejection, n) => ({
        run_id: runId,
        position: first + n,
        at: rejection.at,
        source_key: rejection.key ?? null,
        errors: JSON.stringify(rejection.errors),
      })),
    )
    .execute();
}

/** A run's report of rejections and warnings. */
export async function deleteReports(db: Executor, runId: number): Promise<void> {
  await db.deleteFrom('import_rejections').where('run_id', '=', runId).execute();
  await db.deleteFrom('import_warnings').where('run_id', '=', runId).execute();
}

export async function findWarnings(db: Executor, runId: number): Promise<WarningRow[]> {
  return db.selectFrom('import_warnings').selectAll().where('run_id', '=', runId).orderBy('position').execute();
}

export async function insertWarnings(db: Executor, runId: number, first: number, warnings: readonly Warning[]): Promise<void> {
  if (warnings.length === 0) return;
  await db
    .insertInto('import_warnings')
    .values(
      warnings.map((warning, n) => ({
        run_id: runId,
        position: first + n,
        at: warning.at,
        source_key: warning.key ?? null,
        field: warning.field,
        reason: warning.reason,
      })),
    )
    .execute();
}

/**
 * Runs whose process stopped beating before `staleBefore`: those started `maxAttempts` times fail (a file that
 * kills its process each time must not loop for ever); the others wait in the queue again. Returns the failed
 * ones' upload keys, for their files to go, and how many were queued again.
 */
export async function recoverStaleRuns(
  db: Executor,
  staleBefore: string,
  maxAttempts: number,
  failure: { error: string; at: string },
): Promise<{ failedFiles: (string | null)[]; requeued: number }> {
  const failed = await db
    .updateTable('import_runs')
    .set({ state: 'failed', claim: null, error: failure.error, finished_at: failure.at })
    .where('state', '=', 'running')
    .where('heartbeat_at', '<', staleBefore)
    .where('attempts', '>=', maxAttempts)
    .returning('file_key')
    .execute();
  const requeued = await db
    .updateTable('import_runs')
    .set({ state: 'queued', claim: null })
    .where('state', '=', 'running')
    .where('heartbeat_at', '<', staleBefore)
    .executeTakeFirst();
  return { failedFiles: failed.map((row) => row.file_key), requeued: Number(requeued.numUpdatedRows) };
}

/** Queued runs after `afterId`, the queue's head first (index import_runs_state_idx). */
export async function findQueued(db: Executor, afterId: number, limit: number): Promise<Pick<ImportRunRow, 'id' | 'file_key'>[]> {
  return db
    .selectFrom('import_runs')
    .select(['id', 'file_key'])
    .where('state', '=', 'queued')
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function anyRunning(db: Executor): Promise<boolean> {
  const row = await db.selectFrom('import_runs').select('id').where('state', '=', 'running').limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Moves a queued run to `running` under `claim`, provided it is still queued and no other run is running: the
 * condition in the statement is what keeps two processes from running one import (or two imports at once).
 * Its counts start again from zero. Undefined when another process was first.
 */
export async function claimRun(db: Executor, id: number, claim: string, at: string): Promise<ImportRunRow | undefined> {
  return db
    .updateTable('import_runs')
    .set((eb) => ({
      state: 'running',
      claim,
      started_at: at,
      heartbeat_at: at,
      finished_at: null,
      error: null,
      attempts: eb('attempts', '+', 1),
      ...countColumns({ read: 0, created: 0, updated: 0, unchanged: 0, withdrawn: 0, rejected: 0, warnings: 0 }),
    }))
    .where('id', '=', id)
    .where('state', '=', 'queued')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('import_runs as other').select('other.id').where('other.state', '=', 'running'))),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Records progress while `claim` still holds the run; false when it lost it (taken again elsewhere). */
export async function beat(db: Executor, id: number, claim: string, at: string, counts: ImportCounts): Promise<boolean> {
  const result = await db
    .updateTable('import_runs')
    .set({ heartbeat_at: at, ...countColumns(counts) })
    .where('id', '=', id)
    .where('claim', '=', claim)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The run's outcome, written only by the claim that ran it. */
export async function finishRun(
  db: Executor,
  id: number,
  claim: string,
  outcome: { state: 'done' | 'failed' | 'queued'; error: string | null; at: string | null; counts: ImportCounts },
): Promise<boolean> {
  const result = await db
    .updateTable('import_runs')
    .set({ state: outcome.state, error: outcome.error, finished_at: outcome.at, claim: null, ...countColumns(outcome.counts) })
    .where('id', '=', id)
    .where('claim', '=', claim)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A deleted feed source's runs that had not started yet fail; returns how many. */
export async function failQueuedOfSource(db: Executor, sourceId: number, error: string, at: string): Promise<number> {
  const result = await db
    .updateTable('import_runs')
    .set({ state: 'failed', error, finished_at: at })
    .where('feed_source_id', '=', sourceId)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function hasActiveRun(db: Executor, sourceId: number): Promise<boolean> {
  const row = await db
    .selectFrom('import_runs')
    .select('id')
    .where('feed_source_id', '=', sourceId)
    .where('state', 'in', ['queued', 'running'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The latest run of each source (one query for the whole list). */
export async function latestRunsOf(db: Executor, sourceIds: readonly number[]) {
  if (sourceIds.length === 0) return [];
  return db
    .selectFrom('import_runs')
    .select(['id', 'feed_source_id', 'state', 'finished_at'])
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('import_runs')
        .select((inner) => inner.fn.max('id').as('id'))
        .where('feed_source_id', 'in', sourceIds)
        .groupBy('feed_source_id'),
    )
    .execute();
}

function countColumns(counts: ImportCounts) {
  return {
    read_count: counts.read,
    created_count: counts.created,
    updated_count: counts.updated,
    unchanged_count: counts.unchanged,
    withdrawn_count: counts.withdrawn,
    rejected_count: counts.rejected,
    warning_count: counts.warnings,
  };
}
