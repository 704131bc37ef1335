import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactGeoCells } from '../../src/db/dialect/geo-cell-compaction.js';
import { fillGeoCells, microdegreesOf } from '../../src/db/dialect/ddl/geo-cell-triggers.js';
import type { DB, ListingState } from '../../src/db/schema/index.js';
import { between, type Random, seededRandom } from '../../src/lib/random.js';
import { inBox, type RadiusCircle } from '../../src/modules/search/geo/geo.js';
import { CELL_LEVELS, cellOfGeoKey } from '../../src/lib/geo-grid.js';
import {
  clusterLevel,
  clustersInBox,
  clustersOfMatches,
  countInCircle,
  type MapClusters,
  MAX_CLUSTERS,
} from '../../src/modules/search/geo/geo-cells.repository.js';
import { inBoxSql, inCircleSql } from '../../src/modules/search/geo/geo-filters.repository.js';
import { refreshSearchColumns } from '../../src/modules/properties/properties.repository.js';
import { searchColumnsOf } from '../../src/lib/search-columns.js';
import type { SearchBox } from '../../src/modules/search/query/search-types.js';
import { createTestDatabase, DIALECTS, type TestDatabase, describeEachDialect } from '../helpers/database.js';

/**
 * The geo cell aggregates (migration 0008) answer exactly what the search filters would: circle counts equal
 * the SQL count of `inCircleSql`, map clusters hold every listing inside the box once (checked cell by cell
 * against a grouping done here), on both databases alike, whether the changes are still deltas or compacted.
 */

const PUBLISHED: ListingState[] = ['publish'];
const PUBLIC: ListingState[] = ['publish', 'sold'];
const STATES: ListingState[] = ['publish', 'publish', 'publish', 'publish', 'sold', 'pending', 'draft'];
const MIAMI = { latitude: 25.7617, longitude: -80.1918 };
/** A level-16 row or column line: a point on it may be quantized into either cell. */
const gridLatitude = (line: number) => -90 + (line * 180) / 2 ** 16;
const gridLongitude = (line: number) => -180 + (line * 360) / 2 ** 16;

interface Point {
  latitude: number;
  longitude: number;
}

/** A point drawn uniformly from a disc of `km` around `centre`. */
function around(random: Random, centre: Point, km: number): Point {
  const distance = km * Math.sqrt(random());
  const bearing = 2 * Math.PI * random();
  const latitude = Math.max(-90, Math.min(90, centre.latitude + (distance * Math.cos(bearing)) / 110.574));
  let longitude =
    centre.longitude + (distance * Math.sin(bearing)) / (111.32 * Math.max(0.01, Math.cos((centre.latitude * Math.PI) / 180)));
  if (longitude > 180) longitude -= 360;
  if (longitude < -180) longitude += 360;
  return { latitude, longitude };
}

/** Where the listings lie: dense downtown Miami (cells deep enough to split), its region, the antimeridian, a pole, the world, grid lines. */
function listingPoints(random: Random, count: number): (Point | null)[] {
  const points: (Point | null)[] = [];
  for (let i = 0; i < count; i++) {
    const kind = random();
    if (kind < 0.45) points.push(around(random, MIAMI, 4));
    else if (kind < 0.6) points.push(around(random, MIAMI, 40));
    else if (kind < 0.68) points.push(around(random, { latitude: -17.9, longitude: 179.9 }, 60));
    else if (kind < 0.72) points.push(around(random, { latitude: 89.7, longitude: 20 }, 40));
    else if (kind < 0.8) points.push({ latitude: between(random, -90, 90), longitude: between(random, -180, 180) });
    else if (kind < 0.95) {
      // On level-16 grid lines in downtown Miami, one or both coordinates.
      const p = around(random, MIAMI, 3);
      const onRow = random() < 0.7;
      const onColumn = !onRow || random() < 0.5;
      points.push({
        latitude: onRow ? gridLatitude(Math.round(((p.latitude + 90) / 180) * 2 ** 16)) : p.latitude,
        longitude: onColumn ? gridLongitude(Math.round(((p.longitude + 180) / 360) * 2 ** 16)) : p.longitude,
      });
    } else if (kind < 0.97)
      points.push(
        [
          { latitude: 90, longitude: 180 },
          { latitude: -90, longitude: -180 },
          { latitude: 0, longitude: 180 },
          { latitude: 0, longitude: -180 },
        ][Math.floor(random() * 4)]!,
      );
    else points.push(null);
  }
  return points;
}

/** The coordinates and geo columns of a listing at `point`, for one UPDATE. */
function locatedAt(point: Point) {
  const { geo_key, geo_x, geo_y, geo_z } = searchColumnsOf({ title: '', ...point });
  return { ...point, geo_key, geo_x, geo_y, geo_z };
}

async function insertListings(db: Kysely<DB>, random: Random, points: readonly (Point | null)[]): Promise<void> {
  const now = new Date().toISOString();
  const rows = points.map((point, i) => {
    const status = STATES[Math.floor(random() * STATES.length)]!;
    const listing = {
      slug: `geo-${now}-${i}-${Math.floor(random() * 1e9)}`,
      title: 'A listing',
      status,
      currency: 'USD',
      price: Math.floor(random() * 1000),
      latitude: point?.latitude ?? null,
      longitude: point?.longitude ?? null,
      created_at: now,
      updated_at: now,
      published_at: status === 'publish' ? now : null,
    };
    return { ...listing, ...searchColumnsOf(listing) };
  });
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('listings')
      .values(rows.slice(i, i + 500))
      .execute();
}

interface LocatedListing {
  id: number;
  status: ListingState;
  price: number;
  latitude: number;
  longitude: number;
  geoKey: number;
}

async function locatedListings(db: Kysely<DB>): Promise<LocatedListing[]> {
  const rows = await db
    .selectFrom('listings')
    .select(['id', 'status', 'price', 'latitude', 'longitude', 'geo_key'])
    .where('geo_key', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    price: Number(row.price),
    latitude: row.latitude!,
    longitude: row.longitude!,
    geoKey: Number(row.geo_key),
  }));
}

/** The clusters of docs/api.md 4.5 worked out here, point by point, from the listings and the rules of the search filter. */
function expectedClusters(
  listings: readonly LocatedListing[],
  states: readonly ListingState[],
  box: SearchBox,
  zoom: number,
  extra = (_: LocatedListing) => true,
): MapClusters {
  const level = clusterLevel(box, zoom);
  const cells = new Map<number, { count: number; lat: number; lng: number; ids: number[] }>();
  for (const listing of listings) {
    if (!states.includes(listing.status) || !inBox(listing, box) || !extra(listing)) continue;
    const key = cellOfGeoKey(listing.geoKey, level);
    const cell = cells.get(key) ?? { count: 0, lat: 0, lng: 0, ids: [] };
    cell.count++;
    cell.lat += microdegreesOf(listing.latitude);
    cell.lng += microdegreesOf(listing.longitude);
    cell.ids.push(listing.id);
    cells.set(key, cell);
  }
  const clusters = [...cells.keys()]
    .sort((a, b) => a - b)
    .map((key) => {
      const cell = cells.get(key)!;
      return {
        latitude: Math.round(cell.lat / cell.count) / 1e6,
        longitude: Math.round(cell.lng / cell.count) / 1e6,
        count: cell.count,
        ...(cell.count === 1 ? { property_id: cell.ids[0] } : {}),
      };
    });
  return { clusters, total: clusters.reduce((sum, c) => sum + c.count, 0) };
}

async function exactCircleCount(db: Kysely<DB>, states: ListingState[], circle: RadiusCircle): Promise<number> {
  const row = await db
    .selectFrom('listings as l')
    .where((eb) => eb.and([eb('l.status', 'in', states), inCircleSql(eb, circle)]))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function circles(random: Random): RadiusCircle[] {
  const list: RadiusCircle[] = [
    { ...MIAMI, radius: 10, unit: 'km' },
    { ...MIAMI, radius: 2, unit: 'km' },
    { ...MIAMI, radius: 3, unit: 'mi' },
    { ...MIAMI, radius: 0.05, unit: 'km' },
    { latitude: -17.9, longitude: 179.95, radius: 40, unit: 'km' }, // across the antimeridian
    { latitude: 89.9, longitude: 0, radius: 60, unit: 'km' }, // over the pole
    { latitude: 0, longitude: 0, radius: 25_000, unit: 'km' }, // the whole sphere
    { latitude: 20, longitude: 100, radius: 19_000, unit: 'km' }, // all but a cap
    { latitude: 30, longitude: -90, radius: 3000, unit: 'km' }, // huge
    { latitude: 0, longitude: 180, radius: 0, unit: 'km' }, // only the points exactly there
  ];
  for (let i = 0; i < 14; i++) list.push({ ...around(random, MIAMI, 6), radius: between(random, 0.2, 12), unit: 'km' });
  return list;
}

function boxes(random: Random): { box: SearchBox; zoom: number }[] {
  const list: { box: SearchBox; zoom: number }[] = [
    { box: { south: 25.3, north: 26.2, west: -80.9, east: -79.5 }, zoom: 10 }, // Miami at zoom 10
    { box: { south: 25.74, north: 25.79, west: -80.23, east: -80.16 }, zoom: 14 },
    { box: { south: 25.755, north: 25.768, west: -80.2, east: -80.18 }, zoom: 16 }, // points directly
    { box: { south: -19, north: -17, west: 179, east: -179 }, zoom: 8 }, // across the antimeridian
    { box: { south: -90, north: 90, west: -180, east: 180 }, zoom: 0 }, // the world
    { box: { south: -90, north: 90, west: -180, east: 180 }, zoom: 3 },
    { box: { south: -60, north: 70, west: 10, east: 5 }, zoom: 4 }, // nearly all longitudes, crossing
    { box: { south: 89, north: 90, west: -180, east: 180 }, zoom: 7 }, // the pole
    { box: { south: 25.7617, north: 25.7618, west: -80.1919, east: -80.1917 }, zoom: 12 }, // tiny
    { box: { south: gridLatitude(38453), north: gridLatitude(38470), west: gridLongitude(18173), east: gridLongitude(18190) }, zoom: 13 }, // on grid lines
  ];
  for (let i = 0; i < 12; i++) {
    const a = around(random, MIAMI, 8);
    const b = around(random, MIAMI, 8);
    list.push({
      box: {
        south: Math.min(a.latitude, b.latitude),
        north: Math.max(a.latitude, b.latitude),
        west: Math.min(a.longitude, b.longitude),
        east: Math.max(a.longitude, b.longitude),
      },
      zoom: 9 + Math.floor(random() * 8),
    });
  }
  return list;
}

/** Every answer of a phase, for the comparison of the two databases. */
const answers: Record<string, Record<string, unknown>> = {};

describeEachDialect('geo cell aggregates on %s', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  const random = seededRandom(8);
  const circleList = circles(seededRandom(81));
  const boxList = boxes(seededRandom(82));
  const record = (phase: string, value: unknown) => ((answers[dialect] ??= {})[phase] = value);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    await insertListings(db, random, listingPoints(random, 2500));
  }, 60_000);

  afterAll(() => database.dispose());

  /** Checks every circle and box against the exact answers, and records them. */
  async function checkAll(phase: string): Promise<void> {
    const listings = await locatedListings(db);
    const counts: number[] = [];
    for (const circle of circleList) {
      for (const states of [PUBLISHED, PUBLIC]) {
        const count = await countInCircle(db, states, circle);
        expect({ circle, states, count }).toEqual({ circle, states, count: await exactCircleCount(db, states, circle) });
        counts.push(count);
      }
    }
    const maps: MapClusters[] = [];
    for (const { box, zoom } of boxList) {
      const clusters = await clustersInBox(db, PUBLISHED, box, zoom);
      expect({ box, zoom, clusters }).toEqual({ box, zoom, clusters: expectedClusters(listings, PUBLISHED, box, zoom) });
      expect(clusters.clusters.length).toBeLessThanOrEqual(MAX_CLUSTERS);
      maps.push(clusters);
    }
    // The sums are the exact SQL count of the box filter.
    const world = await db
      .selectFrom('listings as l')
      .where((eb) => eb.and([eb('l.status', '=', 'publish'), inBoxSql(eb, boxList[0]!.box)]))
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(maps[0]!.total).toBe(Number(world.n));
    expect(maps[0]!.total).toBeGreaterThan(500);
    expect(Math.max(...counts)).toBeGreaterThan(1500);
    record(phase, { counts, maps });
  }

  /** `geo_cells` equals what a grouping of the listings gives, and keeps no empty cell. */
  async function expectCellsMatchListings(): Promise<void> {
    const expected = new Map<string, number[]>();
    for (const listing of await locatedListings(db)) {
      for (const level of CELL_LEVELS) {
        const key = `${level}/${listing.status}/${cellOfGeoKey(listing.geoKey, level)}`;
        const [count, lat, lng, ids] = expected.get(key) ?? [0, 0, 0, 0];
        expected.set(key, [
          count! + 1,
          lat! + microdegreesOf(listing.latitude),
          lng! + microdegreesOf(listing.longitude),
          ids! + listing.id,
        ]);
      }
    }
    const { rows } = await sql<{
      level: number;
      status: string;
      cell: string | number;
      listings: number;
      lat_e6_sum: string | number;
      lng_e6_sum: string | number;
      id_sum: string | number;
    }>`
      select level, status, cell, listings, lat_e6_sum, lng_e6_sum, id_sum from geo_cells`.execute(db);
    const actual = new Map(
      rows.map((row) => [
        `${row.level}/${row.status}/${Number(row.cell)}`,
        [row.listings, row.lat_e6_sum, row.lng_e6_sum, row.id_sum].map(Number),
      ]),
    );
    expect(actual.size).toBe(expected.size);
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
  }

  const pendingChanges = async () =>
    Number((await sql<{ n: number | string }>`select count(*) as n from geo_cell_changes`.execute(db)).rows[0]!.n);

  it('answers exactly from the uncompacted changes alone', async () => {
    expect(await pendingChanges()).toBeGreaterThan(10_000);
    await checkAll('deltas');
  }, 120_000);

  it('answers the same once compacted, and the cells are those of the listings', async () => {
    expect(await compactGeoCells(db, 3_000)).toBeGreaterThan(10_000);
    expect(await pendingChanges()).toBe(0);
    await expectCellsMatchListings();
    await checkAll('compacted');
  }, 120_000);

  it('answers exactly with changes on top of compacted cells: inserted, moved, deleted, state changed, coordinates removed', async () => {
    const ids = (await db.selectFrom('listings').select('id').orderBy('id').execute()).map((row) => row.id);
    await insertListings(db, random, listingPoints(random, 300));
    // Moved in two statements, as a partial update does: coordinates first, then the search columns.
    for (const id of ids.slice(0, 60)) {
      const point = around(random, MIAMI, 5);
      await db.updateTable('listings').set(point).where('id', '=', id).execute();
      await refreshSearchColumns(db, id);
    }
    // Moved in one statement.
    for (const id of ids.slice(60, 120)) {
      const point = around(random, MIAMI, 12);
      await db.updateTable('listings').set(locatedAt(point)).where('id', '=', id).execute();
    }
    await db.deleteFrom('listings').where('id', 'in', ids.slice(120, 180)).execute();
    await db
      .updateTable('listings')
      .set({ status: 'sold' })
      .where('id', 'in', ids.slice(180, 260))
      .where('status', '=', 'publish')
      .execute();
    await db
      .updateTable('listings')
      .set({ status: 'publish' })
      .where('id', 'in', ids.slice(260, 400))
      .where('status', '<>', 'publish')
      .execute();
    for (const id of ids.slice(400, 420)) {
      await db.updateTable('listings').set({ latitude: null, longitude: null }).where('id', '=', id).execute();
      await refreshSearchColumns(db, id);
    }
    // A change that does not move the listing adds nothing.
    const before = await pendingChanges();
    await db.updateTable('listings').set({ price: 1 }).where('id', 'in', ids.slice(500, 520)).execute();
    expect(await pendingChanges()).toBe(before);
    expect(before).toBeGreaterThan(1000);

    await checkAll('changed');
    await compactGeoCells(db);
    expect(await pendingChanges()).toBe(0);
    await expectCellsMatchListings();
    await checkAll('changed and compacted');
  }, 180_000);

  it('fills the cells of existing listings as the triggers keep them', async () => {
    await sql`update geo_cells set listings = listings + 1`.execute(db);
    await insertListings(db, random, listingPoints(random, 20));
    await fillGeoCells(db);
    expect(await pendingChanges()).toBe(0);
    await expectCellsMatchListings();
  });

  it('clusters the matches of other filters exactly', async () => {
    const listings = await locatedListings(db);
    for (const { box, zoom } of boxList.slice(0, 8)) {
      const clusters = await clustersOfMatches(
        db,
        (eb) => [eb('l.status', 'in', PUBLIC), eb('l.price', '<', 300), inBoxSql(eb, box)],
        box,
        zoom,
      );
      expect(clusters).toEqual(expectedClusters(listings, PUBLIC, box, zoom, (listing) => listing.price < 300));
    }
  });

  it('names the listing of a cluster of one and counts nothing in states that have none', async () => {
    const box = { south: 10, north: 10.5, west: 10, east: 10.5 };
    const [id] = (await db.selectFrom('listings').select('id').where('status', '=', 'publish').limit(1).execute()).map((r) => r.id);
    await db
      .updateTable('listings')
      .set(locatedAt({ latitude: 10.25, longitude: 10.25 }))
      .where('id', '=', id!)
      .execute();
    expect(await clustersInBox(db, PUBLISHED, box, 6)).toEqual({
      clusters: [{ latitude: 10.25, longitude: 10.25, count: 1, property_id: id }],
      total: 1,
    });
    expect(await clustersInBox(db, ['on_hold'], box, 6)).toEqual({ clusters: [], total: 0 });
    expect(await countInCircle(db, [], { latitude: 10.25, longitude: 10.25, radius: 1, unit: 'km' })).toBe(0);
  });

  it.runIf(dialect === 'postgres')(
    'lets transactions change listings of the same cells in opposite orders without waiting or deadlock',
    async () => {
      const now = new Date().toISOString();
      const at = (point: Point, slug: string) => ({
        slug,
        title: 'x',
        status: 'publish' as const,
        currency: 'USD',
        created_at: now,
        updated_at: now,
        ...point,
        ...searchColumnsOf({ title: 'x', ...point }),
      });
      const x = { latitude: 40.001, longitude: -3.001 };
      const y = { latitude: 41.001, longitude: -4.001 };
      const [a, b, c, d] = await Promise.all(
        [at(x, 'dl-a'), at(y, 'dl-b'), at(y, 'dl-c'), at(x, 'dl-d')].map(
          async (row) => (await db.insertInto('listings').values(row).returning('id').executeTakeFirstOrThrow()).id,
        ),
      );
      const step = () => {
        let done!: () => void;
        return { reached: new Promise<void>((resolve) => (done = resolve)), done: () => done() };
      };
      const within = (promise: Promise<void>, what: string) =>
        Promise.race([
          promise,
          new Promise<void>((_, reject) => setTimeout(() => reject(new Error(`${what}: still waiting after 3 s`)), 3_000)),
        ]);
      const [first, second, third] = [step(), step(), step()];
      const sell = (trx: Kysely<DB>, id: number) => trx.updateTable('listings').set({ status: 'sold' }).where('id', '=', id).execute();
      await Promise.all([
        db.transaction().execute(async (trx) => {
          await sell(trx, a!); // cell X
          first.done();
          await within(second.reached, 'first transaction');
          await sell(trx, b!); // cell Y, which the other has changed
          third.done();
        }),
        db.transaction().execute(async (trx) => {
          await within(first.reached, 'second transaction');
          await sell(trx, c!); // cell Y
          second.done();
          await within(third.reached, 'second transaction');
          await sell(trx, d!); // cell X, which the other has changed
        }),
      ]);
      expect(await countInCircle(db, ['sold'], { ...x, radius: 1, unit: 'km' })).toBe(2);
      expect(await countInCircle(db, ['sold'], { ...y, radius: 1, unit: 'km' })).toBe(2);
    },
  );

  it.runIf(dialect === 'postgres')('moves every change once when two compactions run at once', async () => {
    await insertListings(db, random, listingPoints(random, 400));
    const pending = await pendingChanges();
    const [one, two] = await Promise.all([compactGeoCells(db, 500), compactGeoCells(db, 500)]);
    expect(one + two).toBe(pending);
    expect(await pendingChanges()).toBe(0);
    await expectCellsMatchListings();
  });
});

describe.runIf(DIALECTS.length > 1)('both databases', () => {
  it('give the same answers in every phase', () => {
    expect(answers.postgres).toEqual(answers.sqlite);
  });
});
