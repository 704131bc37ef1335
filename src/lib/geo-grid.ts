/**
 * The geo columns every listing stores beside its coordinates, defined once for the search module, the
 * database triggers and the migrations:
 * - `geo_x/geo_y/geo_z`, the point as a unit vector: a great-circle distance test becomes one dot product
 *   compared with a constant, the same arithmetic in SQL and in JavaScript;
 * - `geo_key`, the Z-order (Morton) number of the cell of a 2^20 × 2^20 latitude/longitude grid (cells of
 *   about 19 m × 38 m at the equator) holding the point: a region becomes a few ranges of keys that an
 *   index on `(status, geo_key)` reads directly. A cell of level L is one of 2^L × 2^L rectangles; its key is
 *   the interleave of its row and column, which is also the `geo_key` of any point in it shifted right by
 *   2·(20 − L) bits.
 */

export type UnitVector = readonly [x: number, y: number, z: number];

const RADIANS_PER_DEGREE = Math.PI / 180;

/** Bits of a row or column of the finest grid, `geo_key`'s. */
export const GRID_BITS = 20;
export const GRID_CELLS = 2 ** GRID_BITS;

/**
 * The levels `geo_cells` aggregates: even, so that each has 16 children at the next. The finest, 18 (cells of
 * about 76 × 139 m in Miami), keeps the band of points tested one by one thin in dense cities: with 16 as the
 * finest, a box whose edges cut through a city of 1,000,000 demo listings took 8 ms instead of 3.5 ms.
 * NOTE: migration 0008 built the triggers and cells for these levels; changing them takes a migration that
 * recreates the triggers and refills the cells.
 */
export const CELL_LEVELS = [4, 6, 8, 10, 12, 14, 16, 18] as const;
export const FINEST_CELL_LEVEL = 18;

export function unitVector(latitude: number, longitude: number): UnitVector {
  const lat = latitude * RADIANS_PER_DEGREE;
  const lng = longitude * RADIANS_PER_DEGREE;
  const cosLat = Math.cos(lat);
  return [cosLat * Math.cos(lng), cosLat * Math.sin(lng), Math.sin(lat)];
}

/** The grid row or column of a coordinate; monotonic, so a box's cells are those between its corners'. */
function gridLineOf(value: number, min: number, span: number): number {
  return Math.min(GRID_CELLS - 1, Math.max(0, Math.floor(((value - min) / span) * GRID_CELLS)));
}

/** The finest-grid row of a latitude, counted from the south pole. */
export const rowOfLatitude = (latitude: number) => gridLineOf(latitude, -90, 180);
/** The finest-grid column of a longitude, counted from the antimeridian going east. */
export const columnOfLongitude = (longitude: number) => gridLineOf(longitude, -180, 360);

// Z-order keys. Keys reach 40 bits and bitwise operators stop at 32: each half of 20 bits is done apart.

/** Spreads the 10 low bits of `n` to the even bit positions (bit i to bit 2i). */
function spread10(n: number): number {
  let x = n & 0x3ff;
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  return (x | (x << 1)) & 0x55555555;
}

/** Gathers the even bits of a 20-bit `n` into 10 bits (the inverse of `spread10`). */
export function gather10(n: number): number {
  let x = n & 0x55555555;
  x = (x | (x >>> 1)) & 0x33333333;
  x = (x | (x >>> 2)) & 0x0f0f0f0f;
  x = (x | (x >>> 4)) & 0x00ff00ff;
  return (x | (x >>> 8)) & 0x3ff;
}

/** The key of a grid cell at any level: row bits odd, column bits even, a non-negative integer below 2^40. */
export function interleave(row: number, column: number): number {
  const high = (spread10(row >>> 10) << 1) | spread10(column >>> 10);
  const low = (spread10(row) << 1) | spread10(column);
  return high * 2 ** 20 + low;
}

/** The row and column a key interleaves (the inverse of `interleave`). */
export function deinterleave(key: number): { row: number; column: number } {
  const high = Math.floor(key / 2 ** 20);
  const low = key - high * 2 ** 20;
  return {
    row: (gather10(high >>> 1) << 10) | gather10(low >>> 1),
    column: (gather10(high) << 10) | gather10(low),
  };
}

/** The Z-order key of the point's finest grid cell: the `geo_key` column. */
export function geoKey(latitude: number, longitude: number): number {
  return interleave(rowOfLatitude(latitude), columnOfLongitude(longitude));
}

/** The key of the level-`level` cell holding a point of key `geoKey` (`geo_key >> 2·(20 − level)` in SQL). */
export function cellOfGeoKey(geoKey: number, level: number): number {
  return Math.floor(geoKey / 4 ** (GRID_BITS - level));
}
