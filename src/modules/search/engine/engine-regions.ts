import { columnOfLongitude, interleave, deinterleave, rowOfLatitude } from '../../../lib/geo-grid.js';
import { polygonEdges } from '../geo/geo.js';
import type { GeoPoint, SearchBox } from '../query/search-types.js';
import { degreesReader } from './engine-columns.js';
import { INDEX_CELL_LEVEL, type ListingIndex } from './listing-index.js';

// The geometry of the index's grid cells (INDEX_CELL_LEVEL) that the geo filters and the map clusters share.

/** geo.ts `inBox`, where a listing without coordinates (NaN) is outside. */
export function boxTest(index: ListingIndex, box: SearchBox): (slot: number) => boolean {
  const [latitude, longitude] = [degreesReader(index.latitude), degreesReader(index.longitude)];
  const { south, north, west, east } = box;
  if (west <= east) {
    return (slot) => {
      const lat = latitude(slot);
      const lng = longitude(slot);
      return lat >= south && lat <= north && lng >= west && lng <= east;
    };
  }
  return (slot) => {
    const lat = latitude(slot);
    const lng = longitude(slot);
    return lat >= south && lat <= north && (lng >= west || lng <= east);
  };
}

/**
 * geo.ts `inPolygon` over the columns: inside the polygon's bounding box, then even-odd ray casting with the
 * edges' numbers in flat arrays and the arithmetic of `crossesEdge`, in the same order (the same roundings).
 */
export function polygonTest(index: ListingIndex, polygon: readonly GeoPoint[], bounds: SearchBox): (slot: number) => boolean {
  const edges = polygonEdges(polygon);
  const count = edges.length;
  const lat0 = Float64Array.from(edges, (edge) => edge.lat);
  const lng0 = Float64Array.from(edges, (edge) => edge.lng);
  const otherLat = Float64Array.from(edges, (edge) => edge.otherLat);
  const dLat = Float64Array.from(edges, (edge) => edge.dLat);
  const dLng = Float64Array.from(edges, (edge) => edge.dLng);
  const [latitude, longitude] = [degreesReader(index.latitude), degreesReader(index.longitude)];
  const { south, north, west, east } = bounds;
  return (slot) => {
    const lat = latitude(slot);
    const lng = longitude(slot);
    if (!(lat >= south && lat <= north && lng >= west && lng <= east)) return false;
    let inside = false;
    for (let k = 0; k < count; k++) {
      if (lat0[k]! > lat !== otherLat[k]! > lat && lng < (dLng[k]! * (lat - lat0[k]!)) / dLat[k]! + lng0[k]!) inside = !inside;
    }
    return inside;
  };
}

const SHIFT = 20 - INDEX_CELL_LEVEL;

/** A box side of the antimeridian as a range of index-cell rows and columns, with the finest-grid edges. */
interface CellSpan {
  rowLo: number;
  rowHi: number;
  colLo: number;
  colHi: number;
}

/** The index-cell spans of a box: one, or two when it crosses the antimeridian. */
function spansOf(box: SearchBox): CellSpan[] {
  const rowLo = rowOfLatitude(box.south) >> SHIFT;
  const rowHi = rowOfLatitude(box.north) >> SHIFT;
  const side = (west: number, east: number): CellSpan => ({
    rowLo,
    rowHi,
    colLo: columnOfLongitude(west) >> SHIFT,
    colHi: columnOfLongitude(east) >> SHIFT,
  });
  return box.west <= box.east ? [side(box.west, box.east)] : [side(box.west, 180), side(-180, box.east)];
}

/**
 * Calls `visit` with every non-empty index cell that touches one of the boxes, once: by walking the boxes'
 * cells when they are fewer than the non-empty cells, else by testing each non-empty cell.
 */
export function forEachCell(index: ListingIndex, boxes: readonly SearchBox[], visit: (cell: number) => void): void {
  const spans = boxes.flatMap(spansOf);
  const spanned = spans.reduce((sum, span) => sum + (span.rowHi - span.rowLo + 1) * (span.colHi - span.colLo + 1), 0);
  const inSpan = (row: number, column: number) =>
    spans.some((span) => row >= span.rowLo && row <= span.rowHi && column >= span.colLo && column <= span.colHi);
  if (spanned > index.cellAggregates.size) {
    for (const cell of index.cellAggregates.keys()) {
      const { row, column } = deinterleave(cell);
      if (inSpan(row, column)) visit(cell);
    }
    return;
  }
  const done = new Set<number>();
  for (const span of spans) {
    for (let row = span.rowLo; row <= span.rowHi; row++) {
      for (let column = span.colLo; column <= span.colHi; column++) {
        const cell = interleave(row, column);
        if (done.has(cell) || !index.cellAggregates.has(cell)) continue;
        done.add(cell);
        visit(cell);
      }
    }
  }
}
