import { microdegreesOf } from '../../../db/dialect/ddl/geo-cell-triggers.js';
import { columnOfLongitude, deinterleave, GRID_CELLS, rowOfLatitude } from '../../../lib/geo-grid.js';
import { type CellTotals, clusterLevel, clustersOf, type MapClusters } from '../geo/geo-cells.repository.js';
import type { SearchBox } from '../query/search-types.js';
import { boxTest, type EngineSearch, forEachCell, matchSlots } from './engine-match.js';
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
    const key = Math.floor(index.geoKey[slot]! / groupOfKey);
    addTotals(groups, key, 1, microdegreesOf(index.latitude[slot]!), microdegreesOf(index.longitude[slot]!), index.ids[slot]!);
  };
  if (!boxOnly || level > INDEX_CELL_LEVEL) {
    for (const slot of matchSlots(index, engineSearch)) if (!Number.isNaN(index.geoKey[slot]!)) add(slot);
    return clustersOf(groups);
  }
  const statuses = includeSold ? [PUBLISH, SOLD] : [PUBLISH];
  const inside = insideTest(box);
  const inBox = boxTest(index, box);
  const groupOfCell = 4 ** (INDEX_CELL_LEVEL - level);
  forEachCell(index, [box], (cell) => {
    if (inside(cell)) {
      const { sums } = index.cellAggregates.get(cell)!;
      for (const status of statuses) {
        const at = status * 4;
        if (sums[at]! > 0) addTotals(groups, Math.floor(cell / groupOfCell), sums[at]!, sums[at + 1]!, sums[at + 2]!, sums[at + 3]!);
      }
      return;
    }
    index.cellPostings.get(cell)!.each((slot) => {
      if (index.alive[slot] === 1 && statuses.includes(index.status[slot]!) && inBox(slot)) add(slot);
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

const CELL_SIDE = 2 ** (20 - INDEX_CELL_LEVEL);

/**
 * Whether every point an index cell can hold is inside the box: its finest-grid rows and columns lie strictly
 * between those of the box's edges (quantization is monotonic, so a point there is strictly inside the edge),
 * except at an edge that is the grid's own. A box across the antimeridian is its two sides.
 */
function insideTest(box: SearchBox): (cell: number) => boolean {
  const south = box.south <= -90 ? -1 : rowOfLatitude(box.south);
  const north = box.north >= 90 ? GRID_CELLS : rowOfLatitude(box.north);
  const westOf = (west: number) => (west <= -180 ? -1 : columnOfLongitude(west));
  const eastOf = (east: number) => (east >= 180 ? GRID_CELLS : columnOfLongitude(east));
  const sides =
    box.west <= box.east
      ? [{ west: westOf(box.west), east: eastOf(box.east) }]
      : [
          { west: westOf(box.west), east: GRID_CELLS },
          { west: -1, east: eastOf(box.east) },
        ];
  return (cell) => {
    const { row, column } = deinterleave(cell);
    const rowLo = row * CELL_SIDE;
    const colLo = column * CELL_SIDE;
    if (!(rowLo > south && rowLo + CELL_SIDE - 1 < north)) return false;
    return sides.some((side) => colLo > side.west && colLo + CELL_SIDE - 1 < side.east);
  };
}
