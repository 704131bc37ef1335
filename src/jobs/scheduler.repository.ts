import type { Executor } from '../db/executor.js';

/** The scheduler's bookkeeping in `scheduled_jobs` (migration 0010): one row per job, its next run and lease. */

export function findJobRows(db: Executor, names: readonly string[]) {
  return db.selectFrom('scheduled_jobs').select(['name', 'next_run_at', 'locked_until', 'locked_by']).where('name', 'in', names).execute();
}

/** A job's first row, due at once; a row another process inserted first is kept. */
export async function insertJobRow(db: Executor, name: string, nextRunAt: string): Promise<void> {
  await db
    .insertInto('scheduled_jobs')
    .values({ name, next_run_at: nextRunAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/** Moves the job's lease to `owner` when it is due at `at` and free (or its lease ran out); true when it did. */
export async function claimJob(db: Executor, name: string, claim: { at: string; leaseUntil: string; owner: string }): Promise<boolean> {
  const result = await db
    .updateTable('scheduled_jobs')
    .set({ locked_until: claim.leaseUntil, locked_by: claim.owner })
    .where('name', '=', name)
    .where('next_run_at', '<=', claim.at)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', claim.at)]))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Moves the job's lease from `deadOwner`, a process known to be gone, to `owner` when the job is due; true when it did. */
export async function takeOverJob(
  db: Executor,
  name: string,
  deadOwner: string,
  claim: { at: string; leaseUntil: string; owner: string },
): Promise<boolean> {
  const result = await db
    .updateTable('scheduled_jobs')
    .set({ locked_until: claim.leaseUntil, locked_by: claim.owner })
    .where('name', '=', name)
    .where('next_run_at', '<=', claim.at)
    .where('locked_by', '=', deadOwner)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Sets the next run and frees the lease, only while `owner` still holds it; true when it did. */
export async function releaseJob(
  db: Executor,
  name: string,
  owner: string,
  run: { nextRunAt: string; finishedAt: string; error: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('scheduled_jobs')
    .set({ next_run_at: run.nextRunAt, locked_until: null, locked_by: null, last_finished_at: run.finishedAt, last_error: run.error })
    .where('name', '=', name)
    .where('locked_by', '=', owner)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
