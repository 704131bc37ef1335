import { columnOfLongitude, GRID_BITS, GRID_CELLS, interleave, rowOfLatitude, type UnitVector, unitVector } from '../../../lib/geo-grid.js';
import type { GeoPoint, SearchBox, SearchCircle } from '../query/search-types.js';

/**
 * The geometry of geo search (docs/api.md 4.4), pure, over the geo columns of lib/geo-grid.ts: a region becomes a
 * few ranges of `geo_key`s that pre-select, and the exact tests decide.
 */

export const EARTH_RADIUS_KM = 6371.0088;
export const KM_PER_MILE = 1.609344;

/** An inclusive range of `geo_key`s. */
export type KeyRange = readonly [lo: number, hi: number];

/** A listing's point with its stored unit vector (`geo_x`, `geo_y`, `geo_z`). */
export interface LocatedPoint extends GeoPoint {
  geo: UnitVector;
}

/** A circle that limits the distance (a `SearchCircle` without `radius` is only a centre). */
export type RadiusCircle = SearchCircle & { radius: number };

const RADIANS_PER_DEGREE = Math.PI / 180;
const DEGREES_PER_RADIAN = 180 / Math.PI;
/** Below every dot product of unit vectors, rounding included: the circle holds the whole sphere. */
const WHOLE_SPHERE_DOT = -2;
/**
 * Widening of a circle's box: the dot product compared with `minimumDot` is rounded, so a point it admits
 * may lie up to about 6e-8 radians (0.4 m) beyond the exact radius; the box must still hold it.
 */
const CIRCLE_BOX_MARGIN_RADIANS = 1e-7;
/** Widening of box edges against the rounding of asin and the degree conversions. */
const EDGE_MARGIN_DEGREES = 1e-9;

/** The dot product in the order SQL evaluates `geo_x * x + geo_y * y + geo_z * z`, so both round alike. */
function dot(a: UnitVector, b: UnitVector): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** The circle's radius in kilometres. */
export function radiusKmOf(circle: RadiusCircle): number {
  return circle.unit === 'mi' ? circle.radius * KM_PER_MILE : circle.radius;
}

/** Points within `radiusKm` of a centre are those whose unit vector's dot product with the centre's is at least this. */
export function minimumDot(radiusKm: number): number {
  return radiusKm >= Math.PI * EARTH_RADIUS_KM ? WHOLE_SPHERE_DOT : Math.cos(radiusKm / EARTH_RADIUS_KM);
}

/** Great-circle distance in kilometres, from the points' unit vectors. */
export function distanceKm(a: GeoPoint, b: GeoPoint): number {
  const cosine = dot(unitVector(a.latitude, a.longitude), unitVector(b.latitude, b.longitude));
  return Math.acos(Math.min(1, Math.max(-1, cosine))) * EARTH_RADIUS_KM;
}

/** Whether the point lies within the circle: its stored unit vector against the centre's. */
export function inCircle(point: LocatedPoint, circle: RadiusCircle): boolean {
  return dot(point.geo, unitVector(circle.latitude, circle.longitude)) >= minimumDot(radiusKmOf(circle));
}

/** Inclusive on every edge; a box whose west edge is east of its east edge crosses the antimeridian. */
export function inBox(point: GeoPoint, box: SearchBox): boolean {
  if (point.latitude < box.south || point.latitude > box.north) return false;
  return box.west <= box.east
    ? point.longitude >= box.west && point.longitude <= box.east
    : point.longitude >= box.west || point.longitude <= box.east;
}

/**
 * An edge of a polygon as the ray-casting test uses it: from (`lat`, `lng`), rising `dLat` and going east
 * `dLng`. Horizontal edges are left out: no ray crosses them, and SQL would divide by their zero `dLat`.
 */
export interface PolygonEdge {
  lat: number;
  lng: number;
  otherLat: number;
  dLat: number;
  dLng: number;
}

export function polygonEdges(polygon: readonly GeoPoint[]): PolygonEdge[] {
  return polygon.flatMap((from, i) => {
    const to = polygon[(i + 1) % polygon.length]!;
    const dLat = to.latitude - from.latitude;
    if (dLat === 0) return [];
    return [{ lat: from.latitude, lng: from.longitude, otherLat: to.latitude, dLat, dLng: to.longitude - from.longitude }];
  });
}

/**
 * Whether a ray from the point towards the east crosses the edge: the edge spans the point's latitude
 * (half-open, so a vertex on the ray counts once) and meets it east of the point. Written as in SQL.
 */
export function crossesEdge(point: GeoPoint, edge: PolygonEdge): boolean {
  return (
    edge.lat > point.latitude !== edge.otherLat > point.latitude &&
    point.longitude < (edge.dLng * (point.latitude - edge.lat)) / edge.dLat + edge.lng
  );
}

/**
 * Even-odd ray casting on latitude and longitude taken as plane coordinates (plate carrée): edges are
 * straight on a flat map, not great circles, and a polygon must not cross the antimeridian. Inside the
 * polygon's bounding box first, as in SQL, so that both agree even on a rounding at the box's edge.
 */
export function inPolygon(point: GeoPoint, polygon: readonly GeoPoint[]): boolean {
  if (!inBox(point, boxOfPolygon(polygon))) return false;
  return polygonEdges(polygon).filter((edge) => crossesEdge(point, edge)).length % 2 === 1;
}

export function boxOfPolygon(polygon: readonly GeoPoint[]): SearchBox {
  const latitudes = polygon.map((p) => p.latitude);
  const longitudes = polygon.map((p) => p.longitude);
  return { south: Math.min(...latitudes), north: Math.max(...latitudes), west: Math.min(...longitudes), east: Math.max(...longitudes) };
}

/**
 * Boxes holding the whole circle, every point that `inCircle` admits included: one box, or two when the
 * circle crosses the antimeridian; a circle over a pole spans every longitude.
 */
export function boxOfCircle(circle: RadiusCircle): SearchBox[] {
  const angle = radiusKmOf(circle) / EARTH_RADIUS_KM + CIRCLE_BOX_MARGIN_RADIANS;
  const spread = angle * DEGREES_PER_RADIAN + EDGE_MARGIN_DEGREES;
  const south = circle.latitude - spread;
  const north = circle.latitude + spread;
  if (north >= 90 || south <= -90) {
    return [{ south: Math.max(-90, south), north: Math.min(90, north), west: -180, east: 180 }];
  }
  // The widest longitude is where a meridian touches the circle: sin(Δλ) = sin(angle) / cos(latitude).
  const ratio = Math.sin(angle) / Math.cos(circle.latitude * RADIANS_PER_DEGREE);
  if (ratio >= 1) return [{ south, north, west: -180, east: 180 }];
  const halfWidth = Math.asin(ratio) * DEGREES_PER_RADIAN + EDGE_MARGIN_DEGREES;
  const west = circle.longitude - halfWidth;
  const east = circle.longitude + halfWidth;
  if (west < -180)
    return [
      { south, north, west: west + 360, east: 180 },
      { south, north, west: -180, east },
    ];
  if (east > 180)
    return [
      { south, north, west, east: 180 },
      { south, north, west: -180, east: east - 360 },
    ];
  return [{ south, north, west, east }];
}

// The key grid

/** Cells of the grid `[rowLo, rowHi] × [colLo, colHi]`, inclusive. */
interface CellBox {
  rowLo: number;
  rowHi: number;
  colLo: number;
  colHi: number;
}

/** A quadtree node: at `level`, the square of 2^(20 - level) cells whose top-left is (`row`, `column`) in level units. */
interface Node {
  level: number;
  row: number;
  column: number;
}

function rangeOfNode(node: Node): [number, number] {
  const cells = 4 ** (GRID_BITS - node.level);
  const lo = interleave(node.row, node.column) * cells;
  return [lo, lo + cells - 1];
}

function relation(node: Node, boxes: readonly CellBox[]): 'outside' | 'inside' | 'partial' {
  const size = 2 ** (GRID_BITS - node.level);
  const rowLo = node.row * size;
  const colLo = node.column * size;
  const rowHi = rowLo + size - 1;
  const colHi = colLo + size - 1;
  let touches = false;
  for (const box of boxes) {
    if (box.rowLo <= rowLo && rowHi <= box.rowHi && box.colLo <= colLo && colHi <= box.colHi) return 'inside';
    if (box.rowLo <= rowHi && rowLo <= box.rowHi && box.colLo <= colHi && colLo <= box.colHi) touches = true;
  }
  return touches ? 'partial' : 'outside';
}

function childrenOf(node: Node): Node[] {
  const level = node.level + 1;
  const row = node.row * 2;
  const column = node.column * 2;
  return [
    { level, row, column },
    { level, row, column: column + 1 },
    { level, row: row + 1, column },
    { level, row: row + 1, column: column + 1 },
  ];
}

/** Sorted, with touching or overlapping ranges joined. */
function mergeRanges(ranges: readonly KeyRange[]): KeyRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = merged.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

function cellBoxesOf(box: SearchBox): CellBox[] {
  const rows = { rowLo: rowOfLatitude(box.south), rowHi: rowOfLatitude(box.north) };
  if (box.west <= box.east) return [{ ...rows, colLo: columnOfLongitude(box.west), colHi: columnOfLongitude(box.east) }];
  return [
    { ...rows, colLo: columnOfLongitude(box.west), colHi: GRID_CELLS - 1 },
    { ...rows, colLo: 0, colHi: columnOfLongitude(box.east) },
  ];
}

/**
 * Inclusive key ranges whose union holds the key of every cell that one of the boxes touches (an
 * antimeridian-crossing box counts as its two halves). A quadtree descent: nodes inside a box become whole
 * ranges, nodes astride an edge are split, level after level, until a further split would give more than
 * `maxRanges` ranges; the nodes still astride are then kept whole (they only let more rows through to the
 * exact test).
 */
export function keyRangesOfBoxes(boxes: readonly SearchBox[], maxRanges = 32): KeyRange[] {
  const cellBoxes = boxes.flatMap(cellBoxesOf);
  let kept: KeyRange[] = [];
  let astride: Node[] = [{ level: 0, row: 0, column: 0 }];
  while (astride.length > 0) {
    const inside: KeyRange[] = [];
    const nextAstride: Node[] = [];
    for (const child of astride.flatMap(childrenOf)) {
      const where = relation(child, cellBoxes);
      if (where === 'inside') inside.push(rangeOfNode(child));
      else if (where === 'partial') nextAstride.push(child);
    }
    const refined = mergeRanges([...kept, ...inside, ...nextAstride.map(rangeOfNode)]);
    if (refined.length > maxRanges) break;
    kept = mergeRanges([...kept, ...inside]);
    astride = nextAstride;
  }
  return mergeRanges([...kept, ...astride.map(rangeOfNode)]);
}

export function keyRangesOfBox(box: SearchBox, maxRanges = 32): KeyRange[] {
  return keyRangesOfBoxes([box], maxRanges);
}
