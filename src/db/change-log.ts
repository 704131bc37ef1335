import type { Executor } from './executor.js';
import type { ChangeEntity } from './schema/index.js';

/**
 * Reading the change log (migration 0011, db/dialect/ddl/change-log.ts; more entities since 0038): the changes
 * to what a search or the outbound webhooks read, numbered in commit order on both databases. A follower that has applied every change up to `seq` N reads
 * `readChangesAfter(N)` and never misses one that committed late: a number is given at commit, after every
 * number already visible.
 */
export interface Change {
  seq: number;
  entity: ChangeEntity;
  entityId: number;
  changedAt: string;
}

/** The committed changes numbered after `afterSeq`, in order, at most `limit`. */
export async function readChangesAfter(db: Executor, afterSeq: number, limit: number): Promise<Change[]> {
  const rows = await db
    .selectFrom('change_log')
    .select(['seq', 'entity', 'entity_id', 'changed_at'])
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ seq: Number(row.seq), entity: row.entity, entityId: row.entity_id, changedAt: row.changed_at }));
}

/** The number of the last committed change (0 before the first): where a follower built now starts. */
export async function changeLogHead(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('change_log')
    .select((eb) => eb.fn.max('seq').as('head'))
    .executeTakeFirstOrThrow();
  return row.head === null ? 0 : Number(row.head);
}

/**
 * Deletes the committed changes made before `before` (ISO time), except the last one, which keeps
 * `changeLogHead` where it is. A follower further behind than that rebuilds from the tables. Returns how many.
 */
export async function pruneChangeLog(db: Executor, before: string): Promise<number> {
  const head = await changeLogHead(db);
  const result = await db.deleteFrom('change_log').where('changed_at', '<', before).where('seq', '<', head).executeTakeFirst();
  return Number(result.numDeletedRows);
}
