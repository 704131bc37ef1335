import type { Insertable } from 'kysely';
import type { Executor } from '../../../db/executor.js';
import type { DB, WebhookEndpointRow } from '../../../db/schema/index.js';

const FOLLOWER = 'change-log';

export interface FollowerRow {
  position: number;
  startedAt: string;
}

export async function findFollower(db: Executor): Promise<FollowerRow | undefined> {
  const row = await db.selectFrom('webhook_follower').select(['position', 'started_at']).where('name', '=', FOLLOWER).executeTakeFirst();
  return row && { position: Number(row.position), startedAt: row.started_at };
}

/** The follower's first row; a concurrent first run that wrote it already leaves it as it is. */
export async function insertFollower(db: Executor, position: number, startedAt: string): Promise<void> {
  await db
    .insertInto('webhook_follower')
    .values({ name: FOLLOWER, position, started_at: startedAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/**
 * Moves the follower from `from` to `to` (and its start, when given) only if it is still at `from`: of two runs
 * that read the same position (a lease taken over mid-run), one moves it and the other's transaction rolls back.
 */
export async function moveFollower(db: Executor, from: number, to: number, startedAt?: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_follower')
    .set({ position: to, ...(startedAt === undefined ? {} : { started_at: startedAt }) })
    .where('name', '=', FOLLOWER)
    .where('position', '=', from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findEnabledEndpoints(db: Executor): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('enabled', '=', 1).orderBy('id').execute();
}

export async function hasEndpoints(db: Executor): Promise<boolean> {
  return (await db.selectFrom('webhook_endpoints').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function findSnapshots(
  db: Executor,
  entity: string,
  ids: readonly number[],
): Promise<{ entity_id: number; fields: string; facets: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_snapshots')
    .select(['entity_id', 'fields', 'facets'])
    .where('entity', '=', entity)
    .where('entity_id', 'in', ids)
    .execute();
}

export async function upsertSnapshots(db: Executor, rows: Insertable<DB['webhook_snapshots']>[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('webhook_snapshots')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['entity', 'entity_id']).doUpdateSet((eb) => ({ fields: eb.ref('excluded.fields'), facets: eb.ref('excluded.facets') })),
    )
    .execute();
}

export async function deleteSnapshots(db: Executor, entity: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('webhook_snapshots').where('entity', '=', entity).where('entity_id', 'in', ids).execute();
}

/** Forgets every snapshot: while no endpoint exists nothing is followed, so what was seen goes stale. */
export async function deleteAllSnapshots(db: Executor): Promise<void> {
  await db.deleteFrom('webhook_snapshots').execute();
}

/** Inserts events, returning their ids in the order given. */
export async function insertEvents(db: Executor, rows: Insertable<DB['webhook_events']>[]): Promise<number[]> {
  const ids = new Map<string, number>();
  for (let start = 0; start < rows.length; start += 500) {
    const inserted = await db
      .insertInto('webhook_events')
      .values(rows.slice(start, start + 500))
      .returning(['id', 'public_id'])
      .execute();
    for (const row of inserted) ids.set(row.public_id, row.id);
  }
  return rows.map((row) => ids.get(row.public_id)!);
}

export async function insertDeliveries(db: Executor, rows: Insertable<DB['webhook_deliveries']>[]): Promise<void> {
  // Chunks keep a statement under SQLite's bound-parameter limit whatever the fan-out.
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}

/** Deletes events made before `before` that no delivery waits for (their deliveries go with them); how many. */
export async function deleteEventsBefore(db: Executor, before: string): Promise<number> {
  const result = await db
    .deleteFrom('webhook_events')
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries')
            .select('webhook_deliveries.id')
            .whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id')
            .where('webhook_deliveries.status', '=', 'pending'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
