import { type Expression, expressionBuilder, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { microdegrees } from '../../../db/dialect/ddl/geo-cell-triggers.js';
import { rowsInKeyRanges } from '../../../db/dialect/key-ranges.js';
import type { DB, ListingState } from '../../../db/schema/index.js';
import { boxOfCircle, minimumDot, type RadiusCircle, radiusKmOf } from './geo.js';
import {
  BoxCells,
  type CellRange,
  type CellRelation,
  CircleCells,
  cellKey,
  cellOfKey,
  cellsCoveringBox,
  cellsSpannedByBox,
  childrenOf,
  type GridCell,
  keyRangeOf,
} from './geo-cells.js';
import { CELL_LEVELS, FINEST_CELL_LEVEL, GRID_BITS } from '../../../lib/geo-grid.js';
import { dotWith, inBoxSql } from './geo-filters.repository.js';
import type { ListingsEb, SearchDB } from '../query/search-filters.repository.js';
import type { SearchBox } from '../query/search-types.js';

/**
 * Counts and map clusters from the geo cell aggregates (migration 0008, geo-cells.ts). A region is read from
 * the cells it covers, level after level: cells inside it add their totals, cells outside it nothing, cells
 * its edge runs through are split into their 16 children at the next level, down to the finest level, where
 * the listings of the cells still crossing are tested one by one. The work follows the region's edge, not
 * the number of listings inside: ten times as many listings in the same city cost the same queries, with only
 * the points in the thin band of finest cells along the edge counted one by one.
 *
 * Only non-empty cells come back from the database, so empty stretches of the edge (sea, countryside) cost
 * nothing, and crossing cells holding few listings are tested point by point at once instead of being split.
 * The points are read from listings_geo_points_idx (migration 0008), which holds every column the tests and
 * the centroids need. Totals of a cell are its row in `geo_cells` plus its rows in `geo_cell_changes`, added
 * in one statement: a compaction moving rows from one to the other in between changes nothing.
 */

/**
 * When to stop splitting crossing cells. The next level costs one more statement (a few tenths of a
 * millisecond), while testing a point costs a fraction of a microsecond through listings_geo_points_idx: it
 * pays only when the crossing cells hold more than EXACT_BUDGET listings, and then only for the cells among
 * them holding more than EXACT_UP_TO (measured on SQLite, 100,000 and 1,000,000 demo listings).
 */
const EXACT_BUDGET = 2_000;
const EXACT_UP_TO = 32;
/** Gaps of at most this many keys between wanted cells are read through: a seek costs more than a few rows. */
const RANGE_GAP = 8;
/** Key ranges per statement: each is bound as two parameters, well below SQLite’s limit of 32,766. */
const RANGES_PER_STATEMENT = 2_000;
/** A circle starts at the deepest level at which its box spans at most this many cells. */
const START_CELLS = 64;
/** docs/api.md 4.5: at most this many clusters. */
export const MAX_CLUSTERS = 500;
/** The finest clusters (those of zoom 14 on): cells of about 300 × 550 m in Miami. */
const FINEST_CLUSTER_LEVEL = 16;
/** From this zoom on, a map shows few listings: clusters are grouped from the points directly. */
const POINTS_ZOOM = 15;

/** What a cell, or a group of cells, holds: listings and the sums of their coordinates (in 10^-6 degrees) and ids. */
export interface CellTotals {
  listings: number;
  latitudeE6: number;
  longitudeE6: number;
  idSum: number;
}

interface MapCluster {
  latitude: number;
  longitude: number;
  count: number;
  /** The listing, when the cluster holds one. */
  property_id?: number;
}

/** docs/api.md 4.5: the clusters in key order, and the number of listings they hold. */
export interface MapClusters {
  clusters: MapCluster[];
  total: number;
}

/** The conditions of a search on `listings as l` (search-filters.repository.ts `searchConditions`), all ANDed. */
export type ListingConditions = (eb: ListingsEb) => Expression<SqlBool>[];

const TOTALS_COLUMNS = ['cell', 'listings', 'lat_e6_sum', 'lng_e6_sum', 'id_sum'] as const;

interface TotalsRow {
  cell: number | string;
  listings: number | string;
  lat_e6_sum: number | string;
  lng_e6_sum: number | string;
  id_sum: number | string;
}

const totalsOf = (row: TotalsRow): CellTotals => ({
  listings: Number(row.listings),
  latitudeE6: Number(row.lat_e6_sum),
  longitudeE6: Number(row.lng_e6_sum),
  idSum: Number(row.id_sum),
});

function addTotals(into: Map<number, CellTotals>, key: number, totals: CellTotals): void {
  const sum = into.get(key);
  if (sum === undefined) {
    into.set(key, { ...totals });
    return;
  }
  sum.listings += totals.listings;
  sum.latitudeE6 += totals.latitudeE6;
  sum.longitudeE6 += totals.longitudeE6;
  sum.idSum += totals.idSum;
}

/** Sorted keys as inclusive ranges, joined across gaps of at most `gap` keys. */
function rangesOfKeys(keys: readonly number[], gap: number): CellRange[] {
  const sorted = [...keys].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const key of sorted) {
    const last = ranges.at(-1);
    if (last && key <= last[1] + 1 + gap) last[1] = Math.max(last[1], key);
    else ranges.push([key, key]);
  }
  return ranges;
}

/** Touching or overlapping ranges joined, in order. */
function mergedRanges(ranges: readonly CellRange[]): CellRange[] {
  const merged: [number, number][] = [];
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `geo_key >> shift` of `listings as l`: the key of its level-`level` cell. */
function cellOfListingSql(level: number): RawBuilder<number> {
  if (!Number.isInteger(level) || level < 0 || level > GRID_BITS) throw new RangeError(`no such cell level: ${level}`);
  return sql<number>`(l.geo_key >> ${sql.lit(2 * (GRID_BITS - level))})`;
}

/**
 * Per cell of `level` among `cells` (keys), what it holds in the given states: `geo_cells` plus the
 * uncompacted `geo_cell_changes`, in one statement per 2,000 key ranges. Cells holding nothing are left out.
 */
async function cellTotals(
  db: Kysely<DB>,
  level: number,
  states: readonly ListingState[],
  cells: readonly number[],
): Promise<Map<number, CellTotals>> {
  const totals = new Map<number, CellTotals>();
  if (states.length === 0 || cells.length === 0) return totals;
  if (!(CELL_LEVELS as readonly number[]).includes(level)) throw new RangeError(`geo_cells has no level ${level}`);
  const wanted = new Set(cells);
  for (const ranges of chunks(rangesOfKeys(cells, RANGE_GAP), RANGES_PER_STATEMENT)) {
    const inLevel = sql`x.level = ${sql.lit(level)} and x.status in (${sql.join(states)})`;
    const compacted = rowsInKeyRanges<TotalsRow>(db, ranges, { table: 'geo_cells', key: 'cell', columns: TOTALS_COLUMNS, where: inLevel });
    // The changes are few (compacted every GEO_CELLS_COMPACT_SECONDS): one range over all the cells reads
    // them, and a simpler statement costs less to prepare; cells not wanted are dropped below.
    const { rows } = await sql<TotalsRow>`
      select c.cell, sum(c.listings) as listings, sum(c.lat_e6_sum) as lat_e6_sum, sum(c.lng_e6_sum) as lng_e6_sum, sum(c.id_sum) as id_sum
      from (
        select * from ${compacted} as g
        union all
        select ${sql.join(TOTALS_COLUMNS.map((column) => sql.ref(`x.${column}`)))} from geo_cell_changes as x
        where ${inLevel} and x.cell between cast(${ranges[0]![0]} as bigint) and cast(${ranges.at(-1)![1]} as bigint)
      ) as c
      group by c.cell`.execute(db);
    for (const row of rows) {
      const cell = Number(row.cell);
      const sums = totalsOf(row);
      if (sums.listings !== 0 && wanted.has(cell)) totals.set(cell, sums);
    }
  }
  return totals;
}

interface Region {
  relation(cell: GridCell): CellRelation;
}

/** What a descent found: totals of the inside cells per group, and the `geo_key` ranges left to test one by one. */
interface Descent {
  groups: Map<number, CellTotals>;
  band: CellRange[];
}

/**
 * Reads `cells` (of one level of CELL_LEVELS) and their descendants along the region's edge: inside cells add
 * their totals to the group `groupOf` names; crossing cells are split into their 16 children (read as one
 * range each) while they hold more than EXACT_BUDGET listings together, except those holding few; the others,
 * and all at the finest level, are left to the exact test.
 */
async function descend(
  db: Kysely<DB>,
  states: readonly ListingState[],
  region: Region,
  cells: readonly GridCell[],
  groupOf: (cell: GridCell) => number,
): Promise<Descent> {
  const groups = new Map<number, CellTotals>();
  const band: CellRange[] = [];
  let level = cells[0]?.level ?? FINEST_CELL_LEVEL;
  let pending = [...new Set(cells.map(cellKey))];
  while (pending.length > 0) {
    const crossing: [GridCell, number][] = [];
    for (const [key, sums] of await cellTotals(db, level, states, pending)) {
      const cell = cellOfKey(level, key);
      const relation = region.relation(cell);
      if (relation === 'inside') addTotals(groups, groupOf(cell), sums);
      else if (relation === 'crossing') crossing.push([cell, sums.listings]);
    }
    const split = level < FINEST_CELL_LEVEL && crossing.reduce((sum, [, listings]) => sum + listings, 0) > EXACT_BUDGET;
    const next: number[] = [];
    for (const [cell, listings] of crossing) {
      if (!split || listings <= EXACT_UP_TO) band.push(keyRangeOf(cell));
      else {
        const [first, last] = keyRangeOf(cell, level + 2);
        for (let child = first; child <= last; child++) next.push(child);
      }
    }
    level += 2;
    pending = next;
  }
  return { groups, band: mergedRanges(band) };
}

/** The deepest level of CELL_LEVELS at which the boxes span at most START_CELLS cells (else the coarsest). */
function startLevel(boxes: readonly SearchBox[]): number {
  const fits = (level: number) => boxes.reduce((sum, box) => sum + cellsSpannedByBox(box, level), 0) <= START_CELLS;
  return [...CELL_LEVELS].reverse().find(fits) ?? CELL_LEVELS[0];
}

/** The exact circle test of geo-filters.repository.ts `inCircleSql`, without its key pre-selection: `dot ≥ minimumDot`. */
function circleTest(circle: RadiusCircle): Expression<SqlBool> {
  const eb = expressionBuilder<SearchDB, 'l'>();
  return sql<SqlBool>`${dotWith(eb, circle)} >= cast(${minimumDot(radiusKmOf(circle))} as double precision)`;
}

/** The exact box test of geo-filters.repository.ts `inBoxSql` (geo.ts `inBox`), without its key pre-selection. */
function boxTest(box: SearchBox): Expression<SqlBool> {
  const eb = expressionBuilder<SearchDB, 'l'>();
  const double = (value: number) => sql<number>`cast(${value} as double precision)`;
  const west = eb('l.longitude', '>=', double(box.west));
  const east = eb('l.longitude', '<=', double(box.east));
  return eb.and([
    eb('l.latitude', '>=', double(box.south)),
    eb('l.latitude', '<=', double(box.north)),
    box.west <= box.east ? eb.and([west, east]) : eb.or([west, east]),
  ]);
}

/** What the exact tests and centroids read of a listing: all in listings_geo_points_idx. */
const POINT_COLUMNS = ['id', 'geo_key', 'latitude', 'longitude', 'geo_x', 'geo_y', 'geo_z'] as const;
type PointRow = Pick<DB['listings'], (typeof POINT_COLUMNS)[number]>;

/** Listings in the states and `geo_key` ranges, as `l`, passing `test`: the query to select from. */
function listingsInRanges(db: Kysely<DB>, states: readonly ListingState[], ranges: readonly CellRange[], test: Expression<SqlBool>) {
  const points = rowsInKeyRanges<PointRow>(db, ranges, {
    table: 'listings',
    key: 'geo_key',
    columns: POINT_COLUMNS,
    where: sql`x.status in (${sql.join(states)})`,
  });
  return db.selectFrom(points.as('l')).where(test);
}

/** How many listings in the states and `geo_key` ranges pass `test`. */
async function countInRanges(
  db: Kysely<DB>,
  states: readonly ListingState[],
  ranges: readonly CellRange[],
  test: Expression<SqlBool>,
): Promise<number> {
  let count = 0;
  if (states.length === 0) return count;
  for (const chunk of chunks(ranges, RANGES_PER_STATEMENT)) {
    const row = await listingsInRanges(db, states, chunk, test)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    count += Number(row.n);
  }
  return count;
}

/** What the listings in the states and `geo_key` ranges passing `test` hold, per level-`level` cell. */
async function totalsInRanges(
  db: Kysely<DB>,
  states: readonly ListingState[],
  ranges: readonly CellRange[],
  test: Expression<SqlBool>,
  level: number,
): Promise<Map<number, CellTotals>> {
  const groups = new Map<number, CellTotals>();
  if (states.length === 0) return groups;
  for (const chunk of chunks(ranges, RANGES_PER_STATEMENT)) {
    const rows = await listingsInRanges(db, states, chunk, test)
      .select([cellOfListingSql(level).as('cell'), ...pointSums(db)])
      .groupBy(cellOfListingSql(level))
      .execute();
    for (const row of rows) addTotals(groups, Number(row.cell), totalsOf(row));
  }
  return groups;
}

/** count, coordinate sums (as the triggers compute them) and id sum of the grouped listings `l`. */
function pointSums(db: Kysely<DB>) {
  return [
    sql<number | string>`count(*)`.as('listings'),
    sql<number | string>`sum(${microdegrees(db, 'l.latitude')})`.as('lat_e6_sum'),
    sql<number | string>`sum(${microdegrees(db, 'l.longitude')})`.as('lng_e6_sum'),
    sql<number | string>`sum(l.id)`.as('id_sum'),
  ] as const;
}

/**
 * The number of listings in the states within the circle, exactly as the search filter counts them
 * (geo-filters.repository.ts `inCircleSql`), from the cell aggregates.
 */
export async function countInCircle(db: Kysely<DB>, states: readonly ListingState[], circle: RadiusCircle): Promise<number> {
  const boxes = boxOfCircle(circle);
  const level = startLevel(boxes);
  const cells = boxes.flatMap((box) => cellsCoveringBox(box, level));
  const { groups, band } = await descend(db, states, new CircleCells(circle), cells, () => 0);
  const exact = band.length > 0 ? await countInRanges(db, states, band, circleTest(circle)) : 0;
  return (groups.get(0)?.listings ?? 0) + exact;
}

/**
 * The level of a map’s clusters: the zoom plus two (a cell a quarter of a map tile wide, about 64 pixels), at
 * most FINEST_CLUSTER_LEVEL, and coarser until the box spans at most MAX_CLUSTERS cells.
 */
export function clusterLevel(box: SearchBox, zoom: number): number {
  let level = Math.min(zoom + 2, FINEST_CLUSTER_LEVEL);
  while (level > 0 && cellsSpannedByBox(box, level) > MAX_CLUSTERS) level--;
  return level;
}

/**
 * Map clusters (docs/api.md 4.5) of the listings in the states inside the box, from the cell aggregates: one
 * cluster per cell of `clusterLevel` holding exactly its listings inside the box (cells cut by the box's
 * edge are refined down to points), placed at their centroid, in key order.
 */
export async function clustersInBox(db: Kysely<DB>, states: readonly ListingState[], box: SearchBox, zoom: number): Promise<MapClusters> {
  if (zoom >= POINTS_ZOOM) return clustersOfMatches(db, (eb) => [eb('l.status', 'in', [...states]), inBoxSql(eb, box)], box, zoom);
  const level = clusterLevel(box, zoom);
  // Clusters of a level without aggregates (odd, or coarser than the first) add their cells at the next level that has them.
  const aggregated = CELL_LEVELS.find((candidate) => candidate >= level) ?? FINEST_CELL_LEVEL;
  const cells = cellsCoveringBox(box, level).flatMap((cell) => childrenOf(cell, aggregated - level));
  const clusterOf = (cell: GridCell) => Math.floor(cellKey(cell) / 4 ** (cell.level - level));
  const { groups, band } = await descend(db, states, new BoxCells(box), cells, clusterOf);
  if (band.length > 0) {
    for (const [cell, sums] of await totalsInRanges(db, states, band, boxTest(box), level)) addTotals(groups, cell, sums);
  }
  return clustersOf(groups);
}

/**
 * Map clusters of the listings matching a search with filters that the aggregates cannot know (a price, a
 * type…): one grouped query over the matching listings, exact, whose cost grows with the matches.
 * `conditions` must hold the box (search-filters.repository.ts `searchConditions` does when the search has one);
 * `box` and `zoom` choose the level of the clusters, as `clustersInBox` does.
 */
export async function clustersOfMatches(db: Kysely<DB>, conditions: ListingConditions, box: SearchBox, zoom: number): Promise<MapClusters> {
  const level = clusterLevel(box, zoom);
  const rows = await db
    .selectFrom('listings as l')
    .where((eb) => eb.and([...conditions(eb), eb('l.geo_key', 'is not', null)]))
    .select([cellOfListingSql(level).as('cell'), ...pointSums(db)])
    .groupBy(cellOfListingSql(level))
    .execute();
  return clustersOf(new Map(rows.map((row) => [Number(row.cell), totalsOf(row)])));
}

/** Clusters in key order: centroids rounded to 6 decimals; a cluster of one names its listing. */
export function clustersOf(groups: Map<number, CellTotals>): MapClusters {
  const clusters: MapCluster[] = [];
  let total = 0;
  for (const key of [...groups.keys()].sort((a, b) => a - b)) {
    const sums = groups.get(key)!;
    if (sums.listings === 0) continue;
    total += sums.listings;
    clusters.push({
      latitude: Math.round(sums.latitudeE6 / sums.listings) / 1e6,
      longitude: Math.round(sums.longitudeE6 / sums.listings) / 1e6,
      count: sums.listings,
      ...(sums.listings === 1 ? { property_id: sums.idSum } : {}),
    });
  }
  return { clusters, total };
}
