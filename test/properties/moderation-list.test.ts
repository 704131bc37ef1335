import type { LightMyRequestResponse } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { type DB, LISTING_STATES, type ListingState, type NewListing, type UserRow } from '../../src/db/schema/index.js';
import { seededRandom } from '../../src/lib/random.js';
import { moderationListQueries, type ModerationListFilter } from '../../src/modules/properties/lists/property-lists.repository.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { errorBody, pagination } from '../helpers/expectations.js';
import { addFavorite, newAgencyWithAgent, newListing, newUser, signIn } from '../helpers/factories.js';
import { planOf } from '../search/search-storage-fixtures.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

const idsOf = (res: LightMyRequestResponse): number[] => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.properties.map((p: { id: number }) => p.id);
};
/** Distinct, increasing `updated_at` values: `at(2)` is later than `at(1)`. */
const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString();

/** GET /properties/moderation (docs/api.md 3.3): every user's listings, for administrators and managers. */
describeEachDialect('GET /properties/moderation (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;

  // The list spans every user's listings, so each test gets a database of its own.
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    admin = await signIn(t.app, await newUser(db, { role: 'administrator' }));
  });
  afterEach(() => t.close());

  const list = (auth: Auth | undefined, query = '') =>
    t.app.inject({ method: 'GET', url: `${API}/properties/moderation${query}`, headers: auth ?? {} });
  const seller = () => newUser(db, { role: 'seller' });
  const listingOf = (author: UserRow, status: ListingState, overrides: Partial<NewListing> = {}) =>
    newListing(db, { author_id: author.id, status, published_at: status === 'publish' ? at(0) : null, ...overrides });
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(errorBody(code));
  };

  it('lists every user’s pending listings by default, most recently changed first, as summaries', async () => {
    const [alice, bob] = [await seller(), await seller()];
    const agency = await newAgencyWithAgent(db);
    const older = await listingOf(alice, 'pending', { updated_at: at(1) });
    const newest = await listingOf(agency.agentUser, 'pending', { updated_at: at(3) });
    const middle = await listingOf(bob, 'pending', { updated_at: at(2) });
    for (const status of LISTING_STATES.filter((s) => s !== 'pending')) await listingOf(alice, status, { updated_at: at(9) });

    const res = await list(admin);
    expect(idsOf(res)).toEqual([newest, middle, older]);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(['pagination', 'properties']);
    expect(body.data.pagination).toEqual(pagination(3, 1, 10));
    const authors = [agency.agentUser, bob, alice];
    body.data.properties.forEach((property: Record<string, unknown>, n: number) => {
      expect(property).toMatchObject({
        status: 'pending',
        author: { id: authors[n]!.id, display_name: authors[n]!.display_name },
        is_favorite: false,
        updated_at: at([3, 2, 1][n]!).replace('.000Z', 'Z'),
      });
      // Summaries (docs/api.md 4.1): no description, floor plans or additional features.
      for (const field of ['description', 'floor_plans', 'additional_features']) expect(property).not.toHaveProperty(field);
    });
    // The same summaries as GET /users/my-properties gives their owner.
    const own = await t.app.inject({
      method: 'GET',
      url: `${API}/users/my-properties?status=pending`,
      headers: await signIn(t.app, bob),
    });
    expect(own.json().data.properties).toEqual([body.data.properties[1]]);
  });

  it('filters by each state; `all` is every state, and equal times come by id, descending', async () => {
    const author = await seller();
    const byState = new Map<ListingState, number>();
    for (const status of LISTING_STATES) byState.set(status, await listingOf(author, status, { updated_at: at(5) }));
    for (const status of LISTING_STATES) {
      const res = await list(admin, `?status=${status}`);
      expect(idsOf(res), status).toEqual([byState.get(status)]);
      expect(res.json().data.properties[0].status).toBe(status);
      expect(res.json().data.pagination.total_records).toBe(1);
    }
    const all = await list(admin, '?status=all');
    expect(idsOf(all)).toEqual([...byState.values()].reverse());
    expect(all.json().data.pagination).toEqual(pagination(LISTING_STATES.length, 1, 10));
  });

  it('answers managers as administrators, whoever owns the listings', async () => {
    const admins = await newUser(db, { role: 'administrator' });
    const byAdmin = await listingOf(admins, 'draft', { updated_at: at(2) });
    const bySeller = await listingOf(await seller(), 'draft', { updated_at: at(1) });
    const manager = await signIn(t.app, await newUser(db, { role: 'manager' }));
    expect(idsOf(await list(manager, '?status=draft'))).toEqual([byAdmin, bySeller]);
    expect(idsOf(await list(admin, '?status=draft'))).toEqual([byAdmin, bySeller]);
  });

  it('narrows to one author with `author_id`', async () => {
    const [alice, bob] = [await seller(), await seller()];
    const agency = await newAgencyWithAgent(db);
    const alicePending = await listingOf(alice, 'pending', { updated_at: at(1) });
    const aliceLater = await listingOf(alice, 'pending', { updated_at: at(4) });
    await listingOf(alice, 'publish');
    await listingOf(bob, 'pending');
    const byAgent = await listingOf(agency.agentUser, 'pending');
    expect(idsOf(await list(admin, `?author_id=${alice.id}`))).toEqual([aliceLater, alicePending]);
    expect((await list(admin, `?author_id=${alice.id}`)).json().data.pagination.total_records).toBe(2);
    expect(idsOf(await list(admin, `?author_id=${alice.id}&status=all`))).toHaveLength(3);
    // As authored: an agency's list is not its agents'.
    expect(idsOf(await list(admin, `?author_id=${agency.agencyUser.id}`))).toEqual([]);
    expect(idsOf(await list(admin, `?author_id=${agency.agentUser.id}`))).toEqual([byAgent]);
    expect(idsOf(await list(admin, '?author_id=999999'))).toEqual([]);
    expectError(await list(admin, '?author_id=0'), 400, 'validation_failed');
    expectError(await list(admin, '?author_id=x'), 400, 'validation_failed');
  });

  it('matches `keyword` in the title or the reference, ignoring ASCII case, with wildcards taken literally', async () => {
    const [alice, bob] = [await seller(), await seller()];
    const villa = await listingOf(alice, 'pending', { title: 'Sunny VILLA by the sea', updated_at: at(1) });
    const reference = await listingOf(bob, 'pending', { title: 'Flat', reference: 'REF-Villa-9', updated_at: at(2) });
    const percent = await listingOf(bob, 'pending', { title: '100% renovated', reference: 'under_score' });
    const published = await listingOf(alice, 'publish', { title: 'Villa published' });
    await listingOf(alice, 'pending', { title: 'Cottage', reference: 'C-1' });
    expect(idsOf(await list(admin, '?keyword=villa'))).toEqual([reference, villa]);
    expect(idsOf(await list(admin, '?keyword=ViLlA'))).toEqual([reference, villa]);
    expect((await list(admin, '?keyword=villa')).json().data.pagination.total_records).toBe(2);
    expect(idsOf(await list(admin, '?keyword=ref-villa'))).toEqual([reference]);
    expect(idsOf(await list(admin, '?keyword=%25'))).toEqual([percent]);
    expect(idsOf(await list(admin, '?keyword=d_r'))).toEqual([]);
    expect(idsOf(await list(admin, '?keyword=er_sc'))).toEqual([percent]);
    expect(idsOf(await list(admin, '?keyword=%20%20'))).toHaveLength(4); // blank: no keyword
    expect(idsOf(await list(admin, '?keyword=villa&status=publish'))).toEqual([published]);
    expect(idsOf(await list(admin, `?keyword=villa&author_id=${alice.id}`))).toEqual([villa]);
    expectError(await list(admin, `?keyword=${'x'.repeat(201)}`), 400, 'validation_failed');
  });

  it('puts a listing first when it changes: an edit, then a state move', async () => {
    const author = await seller();
    const authorAuth = await signIn(t.app, author);
    const first = await listingOf(author, 'pending', { updated_at: at(1) });
    const second = await listingOf(author, 'pending', { updated_at: at(2) });
    expect(idsOf(await list(admin))).toEqual([second, first]);
    const edit = await t.app.inject({
      method: 'PUT',
      url: `${API}/properties/${first}`,
      headers: authorAuth,
      payload: { title: 'Retitled' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(idsOf(await list(admin))).toEqual([first, second]);

    const earlierPublished = await listingOf(author, 'publish', { updated_at: at(3) });
    const approve = await t.app.inject({ method: 'POST', url: `${API}/users/approve-property/${second}`, headers: admin });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(idsOf(await list(admin))).toEqual([first]);
    expect(idsOf(await list(admin, '?status=publish'))).toEqual([second, earlierPublished]);
  });

  it('sorts by `sortby` as GET /users/my-properties does', async () => {
    const author = await seller();
    const cheap = await listingOf(author, 'pending', { price: 100, size: 90, sort_title: 'b', updated_at: at(4) });
    const dear = await listingOf(author, 'pending', { price: 300, size: 50, sort_title: 'a', featured: 1, updated_at: at(1) });
    const none = await listingOf(author, 'pending', { price: null, size: null, sort_title: 'c', updated_at: at(3) });
    const published = await listingOf(author, 'pending', { price: 200, size: 70, sort_title: 'd', published_at: at(0), updated_at: at(2) });
    expect(idsOf(await list(admin))).toEqual([cheap, none, published, dear]);
    expect(idsOf(await list(admin, '?sortby=a_price'))).toEqual([cheap, published, dear, none]);
    expect(idsOf(await list(admin, '?sortby=d_price'))).toEqual([dear, published, cheap, none]);
    expect(idsOf(await list(admin, '?sortby=a_size'))).toEqual([dear, published, cheap, none]);
    expect(idsOf(await list(admin, '?sortby=a_title'))).toEqual([dear, cheap, none, published]);
    expect(idsOf(await list(admin, '?sortby=d_title'))).toEqual([published, none, cheap, dear]);
    // By publication date, never published last (then by id, descending).
    expect(idsOf(await list(admin, '?sortby=d_date'))).toEqual([published, none, dear, cheap]);
    expect(idsOf(await list(admin, '?sortby=featured_first'))).toEqual([dear, published, none, cheap]);
    expectError(await list(admin, '?sortby=distance'), 400, 'validation_failed');
    expectError(await list(admin, '?sortby=d_updated'), 400, 'validation_failed');
  });

  it('pages with true figures', async () => {
    const author = await seller();
    const ids: number[] = [];
    for (let minute = 1; minute <= 5; minute++) ids.push(await listingOf(author, 'pending', { updated_at: at(minute) }));
    await listingOf(author, 'draft', { updated_at: at(9) });
    const newestFirst = [...ids].reverse();
    const second = await list(admin, '?per_page=2&page=2');
    expect(idsOf(second)).toEqual(newestFirst.slice(2, 4));
    expect(second.json().data.pagination).toEqual(pagination(5, 2, 2));
    expect(idsOf(await list(admin, '?per_page=2&paged=3'))).toEqual(newestFirst.slice(4));
    const past = await list(admin, '?per_page=2&page=4');
    expect(idsOf(past)).toEqual([]);
    expect(past.json().data.pagination).toEqual(pagination(5, 4, 2));
    expect((await list(admin, '?status=all&per_page=4')).json().data.pagination).toEqual(pagination(6, 1, 4));
    expectError(await list(admin, '?per_page=101'), 400, 'validation_failed');
    expectError(await list(admin, '?page=0'), 400, 'validation_failed');
  });

  it('sets is_favorite for the moderator', async () => {
    const author = await seller();
    const liked = await listingOf(author, 'pending', { updated_at: at(1) });
    const other = await listingOf(author, 'pending', { updated_at: at(2) });
    const moderator = await newUser(db, { role: 'manager' });
    await addFavorite(db, moderator.id, liked);
    const properties = (await list(await signIn(t.app, moderator))).json().data.properties as { id: number; is_favorite: boolean }[];
    expect(properties.map(({ id, is_favorite }) => ({ id, is_favorite }))).toEqual([
      { id: other, is_favorite: false },
      { id: liked, is_favorite: true },
    ]);
  });

  it('answers 401 without a token and 403 to every role but administrator and manager', async () => {
    await listingOf(await seller(), 'pending');
    expectError(await list(undefined), 401, 'unauthorized');
    expectError(await list({ authorization: 'Bearer not-a-token' }), 401, 'invalid_token');
    for (const role of ['agency', 'agent', 'owner', 'seller', 'buyer'] as const) {
      const user = await newUser(db, { role });
      await listingOf(user, 'pending');
      const res = await list(await signIn(t.app, user));
      expect(res.statusCode, `${role}: ${res.body}`).toBe(403);
      expect(res.json()).toMatchObject(errorBody('forbidden'));
    }
  });

  it('refuses a bad state and unknown parameters with 400, naming the field', async () => {
    for (const query of ['?status=published', '?status=', '?status=pending,draft', '?user_id=1', '?include_sold=true', '?foo=1']) {
      const res = await list(admin, query);
      expectError(res, 400, 'validation_failed');
      expect(res.json().errors, query).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.any(String) })]));
    }
    expect((await list(admin, '?status=pending&lang=fr')).statusCode).toBe(200);
  });

  it('is not taken for a listing id by /properties/{id}, which keeps answering', async () => {
    const published = await listingOf(await seller(), 'publish');
    // Anonymous: 401 from this route, not 400 (a bad id) or 404 (no such listing) from /properties/{id}.
    expectError(await list(undefined), 401, 'unauthorized');
    expect((await list(admin)).statusCode).toBe(200);
    const one = await t.app.inject({ method: 'GET', url: `${API}/properties/${published}` });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data.id).toBe(published);
    expectError(await t.app.inject({ method: 'GET', url: `${API}/properties/moderations` }), 400, 'validation_failed');
    // Under a language prefix too.
    expect((await t.app.inject({ method: 'GET', url: `/fr${API}/properties/moderation`, headers: admin })).statusCode).toBe(200);
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    expect(doc.paths['/realty-api/v1/properties/moderation'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      expect.arrayContaining(['author_id', 'keyword', 'page', 'paged', 'per_page', 'sortby', 'status']),
    );
  });
});

const LISTINGS = 10_000;

/**
 * The plans of the list's two statements on 10,000 listings of mixed states, with statistics (ANALYZE) and,
 * on PostgreSQL, sequential scans turned off by planOf: a page of one state in the default order is a backward
 * range of listings_status_updated_idx (migration 0016), without a sort; the count reads an index.
 */
describeEachDialect('GET /properties/moderation plans (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  let authorId: number;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    authorId = (await newUser(db, { role: 'seller' })).id;
    const random = seededRandom(2026);
    const start = Date.UTC(2024, 0, 1);
    const rows = Array.from({ length: LISTINGS }, (_, n) => {
      const draw = random();
      const status: ListingState = draw < 0.6 ? 'publish' : draw < 0.75 ? 'pending' : LISTING_STATES[Math.floor(random() * 7)]!;
      const changed = new Date(start + Math.floor(random() * 3e10)).toISOString();
      return {
        slug: `queue-${n}`,
        title: `Listing ${n}`,
        status,
        currency: 'EUR',
        author_id: n % 100 === 0 ? authorId : null,
        created_at: changed,
        updated_at: changed,
        published_at: status === 'publish' ? changed : null,
      };
    });
    for (let from = 0; from < rows.length; from += 500)
      await db
        .insertInto('listings')
        .values(rows.slice(from, from + 500))
        .execute();
    await sql`analyze`.execute(db);
  }, 120_000);
  afterAll(() => database.dispose());

  const window = { page: 3, perPage: 10, offset: 20 };
  const plansOf = async (filter: ModerationListFilter) => {
    const { page, count } = moderationListQueries(db, filter, window);
    return { page: await planOf(db, page), count: await planOf(db, count) };
  };

  it('reads a page of one state in the default order from listings_status_updated_idx, without sorting', async () => {
    for (const status of ['pending', 'draft', 'publish'] as const) {
      const { page, count } = await plansOf({ status });
      if (dialect === 'sqlite') {
        expect(page).toMatch(/SEARCH listings USING COVERING INDEX listings_status_updated_idx \(status=\?\)/);
        expect(page).not.toMatch(/TEMP B-TREE/);
        expect(count).toMatch(/SEARCH listings USING COVERING INDEX listings_status_\w+ \(status=\?\)/);
      } else {
        expect(page).toMatch(/Index Only Scan Backward using listings_status_updated_idx on listings/);
        expect(page).not.toMatch(/Sort/);
        expect(count).toMatch(/Index (Only )?Scan using listings_status_\w+|Bitmap Index Scan on listings_status_\w+/);
      }
      expect(count).not.toMatch(/SCAN listings$|Seq Scan/m);
    }
  });

  it('reads one author’s listings of a state through an index', async () => {
    const { page, count } = await plansOf({ status: 'pending', authorId });
    for (const plan of [page, count]) {
      expect(plan).toMatch(/listings_(author_status|status_updated|status_\w+)_idx/);
      expect(plan).not.toMatch(/SCAN listings$|Seq Scan/m);
    }
  });

  it('answers the same ids and total as the rows say', async () => {
    const { page, count } = moderationListQueries(db, { status: 'pending' }, window);
    const expected = await db.selectFrom('listings').select(['id', 'updated_at']).where('status', '=', 'pending').execute();
    expected.sort((a, b) => (a.updated_at === b.updated_at ? b.id - a.id : a.updated_at < b.updated_at ? 1 : -1));
    expect((await page.execute()).map((row) => row.id)).toEqual(expected.slice(20, 30).map((row) => row.id));
    expect(Number((await count.executeTakeFirstOrThrow()).n)).toBe(expected.length);
  });
});
