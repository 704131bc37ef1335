import type { Kysely } from 'kysely';
import { cellTableSuffix, changeIdColumn, createGeoCellTriggers, fillGeoCells } from '../dialect/ddl/geo-cell-triggers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Geo cell aggregates (modules/search/geo-cells.ts): per cell of the `geo_key` grid at each level of
 * `CELL_LEVELS` and per listing state, the number of listings and the sums of their coordinates (in
 * millionths of a degree) and ids. A circle's count and a map's clusters add the cells inside the region and
 * count points exactly only in the band of cells its edge runs through, so their cost follows the region's
 * edge rather than the number of listings in it.
 *
 * Triggers on `listings` append deltas to `geo_cell_changes` (dialect/geo-cell-triggers.ts); the compaction
 * job folds them into `geo_cells` (dialect/geo-cell-compaction.ts). A cell's totals are its row in
 * `geo_cells` plus its rows in `geo_cell_changes`.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('geo_cells')
    .addColumn('level', 'smallint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cell', 'bigint', (c) => c.notNull())
    .addColumn('listings', 'integer', (c) => c.notNull())
    .addColumn('lat_e6_sum', 'bigint', (c) => c.notNull())
    .addColumn('lng_e6_sum', 'bigint', (c) => c.notNull())
    .addColumn('id_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('geo_cells_pk', ['level', 'status', 'cell'])
    .modifyEnd(cellTableSuffix(db))
    .execute();

  await db.schema
    .createTable('geo_cell_changes')
    .addColumn('id', ...changeIdColumn(db))
    .addColumn('level', 'smallint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cell', 'bigint', (c) => c.notNull())
    .addColumn('listings', 'integer', (c) => c.notNull())
    .addColumn('lat_e6_sum', 'bigint', (c) => c.notNull())
    .addColumn('lng_e6_sum', 'bigint', (c) => c.notNull())
    .addColumn('id_sum', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('geo_cell_changes_cell_idx').on('geo_cell_changes').columns(['level', 'status', 'cell']).execute();

  // The points of the cells along a region's edge are read through listings_geo_points_idx (0006).

  await fillGeoCells(db);
  await createGeoCellTriggers(db);
}
