import { microdegreesOf } from '../../../db/dialect/ddl/geo-cell-triggers.js';
import { deinterleave } from '../../../lib/geo-grid.js';
import { BoxCells } from '../geo/geo-cells.js';
import { type CellTotals, clusterLevel, clustersOf, type MapClusters } from '../geo/geo-cells.repository.js';
import type { SearchBox } from '../query/search-types.js';
import { type EngineSearch, matchSlots } from './engine-match.js';
import { boxTest, forEachCell } from './engine-regions.js';
import { INDEX_CELL_LEVEL, type ListingIndex, PUBLISH, SOLD } from './listing-index.js';

/**
 * Map clusters (docs/api.md 4.5; geo/geo-cells.repository.ts is the reference): the listings a search matches
 * inside the box, grouped by the grid cell of `clusterLevel`, each group at its centroid. A search with no
 * filter but the box (and `include_sold`) at a level no finer than the index cells adds up the cells'
 * aggregates and tests only the listings of cells the box's edge cuts; any other is grouped from its matches.
 */
export function mapClusters(index: ListingIndex, engineSearch: EngineSearch, box: SearchBox, zoom: number): MapClusters {
  const level = clusterLevel(box, zoom);
  const { box: _box, include_sold: includeSold, ...others } = engineSearch.search.query;
  const boxOnly = Object.keys(others).length === 0 && engineSearch.search.scope === undefined;
  const groups = new Map<number, CellTotals>();
  const groupOfKey = 4 ** (20 - level);
  const add = (slot: number) => {
    const key = Math.floor(index.geoKeyOf(slot) / groupOfKey);
    addTotals(groups, key, 1, microdegreesOf(index.latitudeOf(slot)), microdegreesOf(index.longitudeOf(slot)), index.ids[slot]!);
  };
  if (!boxOnly || level > INDEX_CELL_LEVEL) {
    for (const slot of matchSlots(index, engineSearch)) if (index.isLocated(slot)) add(slot);
    return clustersOf(groups);
  }
  const statuses = includeSold ? [PUBLISH, SOLD] : [PUBLISH];
  const cells = new BoxCells(box);
  const inBox = boxTest(index, box);
  const groupOfCell = 4 ** (INDEX_CELL_LEVEL - level);
  forEachCell(index, [box], (cell) => {
    if (cells.relation({ level: INDEX_CELL_LEVEL, ...deinterleave(cell) }) === 'inside') {
      const { sums } = index.cellAggregates.get(cell)!;
      for (const status of statuses) {
        const at = status * 4;
        if (sums[at]! > 0) addTotals(groups, Math.floor(cell / groupOfCell), sums[at]!, sums[at + 1]!, sums[at + 2]!, sums[at + 3]!);
      }
      return;
    }
    index.cellPostings.get(cell)!.each((slot) => {
      if (index.isLive(slot) && statuses.includes(index.statusOf(slot)) && inBox(slot)) add(slot);
    });
  });
  return clustersOf(groups);
}

function addTotals(
  groups: Map<number, CellTotals>,
  key: number,
  listings: number,
  latitudeE6: number,
  longitudeE6: number,
  idSum: number,
): void {
  const sum = groups.get(key);
  if (sum === undefined) {
    groups.set(key, { listings, latitudeE6, longitudeE6, idSum });
    return;
  }
  sum.listings += listings;
  sum.latitudeE6 += latitudeE6;
  sum.longitudeE6 += longitudeE6;
  sum.idSum += idSum;
}
