import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Migration 0019, PostgreSQL: the geo-cell changes of inserted and deleted listings (geo-cell-triggers.ts)
 * are written once per statement from its transition table instead of once per row: a bulk write's statement
 * of a thousand listings ran the row function a thousand times (0.15 ms a listing, measured under load). The
 * rows written are the same: for each listing with a `geo_key`, one per level, +1 and its sums for an insert,
 * -1 and its sums for a delete. An update still goes through the row trigger (PostgreSQL allows no
 * transition table on a trigger with a column list). The levels, the grid's 40 bits and the microdegrees are
 * written out as they were when this shipped. SQLite has no statement triggers: nothing changes there.
 */
export async function writeGeoCellsByStatement(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const statement of POSTGRES) await sql.raw(statement).execute(db);
}

const microdegrees = (column: string) =>
  `trunc(${column} * 1000000::float8 + (CASE WHEN ${column} * 1000000::float8 < 0 THEN -0.5::float8 ELSE 0.5::float8 END))::bigint`;

/** The changes of every listing of `rows` (a transition table) that has a `geo_key`, counted with `sign`. */
const changesOf = (rows: string, sign: '' | '-') => `
   BEGIN
     INSERT INTO geo_cell_changes (level, status, cell, listings, lat_e6_sum, lng_e6_sum, id_sum)
     SELECT level, r.status, r.geo_key >> (40 - 2 * level), ${sign}1,
            ${sign}coalesce(${microdegrees('r.latitude')}, 0), ${sign}coalesce(${microdegrees('r.longitude')}, 0), ${sign}r.id
       FROM ${rows} r CROSS JOIN unnest(ARRAY[4, 6, 8, 10, 12, 14, 16, 18]) AS level
      WHERE r.geo_key IS NOT NULL;
     RETURN NULL;
   END`;

const POSTGRES = [
  'DROP TRIGGER listings_geo_cells ON listings',
  `CREATE FUNCTION listings_geo_cells_inserted() RETURNS trigger LANGUAGE plpgsql AS $$${changesOf('inserted', '')}$$`,
  `CREATE FUNCTION listings_geo_cells_deleted() RETURNS trigger LANGUAGE plpgsql AS $$${changesOf('deleted', '-')}$$`,
  `CREATE TRIGGER listings_geo_cells_insert AFTER INSERT ON listings REFERENCING NEW TABLE AS inserted
   FOR EACH STATEMENT EXECUTE FUNCTION listings_geo_cells_inserted()`,
  `CREATE TRIGGER listings_geo_cells_delete AFTER DELETE ON listings REFERENCING OLD TABLE AS deleted
   FOR EACH STATEMENT EXECUTE FUNCTION listings_geo_cells_deleted()`,
];
