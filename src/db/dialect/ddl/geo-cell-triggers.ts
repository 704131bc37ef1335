import { type ColumnDataType, type ColumnDefinitionBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import { CELL_LEVELS, GRID_BITS } from '../../../lib/geo-grid.js';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * `geo_cell_changes` (migration 0008) receives, for every listing written with a `geo_key`, one row per
 * level of `CELL_LEVELS`: −1 and the old row's sums for the cell it leaves, +1 and the new row's for the cell
 * it enters (state, key or coordinates changed; inserted; deleted). Rows are only ever appended, never
 * updated: two transactions changing listings of the same cells in opposite orders take no lock on a
 * shared row, so they neither wait for each other nor deadlock. geo-cell-compaction.ts folds the rows into
 * `geo_cells`; readers add both tables.
 *
 * Centroids sum each coordinate in millionths of a degree, as integers, so that both databases add exactly
 * the same numbers (summing doubles depends on the order of the rows). `microdegrees` rounds half away from
 * zero, in double precision on both (IEEE multiplication and addition round alike), then truncates; its
 * JavaScript twin is `microdegreesOf`. They are computed from `latitude`/`longitude` where needed rather
 * than stored: the delta of a row leaving a cell repeats the very computation made when it entered.
 */
export async function createGeoCellTriggers(db: AnyDb): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** `round(degrees · 10^6)`, half away from zero, as both databases compute it in SQL. */
export function microdegreesOf(degrees: number): number {
  const scaled = degrees * 1_000_000;
  return Math.trunc(scaled + (scaled < 0 ? -0.5 : 0.5));
}

const SQLITE_MICRODEGREES = (column: string) =>
  `CAST(${column} * 1000000.0 + (CASE WHEN ${column} * 1000000.0 < 0 THEN -0.5 ELSE 0.5 END) AS INTEGER)`;
const POSTGRES_MICRODEGREES = (column: string) =>
  `trunc(${column} * 1000000::float8 + (CASE WHEN ${column} * 1000000::float8 < 0 THEN -0.5::float8 ELSE 0.5::float8 END))::bigint`;

/** `microdegreesOf` of a column of `listings as l` (`latitude` or `longitude`), in SQL. */
export function microdegrees(db: AnyDb, column: 'l.latitude' | 'l.longitude'): RawBuilder<number> {
  return sql.raw<number>((dialectOf(db) === 'postgres' ? POSTGRES_MICRODEGREES : SQLITE_MICRODEGREES)(column));
}

/** The key of the level-`level` cell of a `geo_key`, in SQL (the same on both). */
function cellOfKeySql(key: string, level: string): string {
  return `${key} >> (${2 * GRID_BITS} - 2 * ${level})`;
}

const CHANGE_COLUMNS = 'level, status, cell, listings, lat_e6_sum, lng_e6_sum, id_sum';

/** The rows of `geo_cell_changes` for the listing row `row` (NEW or OLD) counted with `sign`. */
function sqliteChanges(row: 'NEW' | 'OLD', sign: '' | '-'): string {
  const levels = CELL_LEVELS.map((level) => `(${level})`).join(', ');
  return `INSERT INTO geo_cell_changes (${CHANGE_COLUMNS})
    SELECT levels.column1, ${row}.status, ${cellOfKeySql(`${row}.geo_key`, 'levels.column1')}, ${sign}1,
           ${sign}coalesce(${SQLITE_MICRODEGREES(`${row}.latitude`)}, 0), ${sign}coalesce(${SQLITE_MICRODEGREES(`${row}.longitude`)}, 0), ${sign}${row}.id
    FROM (VALUES ${levels}) AS levels WHERE ${row}.geo_key IS NOT NULL;`;
}

const CHANGED = ['status', 'geo_key', 'latitude', 'longitude'];

const SQLITE = [
  `CREATE TRIGGER listings_geo_cells_insert AFTER INSERT ON listings WHEN NEW.geo_key IS NOT NULL
   BEGIN ${sqliteChanges('NEW', '')} END`,
  `CREATE TRIGGER listings_geo_cells_delete AFTER DELETE ON listings WHEN OLD.geo_key IS NOT NULL
   BEGIN ${sqliteChanges('OLD', '-')} END`,
  `CREATE TRIGGER listings_geo_cells_update AFTER UPDATE OF ${CHANGED.join(', ')} ON listings
   WHEN ${CHANGED.map((column) => `OLD.${column} IS NOT NEW.${column}`).join(' OR ')}
   BEGIN ${sqliteChanges('OLD', '-')} ${sqliteChanges('NEW', '')} END`,
];

function postgresChanges(row: 'NEW' | 'OLD', sign: '' | '-'): string {
  return `INSERT INTO geo_cell_changes (${CHANGE_COLUMNS})
    SELECT level, ${row}.status, ${cellOfKeySql(`${row}.geo_key`, 'level')}, ${sign}1,
           ${sign}coalesce(${POSTGRES_MICRODEGREES(`${row}.latitude`)}, 0), ${sign}coalesce(${POSTGRES_MICRODEGREES(`${row}.longitude`)}, 0), ${sign}${row}.id
    FROM unnest(ARRAY[${CELL_LEVELS.join(', ')}]) AS level;`;
}

const POSTGRES = [
  `CREATE FUNCTION listings_geo_cells() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('UPDATE', 'DELETE') THEN
       IF OLD.geo_key IS NOT NULL THEN ${postgresChanges('OLD', '-')} END IF;
     END IF;
     IF TG_OP IN ('INSERT', 'UPDATE') THEN
       IF NEW.geo_key IS NOT NULL THEN ${postgresChanges('NEW', '')} END IF;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER listings_geo_cells AFTER INSERT OR DELETE ON listings FOR EACH ROW EXECUTE FUNCTION listings_geo_cells()`,
  `CREATE TRIGGER listings_geo_cells_update AFTER UPDATE OF ${CHANGED.join(', ')} ON listings FOR EACH ROW
   WHEN (${CHANGED.map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(' OR ')})
   EXECUTE FUNCTION listings_geo_cells()`,
];

/**
 * Fills `geo_cells` anew from the listings (migration 0008; a bulk load that set the triggers aside), one
 * grouped insert per level, with the sums the triggers would have written; pending changes are dropped, as
 * the listings already show them. Run it while nothing else writes listings.
 */
export async function fillGeoCells(db: AnyDb): Promise<void> {
  const micro = dialectOf(db) === 'postgres' ? POSTGRES_MICRODEGREES : SQLITE_MICRODEGREES;
  await sql`DELETE FROM geo_cell_changes`.execute(db);
  await sql`DELETE FROM geo_cells`.execute(db);
  for (const level of CELL_LEVELS) {
    const cell = cellOfKeySql('geo_key', String(level));
    await sql
      .raw(
        `INSERT INTO geo_cells (${CHANGE_COLUMNS})
         SELECT ${level}, status, ${cell}, count(*), sum(coalesce(${micro('latitude')}, 0)), sum(coalesce(${micro('longitude')}, 0)), sum(id)
         FROM listings WHERE geo_key IS NOT NULL GROUP BY status, ${cell}`,
      )
      .execute(db);
  }
}

/**
 * The table options of `geo_cells`: on SQLite a WITHOUT ROWID table, stored in primary-key order, so that a
 * range of cells is one contiguous read with its sums (no second lookup per row). PostgreSQL needs none.
 */
export function cellTableSuffix(db: AnyDb): RawBuilder<unknown> {
  return dialectOf(db) === 'postgres' ? sql`` : sql`without rowid`;
}

/**
 * The id column of `geo_cell_changes`: a bigint identity on PostgreSQL (the table churns through ids); on
 * SQLite the rowid without AUTOINCREMENT, which would cost a write to sqlite_sequence per row (ids may be
 * reused once the table is empty, which compaction does not mind: it reads and deletes under one write lock).
 */
export function changeIdColumn(db: AnyDb): [ColumnDataType, (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder] {
  return dialectOf(db) === 'postgres'
    ? ['bigint', (col) => col.generatedByDefaultAsIdentity().primaryKey()]
    : ['integer', (col) => col.primaryKey()];
}
