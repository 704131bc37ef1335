import { sql } from 'kysely';
import type { AnyDb } from '../any-db.js';
import { dialectOf } from './index.js';

/** Change rows folded per transaction: a batch holds its cells' locks briefly and its rows fit in memory. */
const DEFAULT_BATCH = 20_000;

const SUMS = ['listings', 'lat_e6_sum', 'lng_e6_sum', 'id_sum'] as const;
const KEY = 'level, status, cell';
const COLUMNS = `${KEY}, ${SUMS.join(', ')}`;
const ADDED = SUMS.map((column) => `${column} = geo_cells.${column} + excluded.${column}`).join(', ');
const ALL_ZERO = SUMS.map((column) => `${column} = 0`).join(' AND ');

/**
 * Folds the rows of `geo_cell_changes` (geo-cell-triggers.ts) into `geo_cells`, oldest first, one batch per
 * transaction, until none is left; returns how many it folded. Each batch deletes its change rows and adds
 * their sums to the cells in one transaction, so readers, who add both tables in one statement, see every
 * change exactly once whenever they read. Cells left with nothing (every sum 0) are deleted.
 *
 * Several processes may run it at once: PostgreSQL takes the rows with `DELETE … RETURNING` over rows
 * locked with `SKIP LOCKED` (a row is moved by one transaction only; one of another transaction still
 * uncommitted is not visible yet and waits for the next run), and updates cells in key order, so two
 * compactions wait for each other at most, never in a cycle. SQLite writes one transaction at a time; the
 * batch is bounded by the highest id it reads under `BEGIN IMMEDIATE`, so the rows added up and deleted are
 * the same.
 */
export async function compactGeoCells(db: AnyDb, batchSize = DEFAULT_BATCH): Promise<number> {
  const compactBatch = dialectOf(db) === 'postgres' ? compactPostgresBatch : compactSqliteBatch;
  let folded = 0;
  for (;;) {
    const moved = await compactBatch(db, batchSize);
    folded += moved;
    if (moved < batchSize) return folded;
  }
}

async function compactPostgresBatch(db: AnyDb, batchSize: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ moved: number; emptied: { level: number; status: string; cell: string }[] | null }>`
      WITH moved AS (
        DELETE FROM geo_cell_changes WHERE id IN (
          SELECT id FROM geo_cell_changes ORDER BY id LIMIT ${batchSize} FOR UPDATE SKIP LOCKED
        ) RETURNING ${sql.raw(COLUMNS)}
      ), folded AS (
        SELECT ${sql.raw(KEY)}, ${sql.raw(SUMS.map((column) => `sum(${column}) AS ${column}`).join(', '))}
        FROM moved GROUP BY ${sql.raw(KEY)}
      ), upserted AS (
        INSERT INTO geo_cells (${sql.raw(COLUMNS)})
        SELECT ${sql.raw(COLUMNS)} FROM folded WHERE NOT (${sql.raw(ALL_ZERO)}) ORDER BY ${sql.raw(KEY)}
        ON CONFLICT (${sql.raw(KEY)}) DO UPDATE SET ${sql.raw(ADDED)}
        RETURNING ${sql.raw(COLUMNS)}
      )
      SELECT (SELECT count(*) FROM moved)::integer AS moved,
             (SELECT json_agg(json_build_object('level', level, 'status', status, 'cell', cell::text)) FROM upserted WHERE ${sql.raw(ALL_ZERO)}) AS emptied
    `.execute(trx);
    const { moved, emptied } = rows[0]!;
    if (emptied && emptied.length > 0) {
      // The cells are still locked by the upsert above: nothing changed them in between.
      await sql`
        DELETE FROM geo_cells WHERE ${sql.raw(ALL_ZERO)} AND (${sql.raw(KEY)}) IN (
          SELECT * FROM unnest(${emptied.map((c) => c.level)}::smallint[], ${emptied.map((c) => c.status)}::text[], ${emptied.map((c) => c.cell)}::bigint[])
        )`.execute(trx);
    }
    return moved;
  });
}

async function compactSqliteBatch(db: AnyDb, batchSize: number): Promise<number> {
  return db.connection().execute(async (connection) => {
    // The write lock first: the bound read next is then the same for every statement of the batch.
    await sql`BEGIN IMMEDIATE`.execute(connection);
    try {
      const moved = await foldSqliteBatch(connection, batchSize);
      await sql`COMMIT`.execute(connection);
      return moved;
    } catch (error) {
      await sql`ROLLBACK`.execute(connection);
      throw error;
    }
  });
}

async function foldSqliteBatch(db: AnyDb, batchSize: number): Promise<number> {
  const { rows } = await sql<{ last: number | null }>`
    SELECT max(id) AS last FROM (SELECT id FROM geo_cell_changes ORDER BY id LIMIT ${batchSize})`.execute(db);
  const last = rows[0]?.last;
  if (last === null || last === undefined) return 0;
  // NOT INDEXED: read the batch by rowid; through the (level, status, cell) index, which yields the grouping's
  // order, SQLite would walk every change row of the table for each batch.
  await sql`
    INSERT INTO geo_cells (${sql.raw(COLUMNS)})
    SELECT ${sql.raw(KEY)}, ${sql.raw(SUMS.map((column) => `sum(${column})`).join(', '))}
    FROM geo_cell_changes NOT INDEXED WHERE id <= ${last} GROUP BY ${sql.raw(KEY)} ORDER BY ${sql.raw(KEY)}
    ON CONFLICT (${sql.raw(KEY)}) DO UPDATE SET ${sql.raw(ADDED)}`.execute(db);
  await sql`
    DELETE FROM geo_cells WHERE ${sql.raw(ALL_ZERO)}
      AND (${sql.raw(KEY)}) IN (SELECT ${sql.raw(KEY)} FROM geo_cell_changes NOT INDEXED WHERE id <= ${last})`.execute(db);
  const deleted = await sql`DELETE FROM geo_cell_changes WHERE id <= ${last}`.execute(db);
  return Number(deleted.numAffectedRows ?? 0);
}
