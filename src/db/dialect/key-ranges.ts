import { type RawBuilder, sql } from 'kysely';
import type { AnyDb } from '../any-db.js';
import { dialectOf } from './index.js';

/** An inclusive range of integer keys. */
export type KeyRange = readonly [lo: number, hi: number];

export interface RangedSource {
  /** The table read, aliased `x` in `where`. */
  table: 'geo_cells' | 'listings';
  /** Its integer column that the ranges bound; the leading column of an index after `where`'s equalities. */
  key: string;
  /** The columns the rows carry out. */
  columns: readonly string[];
  /** Conditions on `x` besides the range. */
  where: RawBuilder<unknown>;
}

/**
 * The rows of a table whose key lies in one of `ranges`, as a subquery to select from: one index range scan
 * per range on both databases, however many ranges. An OR of BETWEENs is not that: SQLite reads a WITHOUT
 * ROWID table's whole index prefix for it, PostgreSQL a bitmap that visits the table (no index-only scan).
 * SQLite joins a VALUES table of the ranges by a seek per range. PostgreSQL, given the same join, may read
 * every row matching `where` once and compare it with each range instead (it cannot tell how narrow the
 * ranges are): a LATERAL subquery, kept from being flattened into the join by `offset 0`, makes it scan the
 * index range by range. Keys are cast to bigint, since better-sqlite3 binds every number as a REAL.
 */
export function rowsInKeyRanges<Row>(db: AnyDb, ranges: readonly KeyRange[], source: RangedSource): RawBuilder<Row> {
  const values = sql`(values ${sql.join(ranges.map(([lo, hi]) => sql`(cast(${lo} as bigint), cast(${hi} as bigint))`))})`;
  const columns = sql.join(source.columns.map((column) => sql.ref(`x.${column}`)));
  const inRange = sql`${sql.ref(`x.${source.key}`)} between r.column1 and r.column2`;
  return dialectOf(db) === 'postgres'
    ? sql<Row>`(select x.* from ${values} as r cross join lateral (
        select ${columns} from ${sql.table(source.table)} as x where ${source.where} and ${inRange} offset 0) as x)`
    : sql<Row>`(select ${columns} from ${values} as r join ${sql.table(source.table)} as x on ${source.where} and ${inRange})`;
}
