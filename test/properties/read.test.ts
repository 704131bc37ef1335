import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStorage } from '../../src/adapters/storage/index.js';
import { CacheStamps, LocalWrites } from '../../src/db/cache-versions.js';
import { createDatabase } from '../../src/db/database.js';
import type { DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import { ListingRecords } from '../../src/modules/properties/listing-records.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import {
  addFavorite,
  bearer,
  links,
  newAgencyWithAgent,
  newListing,
  newMedia,
  newTerm,
  newUser,
  signIn,
  tokenFor,
} from '../helpers/factories.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

const SUMMARY_KEYS = [
  'id',
  'title',
  'slug',
  'url',
  'excerpt',
  'status',
  'reference',
  'price',
  'second_price',
  'currency',
  'price_prefix',
  'price_postfix',
  'formatted_price',
  'bedrooms',
  'bathrooms',
  'rooms',
  'garage',
  'garage_size',
  'size',
  'size_unit',
  'land_size',
  'land_size_unit',
  'year_built',
  'featured',
  'address',
  'property_type',
  'property_status',
  'property_label',
  'features',
  'featured_image',
  'gallery',
  'video_url',
  'virtual_tour',
  'agent_display',
  'agents',
  'agency',
  'author',
  'views',
  'rating',
  'reviews_count',
  'is_favorite',
  'created_at',
  'updated_at',
  'published_at',
  'expires_at',
].sort();
const HIDDEN_STATES: ListingState[] = ['draft', 'pending', 'on_hold', 'disapproved', 'expired'];
const ids = (items: { id: number }[]) => items.map((item) => item.id);

describeEachDialect('reading listings (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;
  let sellerAuth: Auth;
  let otherAuth: Auth;
  let buyer: UserRow;
  let buyerAuth: Auth;
  let adminAuth: Auth;
  let managerAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    seller = await newUser(db, { role: 'seller' });
    buyer = await newUser(db, { role: 'buyer' });
    [sellerAuth, otherAuth, buyerAuth, adminAuth, managerAuth] = await Promise.all([
      signIn(t.app, seller),
      signIn(t.app, await newUser(db, { role: 'seller' })),
      signIn(t.app, buyer),
      signIn(t.app, await newUser(db, { role: 'administrator' })),
      signIn(t.app, await newUser(db, { role: 'manager' })),
    ]);
  });
  afterAll(() => t.close());

  const get = (url: string, auth?: Auth, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `${API}${url}`, headers: { ...auth, ...headers } });
  const record = async (id: number, auth?: Auth) => {
    const res = await get(`/properties/${id}`, auth);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  describe('GET /properties/{id}', () => {
    it('shows published and sold listings to everyone', async () => {
      for (const status of ['publish', 'sold'] as const) {
        const id = await newListing(db, { author_id: seller.id, status, title: `A ${status} listing` });
        for (const auth of [undefined, buyerAuth, otherAuth]) {
          const data = await record(id, auth);
          expect(data).toMatchObject({ id, status, title: `A ${status} listing`, is_favorite: false });
        }
      }
    });

    it('shows other states only to the owner, the agency of the authoring agent and moderators; 404 to others', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      const agencyAuth = bearer(await tokenFor(t.app, agencyUser));
      const agentAuth = bearer(await tokenFor(t.app, agentUser));
      for (const status of HIDDEN_STATES) {
        const own = await newListing(db, { author_id: seller.id, status });
        const agents = await newListing(db, { author_id: agentUser.id, status });
        for (const auth of [sellerAuth, adminAuth, managerAuth]) expect((await record(own, auth)).status).toBe(status);
        for (const auth of [agentAuth, agencyAuth, adminAuth]) expect((await record(agents, auth)).status).toBe(status);
        for (const auth of [undefined, buyerAuth, otherAuth, agencyAuth]) {
          const res = await get(`/properties/${own}`, auth);
          expect(res.statusCode, `${status}`).toBe(404);
          expect(res.json()).toMatchObject({ success: false, code: 'not_found', message: expect.any(String) });
        }
      }
      expect((await get('/properties/999999')).statusCode).toBe(404);
      expect((await get('/properties/abc')).statusCode).toBe(400);
    });

    it('answers anonymous callers with a shared, revalidated representation (ETag, 304) and signed-in ones privately', async () => {
      const id = await newListing(db, { author_id: seller.id });
      const first = await get(`/properties/${id}`);
      expect(first.headers['cache-control']).toBe('public, no-cache');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/"/);
      const again = await get(`/properties/${id}`, undefined, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const signedIn = await get(`/properties/${id}`, buyerAuth);
      expect(signedIn.headers['cache-control']).toBe('private, no-cache');
      expect(signedIn.headers.etag).toBeUndefined();
    });

    it('marks the caller’s favorites', async () => {
      const id = await newListing(db, { author_id: seller.id });
      await addFavorite(db, buyer.id, id);
      expect((await record(id, buyerAuth)).is_favorite).toBe(true);
      expect((await record(id)).is_favorite).toBe(false);
      expect((await record(id, otherAuth)).is_favorite).toBe(false);
      // The shared anonymous answer was not changed by the signed-in one.
      expect((await record(id)).is_favorite).toBe(false);
    });

    it('counts one view per client and hour', async () => {
      const id = await newListing(db, { author_id: seller.id });
      await get(`/properties/${id}`);
      await get(`/properties/${id}`); // the same address within the hour
      await get(`/properties/${id}`, buyerAuth);
      await get(`/properties/${id}`, buyerAuth);
      await t.services.views.flush();
      expect((await record(id)).views).toBe(2);
      const hidden = await newListing(db, { author_id: seller.id, status: 'pending' });
      await get(`/properties/${hidden}`); // a 404 is no view
      await t.services.views.flush();
      expect((await record(hidden, sellerAuth)).views).toBe(0);
    });
  });

  describe('GET /properties/{id}/media', () => {
    it('lists the gallery in order, visible exactly when the listing is', async () => {
      const id = await newListing(db, { author_id: seller.id, status: 'pending' });
      const [a, b, c] = [await newMedia(db, seller.id), await newMedia(db, seller.id), await newMedia(db, seller.id)];
      for (const [position, media] of [b, c, a].entries()) {
        await db.updateTable('media').set({ listing_id: id, position }).where('id', '=', media.id).execute();
      }
      expect((await get(`/properties/${id}/media`)).statusCode).toBe(404);
      expect((await get(`/properties/${id}/media`, otherAuth)).statusCode).toBe(404);
      const own = await get(`/properties/${id}/media`, sellerAuth);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json()).toEqual({ success: true, data: { media: (await record(id, sellerAuth)).gallery } });
      expect(ids(own.json().data.media)).toEqual([b.id, c.id, a.id]);

      await db.updateTable('listings').set({ status: 'publish' }).where('id', '=', id).execute();
      expect(ids((await get(`/properties/${id}/media`)).json().data.media)).toEqual([b.id, c.id, a.id]);
      const empty = await newListing(db, { author_id: seller.id });
      expect((await get(`/properties/${empty}/media`)).json().data).toEqual({ media: [] });
      expect((await get('/properties/999999/media')).statusCode).toBe(404);
    });
  });

  describe('freshness of cached records', () => {
    it('shows a change made through the API on the next read', async () => {
      const id = await newListing(db, { author_id: seller.id, title: 'Before' });
      const before = await get(`/properties/${id}`);
      const res = await t.app.inject({
        method: 'PUT',
        url: `${API}/properties/${id}`,
        headers: sellerAuth,
        payload: { title: 'After', price: 5 },
      });
      expect(res.statusCode, res.body).toBe(200);
      const after = await get(`/properties/${id}`, undefined, { 'if-none-match': before.headers.etag as string });
      expect(after.statusCode).toBe(200);
      expect(after.json().data).toMatchObject({ title: 'After', price: 5 });
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect((await get('/properties?per_page=100')).json().data.properties.find((p: { id: number }) => p.id === id).title).toBe('After');
    });

    it('shows a direct database write on the next read', async () => {
      const id = await newListing(db, { author_id: seller.id, title: 'Direct before' });
      expect((await record(id)).title).toBe('Direct before');
      const list = async () => (await get('/properties?per_page=100')).json().data.properties.find((p: { id: number }) => p.id === id);
      expect((await list()).title).toBe('Direct before');
      await db.updateTable('listings').set({ title: 'Direct after', bedrooms: 4 }).where('id', '=', id).execute();
      expect(await record(id)).toMatchObject({ title: 'Direct after', bedrooms: 4 });
      expect(await list()).toMatchObject({ title: 'Direct after', bedrooms: 4 });
      await db.updateTable('listings').set({ status: 'pending' }).where('id', '=', id).execute();
      expect((await get(`/properties/${id}`)).statusCode).toBe(404);
      expect(await list()).toBeUndefined();
    });

    it('shows a renamed term, agent, agency and author, and a removed gallery image', async () => {
      const type = await newTerm(t.services.taxonomies, 'property_type', { name: 'Chalet' });
      const city = await newTerm(t.services.taxonomies, 'property_city', { name: 'Old City' });
      const { agencyId, agentId, agentUser } = await newAgencyWithAgent(db);
      const id = await newListing(db, {
        author_id: agentUser.id,
        agency_id: agencyId,
        terms: [...links('property_type', type), ...links('property_city', city)],
      });
      await db.insertInto('listing_agents').values({ listing_id: id, agent_id: agentId, position: 0 }).execute();
      const image = await newMedia(db, agentUser.id, { listing_id: id });
      const list = async () => (await get('/properties?per_page=100')).json().data.properties.find((p: { id: number }) => p.id === id);
      const before = await record(id);
      expect(before.property_type).toEqual([{ id: type.id, name: 'Chalet', slug: type.slug }]);
      expect(ids(before.gallery)).toEqual([image.id]);
      expect((await list()).property_type[0].name).toBe('Chalet');

      const rename = await t.app.inject({
        method: 'PUT',
        url: `${API}/terms/property_type/${type.id}`,
        headers: adminAuth,
        payload: { name: 'Swiss Chalet', slug: 'swiss-chalet' },
      });
      expect(rename.statusCode, rename.body).toBe(200);
      await t.services.taxonomies.updateTerm('property_city', city.id, { name: 'New City' });
      await db.updateTable('agents').set({ name: 'Renamed Agent' }).where('id', '=', agentId).execute();
      await db.updateTable('agencies').set({ name: 'Renamed Agency' }).where('id', '=', agencyId).execute();
      await db.updateTable('users').set({ display_name: 'Renamed Author' }).where('id', '=', agentUser.id).execute();
      const agentAuth = bearer(await tokenFor(t.app, agentUser));
      const described = await t.app.inject({
        method: 'PUT',
        url: `${API}/media/${image.id}`,
        headers: agentAuth,
        payload: { alt: 'Front door' },
      });
      expect(described.statusCode, described.body).toBe(200);
      for (const data of [await record(id), await list()]) {
        expect(data.gallery[0].alt).toBe('Front door');
        expect(data.featured_image.alt).toBe('Front door');
      }
      const removed = await t.app.inject({ method: 'DELETE', url: `${API}/media/${image.id}`, headers: agentAuth });
      expect(removed.statusCode, removed.body).toBe(200);

      for (const data of [await record(id), await list()]) {
        expect(data.property_type).toEqual([{ id: type.id, name: 'Swiss Chalet', slug: 'swiss-chalet' }]);
        expect(data.address.city).toEqual({ id: city.id, name: 'New City', slug: city.slug });
        expect(data.agents[0].name).toBe('Renamed Agent');
        expect(data.agency.name).toBe('Renamed Agency');
        expect(data.author.display_name).toBe('Renamed Author');
        expect(data.gallery).toEqual([]);
        expect(data.featured_image).toBeNull();
      }

      // A deleted term leaves the listing.
      await t.app.inject({ method: 'DELETE', url: `${API}/terms/property_type/${type.id}`, headers: adminAuth });
      expect((await record(id)).property_type).toEqual([]);
    });

    it('loses no listing from a list when the data changes while it loads', async () => {
      const listings = [await newListing(db, { author_id: seller.id }), await newListing(db, { author_id: seller.id })];
      // A stamp that changes on every read: each call sees "a change" made while the other was loading.
      let reads = 0;
      const stamps = new CacheStamps(async () => String(reads++), new LocalWrites(), 0);
      const urls = { publicUrl: t.config.publicUrl, listingUrlTemplate: t.config.listings.urlTemplate, storage: createStorage(t.config) };
      const records = new ListingRecords(db, stamps, urls);
      const answers = await Promise.all([records.summariesOf(listings), records.summariesOf(listings), records.summariesOf(listings)]);
      expect(answers.map((answer) => answer.map((loaded) => loaded.record.id))).toEqual([listings, listings, listings]);
    });

    it.runIf(dialect === 'postgres')('shows a write of another process once CACHE_REVALIDATE_MS has passed', async () => {
      // The stamps' clock is performance.now(): held still from now on (never behind what earlier tests' stamps
      // were read at), so that the window passes exactly when the test moves it.
      const start = performance.now();
      let elapsed = 0;
      const clock = vi.spyOn(performance, 'now').mockImplementation(() => start + elapsed);
      try {
        const id = await newListing(db, { author_id: seller.id, title: 'Elsewhere before' });
        expect((await record(id)).title).toBe('Elsewhere before');
        const other = createDatabase({ kind: 'postgres', url: t.database.url! });
        try {
          await other.db.updateTable('listings').set({ title: 'Elsewhere after' }).where('id', '=', id).execute();
        } finally {
          await other.destroy();
        }
        // Within the window the cached answer stands: this process cannot know of the other's write yet.
        expect((await record(id)).title).toBe('Elsewhere before');
        elapsed += t.config.cacheRevalidateMs;
        expect((await record(id)).title).toBe('Elsewhere after');
      } finally {
        clock.mockRestore();
      }
    });
  });
});

describeEachDialect('GET /properties (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let author: UserRow;
  /** The published listings, by name. */
  const listing: Record<string, number> = {};

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    author = await newUser(db, { role: 'seller' });
    const at = (day: number) => new Date(Date.UTC(2025, 0, day)).toISOString();
    // name: [published day, price, size, title, featured]
    const rows: [string, number, number | null, number | null, string, number][] = [
      ['a', 1, 300, 50, 'banana', 0],
      ['b', 3, null, 80, 'Apple', 1],
      ['c', 2, 100, null, 'cherry', 0],
      ['d', 3, 200, 20, 'apple', 0], // same day as b: the higher id comes first among equals
      ['e', 5, 100, 80, 'Ébène', 1],
    ];
    for (const [name, day, price, size, title, featured] of rows) {
      listing[name] = await newListing(db, {
        author_id: author.id,
        title,
        sort_title: title
          .normalize('NFKD')
          .replace(/\p{M}+/gu, '')
          .toLowerCase(),
        price,
        size,
        featured,
        published_at: at(day),
      });
    }
    for (const status of [...HIDDEN_STATES, 'sold'] as ListingState[])
      await newListing(db, { author_id: author.id, status, published_at: at(9) });
  });
  afterAll(() => t.close());

  const list = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/properties${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const order = async (query: string) =>
    ids((await list(query)).properties).map((id) => Object.keys(listing).find((name) => listing[name] === id));

  it('lists published listings only, newest publication first by default', async () => {
    const data = await list();
    expect(ids(data.properties)).toEqual([listing.e, listing.d, listing.b, listing.c, listing.a]);
    expect(data.pagination).toEqual({
      total_records: 5,
      total_pages: 1,
      current_page: 1,
      per_page: 10,
      has_next_page: false,
      has_previous_page: false,
    });
  });

  it.each([
    ['d_date', ['e', 'd', 'b', 'c', 'a']],
    ['a_date', ['a', 'c', 'd', 'b', 'e']],
    ['a_price', ['e', 'c', 'd', 'a', 'b']],
    ['d_price', ['a', 'd', 'e', 'c', 'b']],
    ['a_size', ['d', 'a', 'e', 'b', 'c']],
    ['d_size', ['e', 'b', 'a', 'd', 'c']],
    ['a_title', ['d', 'b', 'a', 'c', 'e']],
    ['d_title', ['e', 'c', 'a', 'd', 'b']],
    ['featured_first', ['e', 'b', 'd', 'c', 'a']],
  ])('sorts by %s (listings without the value last, ties by id descending)', async (sortby, expected) => {
    expect(await order(`?sortby=${sortby}`)).toEqual(expected);
  });

  it('pages with true figures, `paged` as an alias of `page`', async () => {
    const second = await list('?per_page=2&page=2');
    expect(ids(second.properties)).toEqual([listing.b, listing.c]);
    expect(second.pagination).toEqual({
      total_records: 5,
      total_pages: 3,
      current_page: 2,
      per_page: 2,
      has_next_page: true,
      has_previous_page: true,
    });
    expect(ids((await list('?per_page=2&paged=3')).properties)).toEqual([listing.a]);
    const past = await list('?per_page=2&page=4');
    expect(past.properties).toEqual([]);
    expect(past.pagination).toMatchObject({
      total_records: 5,
      total_pages: 3,
      current_page: 4,
      has_next_page: false,
      has_previous_page: true,
    });
  });

  it('refuses bad parameters', async () => {
    for (const query of ['?per_page=101', '?per_page=0', '?page=0', '?sortby=price', '?colour=red', '?sortby=distance']) {
      const res = await t.app.inject({ method: 'GET', url: `${API}/properties${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'validation_failed' });
    }
    expect((await t.app.inject({ method: 'GET', url: `${API}/properties?lang=fr` })).statusCode).toBe(200);
  });

  it('answers summaries: no description, floor plans or additional features; the first five images', async () => {
    const id = await newListing(db, {
      author_id: author.id,
      title: 'Many images',
      description: '<p>Long</p>',
      published_at: '2024-01-01T00:00:00.000Z',
    });
    const images = [];
    for (let position = 0; position < 7; position++) images.push(await newMedia(db, author.id, { listing_id: id, position }));
    await db.updateTable('listings').set({ featured_image_id: images[6]!.id }).where('id', '=', id).execute();
    const summary = (await list('?sortby=a_date&per_page=1')).properties[0];
    expect(summary.id).toBe(id);
    expect(Object.keys(summary).sort()).toEqual(SUMMARY_KEYS);
    expect(ids(summary.gallery)).toEqual(images.slice(0, 5).map((m) => m.id));
    expect(summary.featured_image.id).toBe(images[6]!.id);
    const full = await t.app.inject({ method: 'GET', url: `${API}/properties/${id}` });
    expect(ids(full.json().data.gallery)).toEqual(images.map((m) => m.id));
    const { description: _d, floor_plans: _f, additional_features: _a, gallery: _g, attachments: _t, ...shared } = full.json().data;
    const { gallery: _sg, ...summaryShared } = summary;
    expect(summaryShared).toEqual(shared);
  });

  it('marks the caller’s favorites without changing the shared answer', async () => {
    const fan = await newUser(db);
    await addFavorite(db, fan.id, listing.c!);
    const auth = bearer(await tokenFor(t.app, fan));
    const res = await t.app.inject({ method: 'GET', url: `${API}/properties?per_page=100`, headers: auth });
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const favorites = res.json().data.properties.filter((p: { is_favorite: boolean }) => p.is_favorite);
    expect(ids(favorites)).toEqual([listing.c]);
    expect((await list('?per_page=100')).properties.some((p: { is_favorite: boolean }) => p.is_favorite)).toBe(false);
  });

  it('revalidates: the same ETag while nothing changes (304), a new one after a change', async () => {
    const first = await t.app.inject({ method: 'GET', url: `${API}/properties` });
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const etag = first.headers.etag as string;
    expect((await t.app.inject({ method: 'GET', url: `${API}/properties`, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    await db.updateTable('listings').set({ price: 7 }).where('id', '=', listing.a!).execute();
    const changed = await t.app.inject({ method: 'GET', url: `${API}/properties`, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.properties.find((p: { id: number }) => p.id === listing.a).price).toBe(7);
  });
});
