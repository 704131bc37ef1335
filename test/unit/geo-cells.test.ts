import { describe, expect, it } from 'vitest';
import { between, type Random, seededRandom } from '../../src/lib/random.js';
import { boxOfPolygon, distanceKm, inBox, inCircle, inPolygon, type RadiusCircle } from '../../src/modules/search/geo/geo.js';
import { geoKey, unitVector, CELL_LEVELS, cellOfGeoKey, columnOfLongitude, rowOfLatitude } from '../../src/lib/geo-grid.js';
import {
  BoxCells,
  CircleCells,
  cellExtent,
  cellKey,
  cellOfKey,
  type CellRelation,
  cellsCoveringBox,
  cellsSpannedByBox,
  childrenOf,
  type GridCell,
  keyRangeOf,
  PolygonCells,
} from '../../src/modules/search/geo/geo-cells.js';
import type { GeoPoint, SearchBox } from '../../src/modules/search/query/search-types.js';

const located = (point: GeoPoint) => ({ ...point, geo: unitVector(point.latitude, point.longitude) });
const cellOfPoint = (point: GeoPoint, level: number): number => cellOfGeoKey(geoKey(point.latitude, point.longitude), level);
const clampLatitude = (latitude: number) => Math.min(90, Math.max(-90, latitude));
const wrapLongitude = (longitude: number) => (longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude);

/**
 * Points whose `geo_key` lies in the cell: its corners, edges and inside, and points just across its edges
 * (which the float quantization may still put in it), keeping only those it does.
 */
function pointsOf(cell: GridCell, random: Random, count = 20): GeoPoint[] {
  const { south, north, west, east } = cellExtent(cell);
  const nudge = 1e-12;
  const latitudes = [south, north, south - nudge, north + nudge, south + nudge, north - nudge, (south + north) / 2];
  const longitudes = [west, east, west - nudge, east + nudge, west + nudge, east - nudge, (west + east) / 2];
  const candidates: GeoPoint[] = [];
  for (const latitude of latitudes) for (const longitude of longitudes) candidates.push({ latitude, longitude });
  for (let i = 0; i < count; i++) candidates.push({ latitude: between(random, south, north), longitude: between(random, west, east) });
  const key = cellKey(cell);
  return candidates
    .map((p) => ({ latitude: clampLatitude(p.latitude), longitude: wrapLongitude(p.longitude) }))
    .filter((p) => cellOfPoint(p, cell.level) === key);
}

/** Cells of every stored level around a point: the cell holding it and its neighbours. */
function cellsAround(point: GeoPoint, level: number, reach = 2): GridCell[] {
  const size = 2 ** level;
  const centre = cellOfKey(level, cellOfPoint(point, level));
  const cells: GridCell[] = [];
  for (let dr = -reach; dr <= reach; dr++) {
    for (let dc = -reach; dc <= reach; dc++) {
      const row = centre.row + dr;
      if (row < 0 || row >= size) continue;
      cells.push({ level, row, column: (((centre.column + dc) % size) + size) % size });
    }
  }
  return cells;
}

describe('cell keys', () => {
  it('are the geo_key of any point in the cell shifted right, and decode back to the row and column', () => {
    const random = seededRandom(11);
    for (let i = 0; i < 500; i++) {
      const point = { latitude: between(random, -90, 90), longitude: between(random, -180, 180) };
      const finest = { level: 20, row: rowOfLatitude(point.latitude), column: columnOfLongitude(point.longitude) };
      expect(cellKey(finest)).toBe(geoKey(point.latitude, point.longitude));
      for (const level of [0, 1, ...CELL_LEVELS, 20]) {
        const key = cellOfPoint(point, level);
        const cell = cellOfKey(level, key);
        expect(cellKey(cell)).toBe(key);
        expect(cell).toEqual({ level, row: finest.row >> (20 - level), column: finest.column >> (20 - level) });
        const extent = cellExtent(cell);
        expect(point.latitude).toBeGreaterThanOrEqual(extent.south - 1e-9);
        expect(point.latitude).toBeLessThanOrEqual(extent.north + 1e-9);
        expect(point.longitude).toBeGreaterThanOrEqual(extent.west - 1e-9);
        expect(point.longitude).toBeLessThanOrEqual(extent.east + 1e-9);
      }
    }
  });

  it('puts the poles and the antimeridian in the outermost cells', () => {
    expect(cellOfKey(4, cellOfPoint({ latitude: 90, longitude: 180 }, 4))).toEqual({ level: 4, row: 15, column: 15 });
    expect(cellOfKey(4, cellOfPoint({ latitude: -90, longitude: -180 }, 4))).toEqual({ level: 4, row: 0, column: 0 });
    expect(cellExtent({ level: 1, row: 1, column: 0 })).toEqual({ south: 0, north: 90, west: -180, east: 0 });
  });

  it('has 16 children two levels down: consecutive keys that tile the cell', () => {
    const cell = { level: 6, row: 37, column: 18 };
    const children = childrenOf(cell);
    const [lo, hi] = keyRangeOf(cell, 8);
    expect(children.map(cellKey)).toEqual(Array.from({ length: 16 }, (_, i) => lo + i));
    expect(hi).toBe(lo + 15);
    expect(new Set(children.map((c) => `${c.row},${c.column}`)).size).toBe(16);
    for (const child of children) {
      expect(child.row >> 2).toBe(cell.row);
      expect(child.column >> 2).toBe(cell.column);
    }
    // A cell's geo_keys: every finest key in it.
    const [keyLo, keyHi] = keyRangeOf(cell);
    expect(keyHi - keyLo + 1).toBe(4 ** 14);
    expect(cellOfGeoKey(keyLo, 6)).toBe(cellKey(cell));
    expect(cellOfGeoKey(keyHi, 6)).toBe(cellKey(cell));
    expect(cellOfGeoKey(keyHi + 1, 6)).not.toBe(cellKey(cell));
  });
});

const BOXES: SearchBox[] = [
  { south: 25.3, north: 26.2, west: -80.9, east: -79.5 }, // Miami at zoom 10
  { south: -10, north: 10, west: 170, east: -170 }, // across the antimeridian
  { south: 48.85, north: 48.8501, west: 2.35, east: 2.3501 }, // tiny
  { south: -90, north: 90, west: -180, east: 180 }, // the whole world
  { south: 80, north: 90, west: -30, east: 60 }, // up to the pole
  { south: 0, north: 45, west: 0, east: 90 }, // edges on grid lines
  { south: 1, north: 2, west: 179, east: -179.5 },
];

describe('cells of a box', () => {
  it('covers every point inside the box, once, in key order', () => {
    const random = seededRandom(5);
    for (const box of BOXES) {
      for (const level of [0, 2, 5, ...CELL_LEVELS]) {
        if (cellsSpannedByBox(box, level) > 5000) continue;
        const cells = cellsCoveringBox(box, level);
        const keys = cells.map(cellKey);
        expect(keys.length).toBe(cellsSpannedByBox(box, level));
        expect([...keys].sort((a, b) => a - b)).toEqual(keys);
        expect(new Set(keys).size).toBe(keys.length);
        const covered = new Set(keys);
        const width = box.west <= box.east ? box.east - box.west : box.east - box.west + 360;
        for (let i = 0; i < 300; i++) {
          const point = { latitude: between(random, box.south, box.north), longitude: wrapLongitude(box.west + random() * width) };
          expect(covered.has(cellOfPoint(point, level))).toBe(true);
        }
        for (const corner of [
          { latitude: box.south, longitude: box.west },
          { latitude: box.north, longitude: box.east },
        ])
          expect(covered.has(cellOfPoint(corner, level))).toBe(true);
      }
    }
  });

  it('classifies cells as inBox decides for every point they hold, edges included', () => {
    const random = seededRandom(7);
    const seen: Record<CellRelation, number> = { inside: 0, outside: 0, crossing: 0 };
    for (const box of BOXES) {
      const cells = new BoxCells(box);
      for (const level of CELL_LEVELS) {
        const around = [
          ...cellsAround({ latitude: box.south, longitude: box.west }, level),
          ...cellsAround({ latitude: box.north, longitude: box.east }, level),
          ...cellsAround({ latitude: (box.north + box.south) / 2, longitude: box.west }, level),
        ];
        for (const cell of around) {
          const relation = cells.relation(cell);
          seen[relation]++;
          if (relation === 'crossing') continue;
          for (const point of pointsOf(cell, random)) expect(inBox(point, box)).toBe(relation === 'inside');
        }
      }
    }
    expect(seen.inside).toBeGreaterThan(100);
    expect(seen.outside).toBeGreaterThan(100);
  });

  it('calls crossing only the cells an edge runs through', () => {
    const box = { south: 25.3, north: 26.2, west: -80.9, east: -79.5 };
    const cells = new BoxCells(box);
    for (const cell of cellsCoveringBox(box, 12)) {
      const e = cellExtent(cell);
      const cut = e.south <= box.south || e.north >= box.north || e.west <= box.west || e.east >= box.east;
      expect(cells.relation(cell)).toBe(cut ? 'crossing' : 'inside');
    }
    // An edge inside the outermost finest row or column of a cell still cuts it: the point between the
    // cell's side and the edge is in the cell and not in the box.
    const cell = { level: 12, row: 2000, column: 1000 };
    const e = cellExtent(cell);
    const quantum = { latitude: 180 / 2 ** 20, longitude: 360 / 2 ** 20 };
    const edges: [SearchBox, GeoPoint][] = [
      [
        { south: e.south + quantum.latitude / 2, north: e.north + 1, west: e.west - 1, east: e.east + 1 },
        { latitude: e.south + quantum.latitude / 4, longitude: (e.west + e.east) / 2 },
      ],
      [
        { south: e.south - 1, north: e.north - quantum.latitude / 2, west: e.west - 1, east: e.east + 1 },
        { latitude: e.north - quantum.latitude / 4, longitude: (e.west + e.east) / 2 },
      ],
      [
        { south: e.south - 1, north: e.north + 1, west: e.west + quantum.longitude / 2, east: e.east + 1 },
        { latitude: (e.south + e.north) / 2, longitude: e.west + quantum.longitude / 4 },
      ],
      [
        { south: e.south - 1, north: e.north + 1, west: e.west - 1, east: e.east - quantum.longitude / 2 },
        { latitude: (e.south + e.north) / 2, longitude: e.east - quantum.longitude / 4 },
      ],
    ];
    for (const [edgeBox, outsider] of edges) {
      expect(cellOfPoint(outsider, 12)).toBe(cellKey(cell));
      expect(inBox(outsider, edgeBox)).toBe(false);
      expect(new BoxCells(edgeBox).relation(cell)).toBe('crossing');
    }
    // The whole world: nothing is cut.
    expect(new BoxCells(BOXES[3]!).relation({ level: 4, row: 15, column: 0 })).toBe('inside');
  });
});

const CIRCLES: RadiusCircle[] = [
  { latitude: 25.7617, longitude: -80.1918, radius: 10, unit: 'km' }, // central Miami
  { latitude: 48.8566, longitude: 2.3522, radius: 0.05, unit: 'km' }, // tiny
  { latitude: 0.5, longitude: 179.9, radius: 300, unit: 'km' }, // across the antimeridian
  { latitude: 89.5, longitude: 10, radius: 200, unit: 'km' }, // over the north pole
  { latitude: -33.9, longitude: 18.4, radius: 2500, unit: 'mi' }, // huge
  { latitude: 10, longitude: -40, radius: 19_000, unit: 'km' }, // all but a cap around the antipode
  { latitude: 0, longitude: 0, radius: 30_000, unit: 'km' }, // the whole sphere
];

/** Points on the circle's edge, where classification matters most. */
function edgePoints(circle: RadiusCircle, count: number): GeoPoint[] {
  const rad = Math.PI / 180;
  const angle = (circle.unit === 'mi' ? circle.radius * 1.609344 : circle.radius) / 6371.0088;
  const lat1 = circle.latitude * rad;
  return Array.from({ length: count }, (_, i) => {
    const bearing = (2 * Math.PI * i) / count;
    const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(bearing));
    const lng2 =
      circle.longitude * rad +
      Math.atan2(Math.sin(bearing) * Math.sin(angle) * Math.cos(lat1), Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2));
    return { latitude: clampLatitude(lat2 / rad), longitude: wrapLongitude(((lng2 / rad + 540) % 360) - 180) };
  });
}

describe('cells of a circle', () => {
  it('classifies cells as inCircle decides for every point they hold', () => {
    const random = seededRandom(13);
    const seen: Record<CellRelation, number> = { inside: 0, outside: 0, crossing: 0 };
    for (const circle of CIRCLES) {
      const cells = new CircleCells(circle);
      for (const level of CELL_LEVELS) {
        const around = [{ latitude: circle.latitude, longitude: circle.longitude }, ...edgePoints(circle, 12)].flatMap((p) =>
          cellsAround(p, level, 1),
        );
        for (const cell of around) {
          const relation = cells.relation(cell);
          seen[relation]++;
          if (relation === 'crossing') continue;
          for (const point of pointsOf(cell, random, 10)) expect(inCircle(located(point), circle)).toBe(relation === 'inside');
        }
      }
    }
    expect(seen.inside).toBeGreaterThan(200);
    expect(seen.outside).toBeGreaterThan(200);
    expect(seen.crossing).toBeGreaterThan(200);
  });

  it('finds the farthest point of a cell on its edge when the antipode’s meridian runs through it, not at a corner', () => {
    // Centre (0.3°, 0°): the antipode (−0.3°, 180°) lies on the east edge of the cell below, between its
    // corners, which are all nearer to the centre than it.
    const cell = cellOfKey(8, cellOfPoint({ latitude: -0.3, longitude: 179.9 }, 8));
    const { south, north, west, east } = cellExtent(cell);
    expect([south < -0.3, north > -0.3, east]).toEqual([true, true, 180]);
    const centre = { latitude: 0.3, longitude: 0 };
    const cornerKm = Math.max(
      ...[south, north].flatMap((latitude) => [west, east].map((longitude) => distanceKm(centre, { latitude, longitude }))),
    );
    // A radius that reaches every corner but not the antipode.
    const circle: RadiusCircle = { ...centre, radius: cornerKm + 1, unit: 'km' };
    expect(inCircle(located({ latitude: -0.3, longitude: 180 }), circle)).toBe(false);
    expect(new CircleCells(circle).relation(cell)).toBe('crossing');
  });

  it('finds the nearest point of a cell inside it when the centre’s meridian and latitude run through it', () => {
    const circle: RadiusCircle = { latitude: 25.7617, longitude: -80.1918, radius: 0.001, unit: 'km' };
    const cells = new CircleCells(circle);
    const holding = cellOfKey(16, cellOfPoint(circle, 16));
    expect(cells.relation(holding)).toBe('crossing');
    expect(cells.relation({ ...holding, row: holding.row + 2 })).toBe('outside');
  });

  it('keeps the band of crossing cells thin: a cell is inside or outside unless the circle’s edge runs through it', () => {
    const circle = CIRCLES[0]!;
    const cells = new CircleCells(circle);
    let crossing = 0;
    for (const point of edgePoints(circle, 720)) {
      const cell = cellOfKey(16, cellOfPoint(point, 16));
      expect(cells.relation(cell)).toBe('crossing');
    }
    // Cells two cells away from any edge point (≥ 300 m) are decided.
    const centre = cellOfKey(16, cellOfPoint(circle, 16));
    expect(cells.relation(centre)).toBe('inside');
    for (const cell of cellsCoveringBox({ south: 25.66, north: 25.86, west: -80.3, east: -80.08 }, 14)) {
      if (cells.relation(cell) === 'crossing') crossing++;
    }
    // The circle's edge is 63 km long and level-14 cells are about 1.2 × 2.2 km: a few dozen of them cross it.
    expect(crossing).toBeGreaterThan(20);
    expect(crossing).toBeLessThan(80);
  });

  it('holds everything for a circle wider than the sphere and nothing but the centre’s cell for radius 0', () => {
    expect(new CircleCells(CIRCLES[6]!).relation({ level: 4, row: 0, column: 7 })).toBe('inside');
    const point = new CircleCells({ latitude: 10, longitude: 10, radius: 0, unit: 'km' });
    expect(point.relation(cellOfKey(12, cellOfPoint({ latitude: 10, longitude: 10 }, 12)))).toBe('crossing');
    expect(point.relation(cellOfKey(12, cellOfPoint({ latitude: 10.1, longitude: 10 }, 12)))).toBe('outside');
  });
});

/** A star-shaped polygon of `corners` vertices around `centre` (concave when the radii differ much). */
function starPolygon(random: Random, centre: GeoPoint, corners: number, reach: number): GeoPoint[] {
  return Array.from({ length: corners }, (_, n) => {
    const angle = (2 * Math.PI * (n + between(random, 0.1, 0.9))) / corners;
    const radius = reach * between(random, 0.2, 1);
    return { latitude: centre.latitude + radius * Math.sin(angle), longitude: centre.longitude + radius * Math.cos(angle) };
  });
}

describe('cells of a polygon', () => {
  // A U with horizontal edges, one with an edge on a level-10 grid line, and random stars of 3 to 9 corners.
  const random = seededRandom(11);
  const polygons: GeoPoint[][] = [
    [
      { latitude: 0, longitude: 0 },
      { latitude: 0, longitude: 3 },
      { latitude: 3, longitude: 3 },
      { latitude: 3, longitude: 2 },
      { latitude: 1, longitude: 2 },
      { latitude: 1, longitude: 1 },
      { latitude: 3, longitude: 1 },
      { latitude: 3, longitude: 0 },
    ],
    [
      { latitude: 25.6, longitude: -80.5 },
      { latitude: 25.6, longitude: -180 + (360 / 1024) * 278 },
      { latitude: 25.9, longitude: -80.1 },
    ],
    ...Array.from({ length: 24 }, (_, n) =>
      starPolygon(random, { latitude: between(random, -60, 60), longitude: between(random, -170, 170) }, 3 + (n % 7), 0.05 * 2 ** (n % 6)),
    ),
  ];

  it('classifies cells as inPolygon decides for every point they hold, edges included', () => {
    const seen = { inside: 0, outside: 0, crossing: 0 };
    for (const polygon of polygons) {
      const bounds = boxOfPolygon(polygon);
      const cells = new PolygonCells(polygon, bounds);
      // A level at which the polygon's box spans about sixteen cells a side.
      const level = Math.min(20, Math.max(4, Math.round(Math.log2((360 * 16) / Math.max(bounds.east - bounds.west, 1e-6)))));
      const covering = cellsCoveringBox(bounds, level);
      for (const cell of covering.length > 600 ? covering.filter((_, n) => n % 5 === 0) : covering) {
        const relation = cells.relation(cell);
        seen[relation]++;
        if (relation === 'crossing') continue;
        for (const point of pointsOf(cell, random, 6)) expect(inPolygon(point, polygon)).toBe(relation === 'inside');
      }
      // Beyond the box: nothing.
      expect(cells.relation(cellOfKey(level, cellOfPoint({ latitude: bounds.north + 1, longitude: bounds.west }, level)))).toBe('outside');
    }
    expect(seen.inside).toBeGreaterThan(1_500);
    expect(seen.outside).toBeGreaterThan(1_500);
    expect(seen.crossing).toBeGreaterThan(500);
  });

  it('calls a cell crossing when an edge runs through it, even between its corners', () => {
    // A thin spike whose tip enters a cell none of whose corners is inside.
    const cell = cellOfKey(12, cellOfPoint({ latitude: 10.05, longitude: 10.05 }, 12));
    const { south, north, west, east } = cellExtent(cell);
    const middle = (south + north) / 2;
    const spike = [
      { latitude: middle - 1e-6, longitude: west - 1 },
      { latitude: middle, longitude: (west + east) / 2 },
      { latitude: middle + 1e-6, longitude: west - 1 },
    ];
    expect(new PolygonCells(spike, boxOfPolygon(spike)).relation(cell)).toBe('crossing');
    expect(inPolygon({ latitude: middle, longitude: west + (east - west) / 8 }, spike)).toBe(true);
  });
});
