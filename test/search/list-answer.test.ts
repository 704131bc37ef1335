import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DiskStorage } from '../../src/adapters/storage/disk-storage.js';
import type { UserRow } from '../../src/db/schema/index.js';
import { seedDemoListings } from '../../src/seed/demo-listings.js';
import { seedDemoTerms } from '../../src/seed/seed-demo.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newUser, tokenFor } from '../helpers/factories.js';

/**
 * Anonymous search answers are assembled from each summary's cached JSON (http/list-answer.ts); a
 * signed-in caller's are serialized whole by the route's serializer. For a caller without favorites the two
 * must be the same bytes: every field, `distance` (spliced in as the summary's last field), pagination and
 * facets, pages past the end, and non-ASCII text (the demo data has accents, `’` and `€`).
 */

const API = '/realty-api/v1';
const SEARCHES = [
  'city=miami&type=apartment&min_price=100000&max_price=900000&sortby=a_price',
  'keyword=balcony&facets=type,city,bedrooms,price',
  'latitude=25.7617&longitude=-80.1918&radius=30&sortby=distance&per_page=20',
  'latitude=25.7617&longitude=-80.1918&radius=20&radius_unit=mi&facets=price',
  'ne_lat=26.2&ne_lng=-79.5&sw_lat=25.3&sw_lng=-80.9&facets=type&page=2',
  'include_sold=true&sortby=d_price&per_page=50',
  'city=madrid&sortby=a_title',
  'keyword=zzzz-no-such-word&facets=type',
  'city=miami&page=500',
];

describeEachDialect('search answers from cached summary bytes (%s)', (dialect) => {
  let t: TestApp;
  let uploads: string;
  let buyer: UserRow;
  const get = (query: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `${API}/properties/search?${query}`, headers });

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL: 'https://realty.example' });
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-list-answer-'));
    await seedDemoTerms(t.services.taxonomies);
    await seedDemoListings(t.database.db, t.services.users, new DiskStorage(uploads, 'https://realty.example'), { count: 150, seed: 3 });
    buyer = await newUser(t.database.db, { role: 'buyer' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  it.each(SEARCHES)('%s: the same bytes as the whole answer serialized', async (query) => {
    const signedIn = { authorization: `Bearer ${await tokenFor(t.app, buyer)}` };
    // Twice anonymous: the first answer serializes the summaries, the second reuses their bytes.
    const [first, again, whole] = [await get(query), await get(query), await get(query, signedIn)];
    expect(whole.statusCode, whole.body).toBe(200);
    expect(first.body).toBe(whole.body);
    expect(again.body).toBe(whole.body);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers.etag).toBe(again.headers.etag);
    const { data } = first.json();
    expect(data.pagination.total_records).toBeGreaterThanOrEqual(data.properties.length);
  });

  it('gives the same ETag to the same bytes and another to any other, down to a distance or the page size', async () => {
    const [a, b] = (await get('sortby=d_date&per_page=2')).json().data.properties.map((summary: { id: number }) => summary.id);
    const queries = [
      ...SEARCHES,
      // The same listings in the same order at other distances (centres 11 m apart), and the same listings in
      // pages of another size.
      'latitude=25.7617&longitude=-80.1918&radius=20000&sortby=a_price&per_page=3',
      'latitude=25.7618&longitude=-80.1918&radius=20000&sortby=a_price&per_page=3',
      `ids=${a},${b}&per_page=10`,
      `ids=${a},${b}&per_page=20`,
    ];
    const etagOf = new Map<string, string>();
    for (const query of queries) {
      const answer = await get(query);
      expect(answer.statusCode, answer.body).toBe(200);
      const known = etagOf.get(answer.body);
      if (known) expect(answer.headers.etag).toBe(known);
      else etagOf.set(answer.body, String(answer.headers.etag));
    }
    expect(etagOf.size).toBe(queries.length);
    expect(new Set(etagOf.values()).size).toBe(queries.length);
  });

  it('answers 304 to an anonymous revalidation with the ETag, and 200 once the data changed', async () => {
    const query = SEARCHES[0]!;
    const first = await get(query);
    expect(first.json().data.properties.length).toBeGreaterThan(0);
    const etag = String(first.headers.etag);
    expect((await get(query, { 'if-none-match': etag })).statusCode).toBe(304);
    const [summary] = first.json().data.properties;
    await t.database.db.updateTable('listings').set({ title: 'Renamed for the ETag' }).where('id', '=', summary.id).execute();
    const changed = await get(query, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.properties[0].title).toBe('Renamed for the ETag');
  });
});
