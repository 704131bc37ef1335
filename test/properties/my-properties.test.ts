import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DB, LISTING_STATES, type NewListing, type UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { addFavorite, newAgencyWithAgent, newListing, newUser, signIn } from '../helpers/factories.js';
import { errorBody } from '../helpers/expectations.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

const idsOf = (res: LightMyRequestResponse): number[] => res.json().data.properties.map((p: { id: number }) => p.id);

describeEachDialect('GET /users/my-properties (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
  });
  afterAll(() => t.close());

  const mine = (auth: Auth | undefined, query = '') =>
    t.app.inject({ method: 'GET', url: `${API}/users/my-properties${query}`, headers: auth ?? {} });
  /** A fresh seller with a token: every test gets its own listings. */
  const newSeller = async () => {
    const user = await newUser(db, { role: 'seller' });
    return { user, auth: await signIn(t.app, user) };
  };
  const listingOf = (author: UserRow, overrides: Partial<NewListing> = {}) => newListing(db, { author_id: author.id, ...overrides });
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(errorBody(code));
  };

  it('lists the caller’s own listings in every state, and nobody else’s', async () => {
    const { user, auth } = await newSeller();
    const ids: number[] = [];
    for (const status of LISTING_STATES) ids.push(await listingOf(user, { status, published_at: null }));
    await listingOf((await newSeller()).user);
    const res = await mine(auth, '?per_page=100');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(Object.keys(body.data).sort()).toEqual(['pagination', 'properties']);
    // All never published: ties by id descending.
    expect(idsOf(res)).toEqual([...ids].reverse());
    expect(body.data.properties.map((p: { status: string }) => p.status)).toEqual([...LISTING_STATES].reverse());
    expect(body.data.pagination).toEqual({
      total_records: LISTING_STATES.length,
      total_pages: 1,
      current_page: 1,
      per_page: 100,
      has_next_page: false,
      has_previous_page: false,
    });
    for (const property of body.data.properties) {
      expect(property).toMatchObject({ author: { id: user.id, display_name: user.display_name }, is_favorite: false });
      expect(property).not.toHaveProperty('description');
    }
  });

  it('filters by status; `all` is every state', async () => {
    const { user, auth } = await newSeller();
    const published = await listingOf(user, { status: 'publish' });
    const pending = await listingOf(user, { status: 'pending', published_at: null });
    const sold = await listingOf(user, { status: 'sold', published_at: '2020-01-01T00:00:00.000Z' });
    expect(idsOf(await mine(auth, '?status=pending'))).toEqual([pending]);
    expect(idsOf(await mine(auth, '?status=sold'))).toEqual([sold]);
    expect(idsOf(await mine(auth, '?status=draft'))).toEqual([]);
    expect((await mine(auth, '?status=pending')).json().data.pagination.total_records).toBe(1);
    expect(idsOf(await mine(auth, '?status=all'))).toEqual([published, sold, pending]);
    expectError(await mine(auth, '?status=published'), 400, 'validation_failed');
  });

  it('matches `keyword` in the title or the reference, ignoring ASCII case, with wildcards taken literally', async () => {
    const { user, auth } = await newSeller();
    const villa = await listingOf(user, { title: 'Sunny VILLA by the sea' });
    const reference = await listingOf(user, { title: 'Flat', reference: 'REF-Villa-9' });
    const percent = await listingOf(user, { title: '100% renovated', reference: 'under_score' });
    await listingOf(user, { title: 'Cottage', reference: 'C-1' });
    expect(idsOf(await mine(auth, '?keyword=villa'))).toEqual([reference, villa]);
    expect(idsOf(await mine(auth, '?keyword=ViLlA'))).toEqual([reference, villa]);
    expect(idsOf(await mine(auth, '?keyword=ref-villa'))).toEqual([reference]);
    expect((await mine(auth, '?keyword=villa')).json().data.pagination.total_records).toBe(2);
    expect(idsOf(await mine(auth, '?keyword=%25'))).toEqual([percent]);
    expect(idsOf(await mine(auth, '?keyword=d_r'))).toEqual([]);
    expect(idsOf(await mine(auth, '?keyword=er_sc'))).toEqual([percent]);
    expect(idsOf(await mine(auth, '?keyword=nothing-like-it'))).toEqual([]);
    // Combined with a status.
    expect(idsOf(await mine(auth, '?keyword=villa&status=pending'))).toEqual([]);
    expectError(await mine(auth, `?keyword=${'x'.repeat(201)}`), 400, 'validation_failed');
  });

  it('sorts by publication date with never-published listings last, in both directions', async () => {
    const { user, auth } = await newSeller();
    const draft = await listingOf(user, { status: 'draft', published_at: null });
    const old = await listingOf(user, { status: 'sold', published_at: '2024-01-01T00:00:00.000Z' });
    const recent = await listingOf(user, { status: 'publish', published_at: '2025-06-01T00:00:00.000Z' });
    const pending = await listingOf(user, { status: 'pending', published_at: null });
    const sameDay = await listingOf(user, { status: 'on_hold', published_at: '2025-06-01T00:00:00.000Z' });
    expect(idsOf(await mine(auth))).toEqual([sameDay, recent, old, pending, draft]);
    expect(idsOf(await mine(auth, '?sortby=d_date'))).toEqual([sameDay, recent, old, pending, draft]);
    expect(idsOf(await mine(auth, '?sortby=a_date'))).toEqual([old, sameDay, recent, pending, draft]);
  });

  it('sorts by price, size, title and featured as GET /properties does', async () => {
    const { user, auth } = await newSeller();
    const cheap = await listingOf(user, { price: 100, size: 90, sort_title: 'b', featured: 0 });
    const dear = await listingOf(user, { price: 300, size: 50, sort_title: 'a', featured: 1, published_at: '2025-01-01T00:00:00.000Z' });
    const none = await listingOf(user, { price: null, size: null, sort_title: 'c', featured: 0 });
    const mid = await listingOf(user, { price: 200, size: 70, sort_title: 'b', featured: 1, status: 'draft', published_at: null });
    expect(idsOf(await mine(auth, '?sortby=a_price'))).toEqual([cheap, mid, dear, none]);
    expect(idsOf(await mine(auth, '?sortby=d_price'))).toEqual([dear, mid, cheap, none]);
    expect(idsOf(await mine(auth, '?sortby=a_size'))).toEqual([dear, mid, cheap, none]);
    expect(idsOf(await mine(auth, '?sortby=d_size'))).toEqual([cheap, mid, dear, none]);
    expect(idsOf(await mine(auth, '?sortby=a_title'))).toEqual([dear, mid, cheap, none]);
    expect(idsOf(await mine(auth, '?sortby=d_title'))).toEqual([none, mid, cheap, dear]);
    // Featured first, then by publication date (never published last), then id.
    expect(idsOf(await mine(auth, '?sortby=featured_first'))).toEqual([dear, mid, none, cheap]);
    expectError(await mine(auth, '?sortby=distance'), 400, 'validation_failed');
  });

  it('pages with true figures', async () => {
    const { user, auth } = await newSeller();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await listingOf(user, { status: 'draft', published_at: null }));
    const newestFirst = [...ids].reverse();
    const second = await mine(auth, '?per_page=2&page=2');
    expect(idsOf(second)).toEqual(newestFirst.slice(2, 4));
    expect(second.json().data.pagination).toEqual({
      total_records: 5,
      total_pages: 3,
      current_page: 2,
      per_page: 2,
      has_next_page: true,
      has_previous_page: true,
    });
    expect(idsOf(await mine(auth, '?per_page=2&paged=3'))).toEqual(newestFirst.slice(4));
    const past = await mine(auth, '?per_page=2&page=4');
    expect(idsOf(past)).toEqual([]);
    expect(past.json().data.pagination).toMatchObject({ total_records: 5, total_pages: 3, current_page: 4, has_next_page: false });
    expectError(await mine(auth, '?per_page=101'), 400, 'validation_failed');
  });

  it('shows an agency the listings of its agents too, and an agent only their own', async () => {
    const { agencyUser, agentUser } = await newAgencyWithAgent(db);
    const byAgency = await listingOf(agencyUser, { status: 'draft', published_at: null });
    const byAgent = await listingOf(agentUser, { status: 'pending', published_at: null });
    // An agent of another agency is not this agency's.
    await listingOf((await newAgencyWithAgent(db)).agentUser);
    expect(idsOf(await mine(await signIn(t.app, agencyUser)))).toEqual([byAgent, byAgency]);
    expect(idsOf(await mine(await signIn(t.app, agentUser)))).toEqual([byAgent]);
  });

  it('gives administrators and managers their own listings only', async () => {
    const admin = await newUser(db, { role: 'administrator' });
    const own = await listingOf(admin);
    await listingOf((await newSeller()).user);
    expect(idsOf(await mine(await signIn(t.app, admin)))).toEqual([own]);
    expect(idsOf(await mine(await signIn(t.app, await newUser(db, { role: 'manager' }))))).toEqual([]);
  });

  it('sets is_favorite for the caller', async () => {
    const { user, auth } = await newSeller();
    const liked = await listingOf(user);
    const other = await listingOf(user);
    await addFavorite(db, user.id, liked);
    const properties = (await mine(auth)).json().data.properties as { id: number; is_favorite: boolean }[];
    expect(properties.map(({ id, is_favorite }) => ({ id, is_favorite }))).toEqual([
      { id: other, is_favorite: false },
      { id: liked, is_favorite: true },
    ]);
  });

  it('answers 401 without a token, 403 for buyers, 400 for unknown parameters', async () => {
    expectError(await mine(undefined), 401, 'unauthorized');
    expectError(await mine(await signIn(t.app, await newUser(db, { role: 'buyer' }))), 403, 'forbidden');
    expectError(await mine((await newSeller()).auth, '?author_id=1'), 400, 'validation_failed');
  });

  it('accepts every listing-creating role, each seeing its own listing', async () => {
    for (const role of ['administrator', 'manager', 'agency', 'agent', 'owner', 'seller'] as const) {
      const user = await newUser(db, { role });
      const id = await listingOf(user, { status: 'draft' });
      const res = await mine(await signIn(t.app, user));
      expect(res.statusCode, `${role}: ${res.body}`).toBe(200);
      expect(idsOf(res), role).toEqual([id]);
    }
  });
});
