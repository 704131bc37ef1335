import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ListingState } from '../../src/db/schema/index.js';
import { compactGeoCells } from '../../src/db/dialect/geo-cell-compaction.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { errorBody } from '../helpers/expectations.js';
import { links, newListing, newTerm } from '../helpers/factories.js';

const API = '/realty-api/v1';

interface Cluster {
  latitude: number;
  longitude: number;
  count: number;
  property_id?: number;
}

/** A grid of listings around Miami, a few near the antimeridian, some in states a map never shows. */
describeEachDialect('GET /properties/search/map (%s)', (dialect) => {
  let t: TestApp;
  const miami: number[] = [];
  const houses: number[] = [];
  const fiji: number[] = [];
  let sold = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    const { db } = t.database;
    const house = await newTerm(t.services.taxonomies, 'property_type', { name: 'House' });
    for (let i = 0; i < 40; i++) {
      const isHouse = i % 3 === 0;
      const id = await newListing(db, {
        latitude: 25.6 + (i % 8) * 0.05,
        longitude: -80.4 + Math.floor(i / 8) * 0.06,
        ...(isHouse ? { terms: links('property_type', house) } : {}),
      });
      miami.push(id);
      if (isHouse) houses.push(id);
    }
    for (const longitude of [179.95, -179.95, 179.5]) fiji.push(await newListing(db, { latitude: -17.5, longitude }));
    for (const status of ['draft', 'pending', 'expired', 'on_hold'] as ListingState[])
      await newListing(db, { status, latitude: 25.7, longitude: -80.2 });
    sold = await newListing(db, { status: 'sold', latitude: 25.71, longitude: -80.21 });
    // Half of the counts come from compacted cells, the rest from the pending changes written since.
    await compactGeoCells(db);
    for (let i = 0; i < 4; i++) miami.push(await newListing(db, { latitude: 25.98, longitude: -80.44 + i * 0.05 }));
  });

  afterAll(() => t.close());

  const map = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/properties/search/map?${query}` });
    return res;
  };
  const clustersOf = async (query: string) => {
    const res = await map(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { clusters: Cluster[]; total: number };
  };
  const MIAMI_BOX = 'ne_lat=26.5&ne_lng=-79.5&sw_lat=25&sw_lng=-81';
  /** Just around the listings: at zoom 22 its 500 cells are finer than their spacing, so each is a cluster of one. */
  const CLOSE_BOX = 'ne_lat=26&ne_lng=-80&sw_lat=25.55&sw_lng=-80.45';

  it('covers every published listing inside the box exactly once, whatever the zoom', async () => {
    for (const zoom of [3, 8, 10, 12, 14, 18, 22]) {
      const { clusters, total } = await clustersOf(`${MIAMI_BOX}&zoom=${zoom}`);
      expect(total).toBe(miami.length);
      expect(clusters.reduce((sum, cluster) => sum + cluster.count, 0)).toBe(total);
      expect(clusters.length).toBeLessThanOrEqual(500);
      for (const cluster of clusters) {
        expect(cluster.latitude).toBeGreaterThanOrEqual(25);
        expect(cluster.latitude).toBeLessThanOrEqual(26.5);
        expect('property_id' in cluster).toBe(cluster.count === 1);
      }
    }
    // Close enough, every listing is a cluster of its own: the ids are the published listings in the box.
    const { clusters } = await clustersOf(`${CLOSE_BOX}&zoom=22`);
    expect(clusters.map((cluster) => cluster.property_id).sort((a, b) => a! - b!)).toEqual([...miami].sort((a, b) => a - b));
  });

  it('puts a cluster at the centroid of its listings', async () => {
    const { clusters } = await clustersOf('ne_lat=25.99&ne_lng=-80.2&sw_lat=25.97&sw_lng=-80.45&zoom=3');
    expect(clusters).toEqual([{ latitude: 25.98, longitude: -80.365, count: 4 }]);
  });

  it('clusters across the antimeridian, and adds sold listings with include_sold', async () => {
    const across = await clustersOf('ne_lat=-17&ne_lng=-179.9&sw_lat=-18&sw_lng=179.9&zoom=12');
    expect(across.total).toBe(2);
    expect(across.clusters.map((cluster) => cluster.property_id).sort()).toEqual([fiji[0], fiji[1]].sort());
    const withSold = await clustersOf(`${CLOSE_BOX}&zoom=22&include_sold=true`);
    expect(withSold.total).toBe(miami.length + 1);
    expect(withSold.clusters.some((cluster) => cluster.property_id === sold)).toBe(true);
  });

  it('applies any search filter', async () => {
    const { clusters, total } = await clustersOf(`${CLOSE_BOX}&zoom=22&type=house`);
    expect(total).toBe(houses.length);
    expect(clusters.map((cluster) => cluster.property_id).sort((a, b) => a! - b!)).toEqual([...houses].sort((a, b) => a - b));
    const coarse = await clustersOf(`${MIAMI_BOX}&zoom=5&type=house`);
    expect(coarse.total).toBe(houses.length);
  });

  it('refuses a missing corner or zoom, a zoom out of range and unknown parameters', async () => {
    for (const query of [
      'ne_lat=26&ne_lng=-80&sw_lat=25&zoom=10',
      `${MIAMI_BOX}`,
      `${MIAMI_BOX}&zoom=23`,
      `${MIAMI_BOX}&zoom=-1`,
      `${MIAMI_BOX}&zoom=10&page=2`,
      `${MIAMI_BOX}&zoom=10&sortby=a_price`,
      `${MIAMI_BOX}&zoom=10&clusters=5`,
    ]) {
      const res = await map(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject(errorBody('validation_failed'));
    }
  });
});
