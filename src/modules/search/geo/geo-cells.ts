import { columnOfLongitude, deinterleave, gather10, GRID_BITS, GRID_CELLS, interleave, rowOfLatitude } from '../../../lib/geo-grid.js';
import { crossesEdge, minimumDot, polygonEdges, type RadiusCircle, radiusKmOf } from './geo.js';
import type { GeoPoint, SearchBox } from '../query/search-types.js';

/**
 * The cells of the `geo_key` grid (geo.ts), pure geometry. A cell of level L is one of 2^L × 2^L
 * latitude/longitude rectangles; its key is the Z-order interleave of its row and column, which is also the
 * `geo_key` of any point in it shifted right by 2·(20 − L) bits. So the 16 cells two levels down are the
 * 16 consecutive keys `key·16 … key·16 + 15`, and a cell is one contiguous range of `geo_key`s.
 * `geo_cells` keeps per-cell aggregates at `CELL_LEVELS` (migration 0008); geo-cells.repository.ts reads them,
 * descending through the cells of a region's edge, classified here against circles, boxes and polygons.
 */

/** Finest-grid rows (or columns) per cell side, by level: a table, as `2 ** n` is slow for a variable n. */
const FINEST_PER_SIDE = Array.from({ length: GRID_BITS + 1 }, (_, level) => 2 ** (GRID_BITS - level));

/** A cell of `level`: `row` counts from the south pole, `column` from the antimeridian going east. */
export interface GridCell {
  level: number;
  row: number;
  column: number;
}

/** An inclusive range of keys. */
export type CellRange = readonly [lo: number, hi: number];

export type CellRelation = 'inside' | 'outside' | 'crossing';

/** The cell's key: the `geo_key` interleave of its row and column (lib/geo-grid.ts). */
export function cellKey(cell: GridCell): number {
  return interleave(cell.row, cell.column);
}

export function cellOfKey(level: number, key: number): GridCell {
  return { level, ...deinterleave(key) };
}

/** The keys at the finer `level` of the cells inside `cell` (default: its `geo_key`s). */
export function keyRangeOf(cell: GridCell, level = GRID_BITS): CellRange {
  const cells = 4 ** (level - cell.level);
  const lo = cellKey(cell) * cells;
  return [lo, lo + cells - 1];
}

/** The cells `levels` levels down inside `cell` (16 for two), in key order. */
export function childrenOf(cell: GridCell, levels = 2): GridCell[] {
  const side = 2 ** levels;
  const children: GridCell[] = [];
  // The k-th child in key order sits at the row and column that k's own bits interleave.
  for (let k = 0; k < side * side; k++) {
    children.push({ level: cell.level + levels, row: cell.row * side + gather10(k >>> 1), column: cell.column * side + gather10(k) });
  }
  return children;
}

/** The cell's rectangle, as the grid divides degrees (a point on an edge may be quantized to either side). */
export function cellExtent(cell: GridCell): SearchBox {
  const rows = 180 / 2 ** cell.level;
  const columns = 360 / 2 ** cell.level;
  return {
    south: -90 + cell.row * rows,
    north: -90 + (cell.row + 1) * rows,
    west: -180 + cell.column * columns,
    east: -180 + (cell.column + 1) * columns,
  };
}

/**
 * A box in finest-grid rows and columns, one side of the antimeridian. `open*`: the edge is the grid's own
 * (every point is on the inner side of it), so cells on that edge of the grid are not cut by it.
 */
interface GridBox {
  rowLo: number;
  rowHi: number;
  colLo: number;
  colHi: number;
  openSouth: boolean;
  openNorth: boolean;
  openWest: boolean;
  openEast: boolean;
}

/** The box as one or two grid boxes (split at the antimeridian, as geo.ts `inBox` reads it). */
function gridBoxesOf(box: SearchBox): GridBox[] {
  const rows = {
    rowLo: rowOfLatitude(box.south),
    rowHi: rowOfLatitude(box.north),
    openSouth: box.south <= -90,
    openNorth: box.north >= 90,
  };
  const side = (west: number, east: number) => ({
    ...rows,
    colLo: columnOfLongitude(west),
    colHi: columnOfLongitude(east),
    openWest: west <= -180,
    openEast: east >= 180,
  });
  return box.west <= box.east ? [side(box.west, box.east)] : [side(box.west, 180), side(-180, box.east)];
}

/** Columns of `level` that the grid boxes touch, in order, each once (the two sides may meet at coarse levels). */
function columnSpansOf(boxes: readonly GridBox[], level: number): [number, number][] {
  const size = 2 ** (GRID_BITS - level);
  const spans = boxes
    .map((box): [number, number] => [Math.floor(box.colLo / size), Math.floor(box.colHi / size)])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1] + 1) last[1] = Math.max(last[1], span[1]);
    else merged.push(span);
  }
  return merged;
}

/** Rows of `level` that the grid boxes touch (both sides of the antimeridian have the same). */
function rowSpanOf(boxes: readonly GridBox[], level: number): [number, number] {
  const size = 2 ** (GRID_BITS - level);
  return [Math.floor(boxes[0]!.rowLo / size), Math.floor(boxes[0]!.rowHi / size)];
}

/** The number of level-`level` cells that the box touches (how many clusters a map at that level could show). */
export function cellsSpannedByBox(box: SearchBox, level: number): number {
  const boxes = gridBoxesOf(box);
  const [rowLo, rowHi] = rowSpanOf(boxes, level);
  return (rowHi - rowLo + 1) * columnSpansOf(boxes, level).reduce((sum, [lo, hi]) => sum + hi - lo + 1, 0);
}

/**
 * The level-`level` cells that can hold a point inside the box (edges included), in key order. Exact: the
 * quantization is monotonic, so a point inside the box has a row and column between those of the box's edges.
 */
export function cellsCoveringBox(box: SearchBox, level: number): GridCell[] {
  const boxes = gridBoxesOf(box);
  const [rowLo, rowHi] = rowSpanOf(boxes, level);
  const columns = columnSpansOf(boxes, level);
  const keys: number[] = [];
  for (let row = rowLo; row <= rowHi; row++) {
    for (const [lo, hi] of columns) for (let column = lo; column <= hi; column++) keys.push(cellKey({ level, row, column }));
  }
  return keys.sort((a, b) => a - b).map((key) => cellOfKey(level, key));
}

/**
 * Where cells lie against a box, as geo.ts `inBox` decides for the points in them: `inside` and `outside`
 * are exact (compared as grid lines, through the monotonic quantization of `geo_key`: a point south of the
 * box's south edge is never in a row north of that edge's row), `crossing` cells hold the edges.
 */
export class BoxCells {
  private readonly boxes: GridBox[];

  constructor(box: SearchBox) {
    this.boxes = gridBoxesOf(box);
  }

  relation(cell: GridCell): CellRelation {
    const size = FINEST_PER_SIDE[cell.level]!;
    const rowLo = cell.row * size;
    const rowHi = rowLo + size - 1;
    const colLo = cell.column * size;
    const colHi = colLo + size - 1;
    let touches = false;
    for (const box of this.boxes) {
      if (rowHi < box.rowLo || rowLo > box.rowHi || colHi < box.colLo || colLo > box.colHi) continue;
      const inside =
        (box.openSouth || rowLo > box.rowLo) &&
        (box.openNorth || rowHi < box.rowHi) &&
        (box.openWest || colLo > box.colLo) &&
        (box.openEast || colHi < box.colHi);
      if (inside) return 'inside';
      touches = true;
    }
    return touches ? 'crossing' : 'outside';
  }
}

const RADIANS_PER_DEGREE = Math.PI / 180;
/**
 * Widening of a cell's rectangle. A point's grid line is computed in floating point (geo.ts `geoKey`), so a
 * point within about 1e-13° of a cell's edge may be quantized into the cell next to it: 1e-9° (0.1 mm) holds
 * every such point with a wide safety factor, and moves hardly any cell from `inside` to `crossing`.
 */
const EDGE_MARGIN_DEGREES = 1e-9;
/** Slack on the dot products: the stored unit vectors and their dot product in SQL round by about 1e-16. */
const DOT_MARGIN = 1e-12;
const FINEST_LATITUDE = 180 / GRID_CELLS;
const FINEST_LONGITUDE = 360 / GRID_CELLS;

/**
 * Where cells lie against a circle, as the SQL test `dot(point, centre) >= minimumDot(radius)` (geo.ts
 * `inCircle`) decides for the points in them: `inside` when the cell's farthest point is within the radius,
 * `outside` when its nearest point is beyond it, with margins that keep both answers right whatever the
 * rounding; `crossing` otherwise (it may be conservative by a hair).
 *
 * The cosine of the angle from the centre (φc, λc) to (φ, λ) is sin φc·sin φ + cos φc·cos φ·cos Δλ. Both
 * cosines of latitudes are ≥ 0, so over a rectangle its extremes take the extreme cos Δλ of the rectangle's
 * longitudes (an edge, or the centre's own or opposite meridian when the rectangle contains it), then the
 * extremes of A·sin φ + B·cos φ over the latitudes: at an edge, or at φ = atan(A/B) where it equals
 * ±hypot(A, B). On a small cell that is its nearest or farthest corner; on a large one near the antipode it
 * is not, and this still holds. Under 0.2 µs a cell: the six sines and cosines are a small part of it
 * (memoizing them per grid line in Maps measured no faster), so a descent classifies thousands of cells in
 * well under a millisecond.
 */
export class CircleCells {
  private readonly sinCentre: number;
  private readonly cosCentre: number;
  private readonly longitude: number;
  private readonly minDot: number;

  constructor(circle: RadiusCircle) {
    const latitude = circle.latitude * RADIANS_PER_DEGREE;
    this.sinCentre = Math.sin(latitude);
    this.cosCentre = Math.cos(latitude);
    this.longitude = circle.longitude;
    this.minDot = minimumDot(radiusKmOf(circle));
  }

  relation(cell: GridCell): CellRelation {
    const size = FINEST_PER_SIDE[cell.level]!;
    const rowLo = cell.row * size;
    const rowEnd = rowLo + size;
    const colLo = cell.column * size;
    const colEnd = colLo + size;
    const south = Math.max(-90, -90 + rowLo * FINEST_LATITUDE - EDGE_MARGIN_DEGREES);
    const north = Math.min(90, -90 + rowEnd * FINEST_LATITUDE + EDGE_MARGIN_DEGREES);
    // Δλ over the widened columns, unwrapped: a < b.
    const a = -180 + colLo * FINEST_LONGITUDE - EDGE_MARGIN_DEGREES - this.longitude;
    const b = -180 + colEnd * FINEST_LONGITUDE + EDGE_MARGIN_DEGREES - this.longitude;
    const cosA = Math.cos(a * RADIANS_PER_DEGREE);
    const cosB = Math.cos(b * RADIANS_PER_DEGREE);
    const leastCos = containsMultiple(a, b, 180) ? -1 : Math.min(cosA, cosB);
    const greatestCos = containsMultiple(a, b, 0) ? 1 : Math.max(cosA, cosB);

    const sinS = Math.sin(south * RADIANS_PER_DEGREE);
    const cosS = Math.cos(south * RADIANS_PER_DEGREE);
    const sinN = Math.sin(north * RADIANS_PER_DEGREE);
    const cosN = Math.cos(north * RADIANS_PER_DEGREE);
    const nearest = this.extreme(greatestCos, south, north, sinS, cosS, sinN, cosN, true);
    if (nearest + DOT_MARGIN < this.minDot) return 'outside';
    const farthest = this.extreme(leastCos, south, north, sinS, cosS, sinN, cosN, false);
    return farthest - DOT_MARGIN >= this.minDot ? 'inside' : 'crossing';
  }

  /** The max (or min) of sin φc·sin φ + cos φc·k·cos φ for φ in [south, north] (degrees). */
  private extreme(k: number, south: number, north: number, sinS: number, cosS: number, sinN: number, cosN: number, max: boolean): number {
    const A = this.sinCentre;
    const B = this.cosCentre * k;
    const atSouth = A * sinS + B * cosS;
    const atNorth = A * sinN + B * cosN;
    // The one stationary point in (-90°, 90°): a maximum when B > 0, a minimum when B < 0.
    if (max ? B > 0 : B < 0) {
      const stationary = Math.atan(A / B) / RADIANS_PER_DEGREE;
      if (stationary > south && stationary < north) return Math.sign(B) * Math.sqrt(A * A + B * B);
    }
    return max ? Math.max(atSouth, atNorth) : Math.min(atSouth, atNorth);
  }
}

/** Whether [a, b] (degrees) holds `offset` plus a multiple of 360°. */
function containsMultiple(a: number, b: number, offset: number): boolean {
  return Math.ceil((a - offset) / 360) <= Math.floor((b - offset) / 360);
}

/**
 * Widening of a cell's rectangle against a polygon's edges. Besides the quantization (EDGE_MARGIN_DEGREES),
 * the ray-casting test of a point near a steep or flat edge rounds by up to about 1e-14 of the degrees
 * involved, times the edge's slope; 1e-7° (about a centimetre) keeps a cell `inside` or `outside` only when
 * every point of it is far beyond any such rounding, and moves very few cells to `crossing`.
 */
const POLYGON_MARGIN_DEGREES = 1e-7;

/**
 * Where cells lie against a polygon, as geo.ts `inPolygon` decides for the points in them (even-odd ray
 * casting on a flat map, the polygon's bounding box first): a cell none of whose points is near an edge lies
 * wholly on one side, which its centre's own test tells; any other cell is `crossing` and its points are
 * tested one by one. Conservative: a cell an edge comes within the margin of is `crossing`.
 */
export class PolygonCells {
  private readonly vertices: readonly GeoPoint[];
  private readonly bounds: BoxCells;
  private readonly edges: ReturnType<typeof polygonEdges>;

  constructor(polygon: readonly GeoPoint[], bounds: SearchBox) {
    this.vertices = polygon;
    this.bounds = new BoxCells(bounds);
    this.edges = polygonEdges(polygon);
  }

  relation(cell: GridCell): CellRelation {
    const inBounds = this.bounds.relation(cell);
    if (inBounds === 'outside') return 'outside';
    const { south, north, west, east } = cellExtent(cell);
    const box = {
      south: south - POLYGON_MARGIN_DEGREES,
      north: north + POLYGON_MARGIN_DEGREES,
      west: west - POLYGON_MARGIN_DEGREES,
      east: east + POLYGON_MARGIN_DEGREES,
    };
    const count = this.vertices.length;
    for (let i = 0; i < count; i++) {
      if (segmentMeetsBox(this.vertices[i]!, this.vertices[(i + 1) % count]!, box)) return 'crossing';
    }
    const centre = { latitude: (south + north) / 2, longitude: (west + east) / 2 };
    let crossings = 0;
    for (const edge of this.edges) if (crossesEdge(centre, edge)) crossings++;
    if (crossings % 2 === 0) return 'outside';
    // Inside the polygon, and so inside its bounding box; the box's own edge test stays exact.
    return inBounds === 'inside' ? 'inside' : 'crossing';
  }
}

/** Whether the segment from `a` to `b` has a point in the closed box (Liang–Barsky clipping). */
function segmentMeetsBox(a: GeoPoint, b: GeoPoint, box: SearchBox): boolean {
  const dx = b.longitude - a.longitude;
  const dy = b.latitude - a.latitude;
  let from = 0;
  let to = 1;
  // Each side as p·t ≤ q: the part of the segment on the inner side of it.
  const sides: [number, number][] = [
    [-dx, a.longitude - box.west],
    [dx, box.east - a.longitude],
    [-dy, a.latitude - box.south],
    [dy, box.north - a.latitude],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) from = Math.max(from, t);
    else to = Math.min(to, t);
    if (from > to) return false;
  }
  return true;
}
