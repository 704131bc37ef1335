import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { seededRandom } from '../../src/lib/random.js';
import { distanceKm, EARTH_RADIUS_KM, inBox, inCircle, inPolygon, type RadiusCircle } from '../../src/modules/search/geo/geo.js';
import { dotWith, inBoxSql, inCircleSql, inPolygonSql } from '../../src/modules/search/geo/geo-filters.repository.js';
import { searchColumnsOf } from '../../src/lib/search-columns.js';
import type { GeoPoint, SearchBox } from '../../src/modules/search/query/search-types.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { newListing } from '../helpers/factories.js';
import { newWord, planOf } from './search-storage-fixtures.js';

/** The point `km` away from `from` towards `bearing` (degrees from north). */
function destination(from: GeoPoint, km: number, bearing: number): GeoPoint {
  const rad = Math.PI / 180;
  const angle = km / EARTH_RADIUS_KM;
  const lat1 = from.latitude * rad;
  const b = bearing * rad;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(b));
  const lng2 =
    from.longitude * rad + Math.atan2(Math.sin(b) * Math.sin(angle) * Math.cos(lat1), Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2));
  return { latitude: lat2 / rad, longitude: ((((lng2 / rad + 180) % 360) + 360) % 360) - 180 };
}

describeEachDialect('geo filters in SQL (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.dispose());

  /** Published listings at the points, titled `tag`; their ids in the points' order. */
  async function place(tag: string, points: readonly GeoPoint[]): Promise<number[]> {
    const ids: number[] = [];
    for (const point of points) ids.push(await newListing(db, { title: tag, ...point }));
    return ids;
  }

  const tagged = (tag: string) =>
    db.selectFrom('listings as l').select('l.id').where('l.status', '=', 'publish').where('l.title', '=', tag);

  /** The listings titled `tag` with their stored coordinates and unit vectors, as the in-memory matcher reads them. */
  async function stored(tag: string) {
    const rows = await db
      .selectFrom('listings')
      .select(['id', 'latitude', 'longitude', 'geo_x', 'geo_y', 'geo_z'])
      .where('title', '=', tag)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      latitude: row.latitude!,
      longitude: row.longitude!,
      geo: [row.geo_x!, row.geo_y!, row.geo_z!] as const,
    }));
  }

  const ids = async (query: { execute(): Promise<{ id: number }[]> }) => (await query.execute()).map((row) => row.id).sort((a, b) => a - b);

  it('agrees with inCircle on points a few micrometres from the edge', async () => {
    const tag = newWord();
    const circle: RadiusCircle = { latitude: 48.8566, longitude: 2.3522, radius: 5, unit: 'km' };
    const random = seededRandom(7);
    const edge = Array.from({ length: 80 }, () => destination(circle, 5 * (1 + (random() - 0.5) * 2e-9), random() * 360));
    const middle = { latitude: circle.latitude, longitude: circle.longitude };
    const [centre, inner, outer, ...edgeIds] = await place(tag, [
      middle,
      destination(circle, 4.99, 10),
      destination(circle, 5.01, 10),
      ...edge,
    ]);
    const [unlocated] = await place(tag, [{ latitude: null, longitude: null } as unknown as GeoPoint]);

    const matched = await ids(tagged(tag).where((eb) => inCircleSql(eb, circle)));
    const expected = (await stored(tag)).filter((row) => row.geo[0] !== null && inCircle(row, circle)).map((row) => row.id);
    expect(matched).toEqual(expected);
    expect(matched).toContain(centre);
    expect(matched).toContain(inner);
    expect(matched).not.toContain(outer);
    expect(matched).not.toContain(unlocated);
    // The edge points fall on both sides: the agreement above is not a trivial one.
    const edgeIn = edgeIds.filter((id) => matched.includes(id)).length;
    expect(edgeIn).toBeGreaterThan(0);
    expect(edgeIn).toBeLessThan(edgeIds.length);
  });

  it('reaches over a pole', async () => {
    const tag = newWord();
    const circle: RadiusCircle = { latitude: 89.9, longitude: 0, radius: 30, unit: 'km' };
    const points = [
      { latitude: 89.85, longitude: 180 }, // 0.25° over the pole: 27.8 km
      { latitude: 89.8, longitude: 180 }, // 0.3°: 33.4 km
      { latitude: 89.9, longitude: 90 },
      { latitude: 89.7, longitude: 0 }, // 22.2 km
      { latitude: 89.6, longitude: 0 }, // 33.4 km
      { latitude: 90, longitude: -123 },
    ];
    const [overPole, beyondPole, aside, south, farSouth, pole] = await place(tag, points);
    expect(points.map((p) => Math.round(distanceKm(circle, p) * 10) / 10)).toEqual([27.8, 33.4, 15.7, 22.2, 33.4, 11.1]);
    const matched = await ids(tagged(tag).where((eb) => inCircleSql(eb, circle)));
    expect(matched).toEqual([overPole!, aside!, south!, pole!].sort((a, b) => a - b));
    expect(matched).not.toContain(beyondPole);
    expect(matched).not.toContain(farSouth);
  });

  it('finds points in a box crossing the antimeridian, edges included', async () => {
    const tag = newWord();
    const box: SearchBox = { south: -20, north: -10, west: 170, east: -170 };
    const inside = [
      { latitude: -15, longitude: 175 },
      { latitude: -15, longitude: -175 },
      { latitude: -15, longitude: 180 },
      { latitude: -15, longitude: -180 },
      { latitude: -10, longitude: 170 },
      { latitude: -20, longitude: -170 },
    ];
    const outside = [
      { latitude: -15, longitude: 169.999999 },
      { latitude: -20.000001, longitude: 175 },
      { latitude: -15, longitude: -169.999999 },
      { latitude: -15, longitude: 0 },
    ];
    const insideIds = await place(tag, inside);
    await place(tag, outside);
    expect(await ids(tagged(tag).where((eb) => inBoxSql(eb, box)))).toEqual(insideIds);
    expect((await stored(tag)).filter((row) => inBox(row, box)).map((row) => row.id)).toEqual(insideIds);
  });

  it('follows a concave polygon', async () => {
    const tag = newWord();
    // A U opening to the north near Lisbon: the notch between the arms is outside.
    const u: GeoPoint[] = [
      [38.7, -9.2],
      [38.7, -9.1],
      [38.8, -9.1],
      [38.8, -9.12],
      [38.72, -9.12],
      [38.72, -9.18],
      [38.8, -9.18],
      [38.8, -9.2],
    ].map(([latitude, longitude]) => ({ latitude: latitude!, longitude: longitude! }));
    const inside = [
      { latitude: 38.71, longitude: -9.15 },
      { latitude: 38.76, longitude: -9.19 },
      { latitude: 38.76, longitude: -9.11 },
    ];
    const outside = [
      { latitude: 38.76, longitude: -9.15 },
      { latitude: 38.81, longitude: -9.15 },
      { latitude: 38.76, longitude: -9.21 },
    ];
    const random = seededRandom(11);
    // Points on and around the edges and vertices, where rounding decides.
    const near = [
      ...u,
      ...Array.from({ length: 40 }, () => ({ latitude: 38.7 + random() * 0.1, longitude: -9.2 + Math.round(random() * 5) * 0.02 })),
    ];
    const insideIds = await place(tag, inside);
    const outsideIds = await place(tag, outside);
    await place(tag, near);

    const matched = await ids(tagged(tag).where((eb) => inPolygonSql(eb, u)));
    expect(matched).toEqual((await stored(tag)).filter((row) => inPolygon(row, u)).map((row) => row.id));
    for (const id of insideIds) expect(matched).toContain(id);
    for (const id of outsideIds) expect(matched).not.toContain(id);
  });

  it('agrees with the in-memory tests on random shapes', async () => {
    const tag = newWord();
    const random = seededRandom(23);
    const around = (spread: number): GeoPoint => ({
      latitude: 40 + (random() - 0.5) * spread,
      longitude: -3.7 + (random() - 0.5) * spread,
    });
    await place(
      tag,
      Array.from({ length: 150 }, () => around(2)),
    );
    const rows = await stored(tag);
    for (let round = 0; round < 6; round++) {
      const centre = around(1);
      const circle: RadiusCircle = { ...centre, radius: 5 + random() * 60, unit: random() < 0.5 ? 'km' : 'mi' };
      const [a, b] = [around(2), around(2)];
      const box: SearchBox = {
        south: Math.min(a.latitude, b.latitude),
        north: Math.max(a.latitude, b.latitude),
        west: Math.min(a.longitude, b.longitude),
        east: Math.max(a.longitude, b.longitude),
      };
      const polygon = Array.from({ length: 3 + Math.floor(random() * 8) }, () => around(2));
      expect(await ids(tagged(tag).where((eb) => inCircleSql(eb, circle)))).toEqual(
        rows.filter((row) => inCircle(row, circle)).map((row) => row.id),
      );
      expect(await ids(tagged(tag).where((eb) => inBoxSql(eb, box)))).toEqual(rows.filter((row) => inBox(row, box)).map((row) => row.id));
      expect(await ids(tagged(tag).where((eb) => inPolygonSql(eb, polygon)))).toEqual(
        rows.filter((row) => inPolygon(row, polygon)).map((row) => row.id),
      );
    }
  });

  it('sorts by distance through dotWith', async () => {
    const tag = newWord();
    const centre = { latitude: 51.5, longitude: -0.12 };
    const [km3, km1, km2] = await place(tag, [destination(centre, 3, 90), destination(centre, 1, 200), destination(centre, 2, 0)]);
    const rows = await tagged(tag)
      .orderBy((eb) => dotWith(eb, centre), 'desc')
      .execute();
    expect(rows.map((row) => row.id)).toEqual([km1, km2, km3]);
  });

  it('reads the (status, geo_key) index for a small circle, given statistics', async () => {
    // Without statistics SQLite takes `status = ?` for selective and stops there; with them (ANALYZE,
    // PRAGMA optimize) it reads each key range from the index.
    const random = seededRandom(31);
    const at = new Date().toISOString();
    const rows = Array.from({ length: 3_000 }, (_, n) => {
      const point = { latitude: random() * 170 - 85, longitude: random() * 360 - 180 };
      return {
        slug: `spread-${n}`,
        title: 'Spread',
        status: 'publish' as const,
        currency: 'EUR',
        created_at: at,
        updated_at: at,
        ...point,
        ...searchColumnsOf({ title: 'Spread', ...point }),
      };
    });
    for (let start = 0; start < rows.length; start += 1_000)
      await db
        .insertInto('listings')
        .values(rows.slice(start, start + 1_000))
        .execute();
    await sql`analyze`.execute(db);

    const circle: RadiusCircle = { latitude: 48.8566, longitude: 2.3522, radius: 2, unit: 'km' };
    const query = db
      .selectFrom('listings as l')
      .select('l.id')
      .where('l.status', '=', 'publish')
      .where((eb) => inCircleSql(eb, circle));
    const plan = await planOf(db, query);
    if (dialect === 'sqlite') {
      expect(plan).toMatch(/^MULTI-INDEX OR/);
      expect(plan).toMatch(/SEARCH l USING (?:COVERING )?INDEX listings_geo_points_idx \(status=\? AND geo_key>\? AND geo_key<\?\)/);
    } else {
      expect(plan).toMatch(/BitmapOr/);
      expect(plan).toMatch(
        /Bitmap Index Scan on listings_geo_points_idx .*\n\s+Index Cond: \(\(status = 'publish'::text\) AND \(geo_key >= /,
      );
    }
  });
});
