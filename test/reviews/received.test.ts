import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp, createServices, type Services } from '../../src/app.js';
import type { DB, ReviewTarget, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, TEST_JWT_SECRET, type TestApp, testConfig } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { pagination } from '../helpers/expectations.js';
import { bearer, newAgencyWithAgent, newAgent, newListing, newUser, sessionFor } from '../helpers/factories.js';
import { SelectCounter } from '../helpers/select-counter.js';
import { API, type Auth, createdId, expectError, type ReviewClient, reviewClient } from './review-fixtures.js';

interface Received {
  id: number;
  target_type: ReviewTarget;
  target_id: number;
  target_title: string | null;
}

describeEachDialect('GET /users/reviews-received (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let api: ReviewClient;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    api = reviewClient(t);
  });
  afterAll(() => t.close());

  const received = (auth: Auth | undefined, query = '') =>
    t.app.inject({ method: 'GET', url: `${API}/users/reviews-received${query}`, headers: auth ?? {} });
  const reviewsOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.reviews as Received[];
  };
  const idsOf = async (auth: Auth, query = '') => reviewsOf(await received(auth, query)).map((review) => review.id);
  const signedIn = async (overrides: Partial<UserRow> = {}) => {
    const user = await newUser(db, overrides);
    return { user, auth: await sessionFor(t, user) };
  };
  const setCreatedAt = (id: number, at: string) => db.updateTable('reviews').set({ created_at: at }).where('id', '=', id).execute();
  /** A review by a fresh user, dated `at` so that the expected order is known. */
  const reviewOf = async (type: ReviewTarget, id: number, at: string, content = 'Fine') => {
    const reviewId = await api.create((await signedIn()).auth, type, id, { rating: 4, content }).then(createdId);
    await setCreatedAt(reviewId, at);
    return reviewId;
  };

  /**
   * An agency with an agent, each with a listing; a listing of a stranger that names the agency (`agency_id`) but is
   * not the agency's by the owner rule (its author is no agent of the agency); another agency and agent. Each record
   * has one review, newest first in this order: agency listing, agent listing, agent, agency, stranger's listing,
   * other agent, other agency.
   */
  const agencyWorld = async () => {
    const d = await newAgencyWithAgent(db);
    const other = await newAgencyWithAgent(db);
    const stranger = await newUser(db, { role: 'seller' });
    const agencyListing = await newListing(db, { author_id: d.agencyUser.id, title: 'Agency loft' });
    const agentListing = await newListing(db, { author_id: d.agentUser.id, title: 'Agent villa' });
    const strangerListing = await newListing(db, { author_id: stranger.id, agency_id: d.agencyId, title: 'Named, not owned' });
    const reviews = {
      agencyListing: await reviewOf('property', agencyListing, '2026-05-07T10:00:00.000Z'),
      agentListing: await reviewOf('property', agentListing, '2026-05-06T10:00:00.000Z'),
      agent: await reviewOf('agent', d.agentId, '2026-05-05T10:00:00.000Z'),
      agency: await reviewOf('agency', d.agencyId, '2026-05-04T10:00:00.000Z'),
      strangerListing: await reviewOf('property', strangerListing, '2026-05-03T10:00:00.000Z'),
      otherAgent: await reviewOf('agent', other.agentId, '2026-05-02T10:00:00.000Z'),
      otherAgency: await reviewOf('agency', other.agencyId, '2026-05-01T10:00:00.000Z'),
    };
    return {
      ...d,
      other,
      stranger,
      listings: { agencyListing, agentListing, strangerListing },
      reviews,
      agencyAuth: await sessionFor(t, d.agencyUser),
      agentAuth: await sessionFor(t, d.agentUser),
      strangerAuth: await sessionFor(t, stranger),
    };
  };

  it('answers 401 without a token and with an invalid one', async () => {
    expectError(await received(undefined), 401, 'unauthorized');
    expectError(await received(bearer('not.a.token')), 401, 'invalid_token');
  });

  it('refuses unknown parameters, an unknown target type and out-of-range paging with 400, and accepts `lang`', async () => {
    const { auth } = await signedIn({ role: 'agency' });
    for (const query of ['?author_id=1', '?sort_by=d_date', '?target_type=user', '?target_type=', '?per_page=101', '?page=0']) {
      expectError(await received(auth, query), 400, 'validation_failed');
    }
    expect((await received(auth, '?lang=ar&target_type=agency')).statusCode).toBe(200);
  });

  it('answers the review records with their targets’ titles, newest first, for each kind of target', async () => {
    const w = await agencyWorld();
    // The agency likes the review of its agent; someone else dislikes it.
    await api.react(w.agencyAuth, w.reviews.agent, 'likes');
    await api.react((await signedIn()).auth, w.reviews.agent, 'dislikes');
    const res = await received(w.agencyAuth);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data.pagination).toEqual(pagination(4, 1, 10));
    expect(data.reviews.map((r: Received) => [r.id, r.target_type, r.target_id, r.target_title])).toEqual([
      [w.reviews.agencyListing, 'property', w.listings.agencyListing, 'Agency loft'],
      [w.reviews.agentListing, 'property', w.listings.agentListing, 'Agent villa'],
      [w.reviews.agent, 'agent', w.agentId, w.agentUser.display_name],
      [w.reviews.agency, 'agency', w.agencyId, w.agencyUser.display_name],
    ]);
    // Each as GET /users/reviews gives it: the review record, the caller's own reaction, the title.
    expect(data.reviews[2]).toEqual({
      id: w.reviews.agent,
      target_type: 'agent',
      target_id: w.agentId,
      target_title: w.agentUser.display_name,
      rating: 4,
      title: '',
      content: 'Fine',
      likes: 1,
      dislikes: 1,
      my_reaction: 'like',
      author: { id: expect.any(Number), display_name: expect.any(String), avatar_url: null },
      created_at: '2026-05-05T10:00:00Z',
    });
  });

  it('holds only reviews of the caller’s own records, by the owner rule of listings (docs/api.md 0.3)', async () => {
    const w = await agencyWorld();
    // The agent: their listing and their agent record, not the agency's listing or the agency.
    expect(await idsOf(w.agentAuth)).toEqual([w.reviews.agentListing, w.reviews.agent]);
    // The listing naming the agency in `agency_id` stays its author's: the agency is not its owner.
    expect(await idsOf(w.strangerAuth)).toEqual([w.reviews.strangerListing]);
    expect(await idsOf(w.agencyAuth)).not.toContain(w.reviews.strangerListing);
    // The other agency's user gets its own agency and agent, none of these.
    expect(await idsOf(await sessionFor(t, w.other.agencyUser))).toEqual([w.reviews.otherAgent, w.reviews.otherAgency]);
  });

  it('is exactly what the caller may not review as their own', async () => {
    const w = await agencyWorld();
    const mine = new Set(await idsOf(w.agencyAuth, '?per_page=100'));
    const targets: [ReviewTarget, number, number][] = [
      ['property', w.listings.agencyListing, w.reviews.agencyListing],
      ['property', w.listings.agentListing, w.reviews.agentListing],
      ['agent', w.agentId, w.reviews.agent],
      ['agency', w.agencyId, w.reviews.agency],
      ['property', w.listings.strangerListing, w.reviews.strangerListing],
    ];
    for (const [type, id, reviewId] of targets) {
      const res = await api.create(w.agencyAuth, type, id, { rating: 5, content: 'Self-praise' });
      expect(res.statusCode === 403, `${type} ${id}: ${res.body}`).toBe(mine.has(reviewId));
    }
  });

  it('follows the ownership as it is now: states of listings, hidden agents, agents leaving the agency', async () => {
    const w = await agencyWorld();
    // A listing back in draft, and a hidden agent, stay the agency's, titles included (they may see them).
    await db.updateTable('listings').set({ status: 'draft', published_at: null }).where('id', '=', w.listings.agentListing).execute();
    await db.updateTable('agents').set({ visible: 0 }).where('id', '=', w.agentId).execute();
    const titles = reviewsOf(await received(w.agencyAuth)).map((r) => r.target_title);
    expect(titles).toEqual(['Agency loft', 'Agent villa', w.agentUser.display_name, w.agencyUser.display_name]);
    // Once the agent leaves, its record and listings are no longer the agency's; they stay the agent's.
    const detached = await t.app.inject({
      method: 'DELETE',
      url: `${API}/agencies/${w.agencyId}/agents/${w.agentId}`,
      headers: w.agencyAuth,
    });
    expect(detached.statusCode, detached.body).toBe(200);
    expect(await idsOf(w.agencyAuth)).toEqual([w.reviews.agencyListing, w.reviews.agency]);
    expect(await idsOf(w.agentAuth)).toEqual([w.reviews.agentListing, w.reviews.agent]);
  });

  it('includes the reviews of the agency’s agents that have no account', async () => {
    const w = await agencyWorld();
    const userless = await newAgent(db, { agency_id: w.agencyId, name: 'Agent without account' });
    const review = await reviewOf('agent', userless, '2026-05-08T10:00:00.000Z');
    expect((await idsOf(w.agencyAuth))[0]).toBe(review);
    expect((await received(w.agencyAuth)).json().data.pagination.total_records).toBe(5);
  });

  it('keeps one kind of target with `target_type`', async () => {
    const w = await agencyWorld();
    expect(await idsOf(w.agencyAuth, '?target_type=property')).toEqual([w.reviews.agencyListing, w.reviews.agentListing]);
    expect(await idsOf(w.agencyAuth, '?target_type=agent')).toEqual([w.reviews.agent]);
    expect(await idsOf(w.agencyAuth, '?target_type=agency')).toEqual([w.reviews.agency]);
    expect(await idsOf(w.strangerAuth, '?target_type=agency')).toEqual([]);
    expect((await received(w.agencyAuth, '?target_type=property')).json().data.pagination).toEqual(pagination(2, 1, 10));
  });

  it('pages newest first, ties by id descending, with `paged` as an alias and true figures past the last page', async () => {
    const seller = await signedIn({ role: 'seller' });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await reviewOf('property', await newListing(db, { author_id: seller.user.id }), '2026-01-01T00:00:00.000Z'));
    await setCreatedAt(ids[0]!, '2026-01-03T10:00:00.000Z');
    await setCreatedAt(ids[4]!, '2025-12-31T10:00:00.000Z');
    const order = [ids[0], ids[3], ids[2], ids[1], ids[4]];

    const first = await received(seller.auth, '?per_page=2');
    expect(reviewsOf(first).map((r) => r.id)).toEqual(order.slice(0, 2));
    expect(first.json().data.pagination).toEqual(pagination(5, 1, 2));
    expect(await idsOf(seller.auth, '?per_page=2&page=2')).toEqual(order.slice(2, 4));
    expect(await idsOf(seller.auth, '?per_page=2&paged=3')).toEqual(order.slice(4));
    expect((await received(seller.auth, '?per_page=2&page=4')).json().data).toEqual({ reviews: [], pagination: pagination(5, 4, 2) });
  });

  it('answers an empty list to callers who own nothing reviewed, administrators included', async () => {
    await agencyWorld(); // reviews exist, of other people's records
    for (const role of ['buyer', 'administrator', 'manager', 'agency'] as const) {
      const { auth } = await signedIn({ role });
      expect((await received(auth)).json(), role).toEqual({ success: true, data: { reviews: [], pagination: pagination(0, 1, 10) } });
    }
  });

  it('documents the route, its filter and the shared UserReview records in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    const operation = doc.paths[`${API}/users/reviews-received`].get;
    expect(operation.security).toEqual([{ bearer: [] }]);
    const params = operation.parameters as { name: string; schema: { enum?: string[] } }[];
    expect(params.map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'paged', 'per_page', 'target_type']));
    expect(params.find((p) => p.name === 'target_type')!.schema.enum).toEqual(['property', 'agent', 'agency']);
    expect(JSON.stringify(operation.responses['200'])).toContain('#/components/schemas/UserReview');
  });
});

describeEachDialect('GET /users/reviews-received in a fixed number of queries (%s)', (dialect) => {
  const appSelects = new SelectCounter();
  let database: TestDatabase;
  let services: Services;
  let app: FastifyInstance;
  let auth: Auth;
  let firstListing: number;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const deps = { config: testConfig(), database: { ...database, db: database.db.withPlugin(appSelects) }, jwtSecret: TEST_JWT_SECRET };
    services = createServices(deps);
    app = await buildApp(deps, services);
    await app.ready();
    const db = database.db;
    const { agencyUser, agencyId, agentUser, agentId } = await newAgencyWithAgent(db);
    auth = bearer((await services.auth.signIn(agencyUser)).token);
    const reviewer = await newUser(db);
    const liker = await newUser(db);
    const now = new Date().toISOString();
    const review = async (target_type: ReviewTarget, target_id: number) => {
      const row = await db
        .insertInto('reviews')
        .values({ target_type, target_id, author_id: reviewer.id, rating: 4, content: 'x', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('review_reactions').values({ review_id: row.id, user_id: liker.id, reaction: 'like', created_at: now }).execute();
    };
    // Forty listings, the agency's and its agent's, half of them reviewed: many more than a page.
    for (let i = 0; i < 40; i++) {
      const listing = await newListing(db, { author_id: i % 2 === 0 ? agencyUser.id : agentUser.id });
      firstListing ??= listing;
      if (i % 2 === 0) await review('property', listing);
    }
    // Written last, so that the first page (ties by id descending) holds every kind of target.
    await review('agent', agentId);
    await review('agency', agencyId);
  });
  afterAll(async () => {
    await app?.close();
    await services?.shutdown();
    await database?.dispose();
  });

  /** SELECTs of one request, on empty listing caches (a write renews the stamp and so empties them). */
  const selectsOf = async (query: string) => {
    await database.db.updateTable('listings').set({ views: 0 }).where('id', '=', firstListing).execute();
    const before = appSelects.selects;
    const res = await app.inject({ method: 'GET', url: `${API}/users/reviews-received${query}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    const reviews = res.json().data.reviews as { target_title: string | null; likes: number }[];
    expect(reviews.every((review) => review.target_title !== null && review.likes === 1)).toBe(true);
    return { selects: appSelects.selects - before, count: reviews.length, total: res.json().data.pagination.total_records };
  };

  it('takes the same queries for 3 reviews as for 22, over all three kinds of target and forty listings', async () => {
    await selectsOf('?per_page=3'); // warms the session cache, where there is one
    const few = await selectsOf('?per_page=3');
    const many = await selectsOf('?per_page=100');
    expect([few.count, many.count, many.total]).toEqual([3, 22, 22]);
    expect(many.selects).toBe(few.selects);
  });
});
