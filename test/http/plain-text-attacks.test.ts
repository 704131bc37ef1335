import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { FEED_FORMATS } from '../../src/modules/exchange/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newListing, newUser, sessionFor } from '../helpers/factories.js';

const API = '/realty-api/v1';
/** What a browser could read as the start of a tag. */
const TAG_START = /<[A-Za-z/!?]/;

/** Payloads that beat a one-pass tag stripper: a tag rebuilt from two, an unclosed tag, one spelled with entities. */
const NESTED = 'Nested <<b>img src=x onerror=alert(document.domain)> title';
const UNCLOSED = '<img src=x onerror=alert(1)';
const SVG = '<svg onload=alert(1)';
const ENCODED = '&lt;script&gt;alert(1)&lt;/script&gt;Encoded';

/** Every string anywhere in `value`. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

describeEachDialect('plain-text fields keep no tag, through the API and an import (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: UserRow;
  let adminAuth: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL: 'https://realty.example' });
    db = t.database.db;
    admin = await newUser(db, { role: 'administrator' });
    adminAuth = await sessionFor(t, admin);
  });
  afterAll(() => t.close());

  it('in a listing: title, price prefix and postfix (and the formatted price), features, plans and the excerpt', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/properties`,
      headers: adminAuth,
      payload: {
        title: NESTED,
        price: 100000,
        currency: 'EUR',
        price_prefix: SVG,
        price_postfix: UNCLOSED,
        description: `<p>${ENCODED}</p>`,
        additional_features: [{ title: NESTED, value: ENCODED }],
        floor_plans: [{ title: UNCLOSED, description: NESTED }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const listing = res.json().data;
    expect(listing.title).toBe('Nested  title');
    expect(listing.price_prefix).toBe('svg onload=alert(1)');
    expect(listing.formatted_price).not.toMatch(TAG_START);
    expect(listing.excerpt).toBe('script>alert(1)/script>Encoded');
    const read = (await t.app.inject({ method: 'GET', url: `${API}/properties/${listing.id}`, headers: adminAuth })).json().data;
    const plain = { ...read, description: '' };
    for (const text of stringsOf(plain)) expect(text).not.toMatch(TAG_START);
  });

  it('in a profile: display name, first and last name', async () => {
    const user = await newUser(db);
    const auth = await sessionFor(t, user);
    const res = await t.app.inject({
      method: 'PUT',
      url: `${API}/users/profile`,
      headers: auth,
      payload: { display_name: NESTED, first_name: UNCLOSED, last_name: ENCODED },
    });
    expect(res.statusCode, res.body).toBe(200);
    const me = (await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: auth })).json().data;
    expect(me).toMatchObject({ display_name: 'Nested  title', first_name: 'img src=x onerror=alert(1)', last_name: 'alert(1)Encoded' });
  });

  it('in a review: title and text', async () => {
    const listingId = await newListing(db, { author_id: admin.id });
    const reviewer = await sessionFor(t, await newUser(db));
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/properties/${listingId}/reviews`,
      headers: reviewer,
      payload: { rating: 4, title: UNCLOSED, content: NESTED },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ title: 'img src=x onerror=alert(1)', content: 'Nested  title' });
  });

  it('in a CSV import: titles, prefixes and the place and feature terms it creates', async () => {
    const csv = ['key,title,price,price_prefix,features,city', `X1,"${NESTED}",1000,"${SVG}","${UNCLOSED}","${ENCODED}"`].join('\n');
    const summary = await t.services.feedImporter.run(FEED_FORMATS.csv.read(Readable.from([Buffer.from(csv)])), {
      source: 'attack-feed',
      actorId: admin.id,
      directoryIds: FEED_FORMATS.csv.directoryIds,
    });
    expect(summary.created, JSON.stringify(summary)).toBe(1);
    const row = await db
      .selectFrom('listings')
      .select(['id', 'title', 'price_prefix'])
      .where('title', 'like', 'Nested%')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title: 'Nested  title', price_prefix: 'svg onload=alert(1)' });
    const record = (await t.app.inject({ method: 'GET', url: `${API}/properties/${row.id}`, headers: adminAuth })).json().data;
    for (const text of stringsOf({ ...record, description: '' })) expect(text).not.toMatch(TAG_START);
    const terms = await db.selectFrom('terms').select('name').execute();
    for (const { name } of terms) expect(name).not.toMatch(TAG_START);
  });
});
