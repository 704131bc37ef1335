import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB, ListingsTable } from '../../../db/schema/index.js';
import {
  boxOfCircle,
  boxOfPolygon,
  type KeyRange,
  keyRangesOfBoxes,
  minimumDot,
  polygonEdges,
  type RadiusCircle,
  radiusKmOf,
} from './geo.js';
import { unitVector } from '../../../lib/geo-grid.js';
import type { GeoPoint, SearchBox } from '../query/search-types.js';

/**
 * Geo filters of a query over `listings as l` (docs/api.md 4.4), the same SQL on both databases. Each is a
 * key-range pre-selection that the `(status, geo_key)` index reads, then the exact test, written with the
 * same operations in the same order as its twin in geo.ts (`inCircle`, `inBox`, `inPolygon`): both compute
 * the same doubles, so SQL and the in-memory matcher agree on every point, edges included. Listings
 * without coordinates have null columns and never match.
 *
 * Keys are bound through `cast(? as bigint)`: better-sqlite3 binds every number as a REAL, and the integer
 * column's index is then compared on an integer; PostgreSQL gets the column's own type. Coordinates are
 * bound as `double precision`, so that neither database ever does integer arithmetic on them.
 */

type ListingsEb = ExpressionBuilder<DB & { l: ListingsTable }, 'l'>;

const double = (value: number) => sql<number>`cast(${value} as double precision)`;

/** `l.geo_key` within one of the ranges. */
function keyRangesSql(eb: ListingsEb, ranges: readonly KeyRange[]): Expression<SqlBool> {
  const key = eb.ref('l.geo_key');
  return eb.or(ranges.map(([lo, hi]) => sql<SqlBool>`${key} between cast(${lo} as bigint) and cast(${hi} as bigint)`));
}

/** `l.geo_x * x + l.geo_y * y + l.geo_z * z`: the cosine of the angle to `centre`, larger nearer (`geo.ts` dot). */
export function dotWith(eb: ListingsEb, centre: GeoPoint): RawBuilder<number> {
  const [x, y, z] = unitVector(centre.latitude, centre.longitude);
  return sql<number>`(${eb.ref('l.geo_x')} * ${double(x)} + ${eb.ref('l.geo_y')} * ${double(y)} + ${eb.ref('l.geo_z')} * ${double(z)})`;
}

/** Listings within the circle's great-circle distance (`geo.ts` inCircle). */
export function inCircleSql(eb: ListingsEb, circle: RadiusCircle): Expression<SqlBool> {
  return eb.and([
    keyRangesSql(eb, keyRangesOfBoxes(boxOfCircle(circle))),
    sql<SqlBool>`${dotWith(eb, circle)} >= ${double(minimumDot(radiusKmOf(circle)))}`,
  ]);
}

/** The exact box test (`geo.ts` inBox), without the key pre-selection. */
function boxTestSql(eb: ListingsEb, box: SearchBox): Expression<SqlBool> {
  const latitude = eb.ref('l.latitude');
  const longitude = eb.ref('l.longitude');
  const east = eb(longitude, '<=', double(box.east));
  const west = eb(longitude, '>=', double(box.west));
  return eb.and([
    eb(latitude, '>=', double(box.south)),
    eb(latitude, '<=', double(box.north)),
    box.west <= box.east ? eb.and([west, east]) : eb.or([west, east]),
  ]);
}

/** Listings inside the box, edges included; a box crossing the antimeridian works (`geo.ts` inBox). */
export function inBoxSql(eb: ListingsEb, box: SearchBox): Expression<SqlBool> {
  return eb.and([keyRangesSql(eb, keyRangesOfBoxes([box])), boxTestSql(eb, box)]);
}

/**
 * Listings inside the polygon by even-odd ray casting on plate carrée coordinates (`geo.ts` inPolygon and
 * crossesEdge): inside the polygon's bounding box, and crossing an odd number of edges to the east.
 */
export function inPolygonSql(eb: ListingsEb, polygon: readonly GeoPoint[]): Expression<SqlBool> {
  const box = boxOfPolygon(polygon);
  const latitude = eb.ref('l.latitude');
  const longitude = eb.ref('l.longitude');
  const crossings = polygonEdges(polygon).map(
    (edge) =>
      sql<number>`case when (${double(edge.lat)} > ${latitude}) <> (${double(edge.otherLat)} > ${latitude})
        and ${longitude} < ${double(edge.dLng)} * (${latitude} - ${double(edge.lat)}) / ${double(edge.dLat)} + ${double(edge.lng)}
        then 1 else 0 end`,
  );
  // Only horizontal edges: a polygon without an inside.
  if (crossings.length === 0) return sql<SqlBool>`1 = 0`;
  return eb.and([keyRangesSql(eb, keyRangesOfBoxes([box])), boxTestSql(eb, box), sql<SqlBool>`(${sql.join(crossings, sql` + `)}) % 2 = 1`]);
}
