import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createServices, type Services } from '../../src/app.js';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, TEST_JWT_SECRET, type TestApp, testConfig } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { pagination } from '../helpers/expectations.js';
import { bearer, newAgency, newAgencyWithAgent, newListing, newUser, sessionFor } from '../helpers/factories.js';
import { SelectCounter } from '../helpers/select-counter.js';
import { API, type Auth, createdId, expectError, type ReviewClient, reviewClient } from './review-fixtures.js';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describeEachDialect('GET /users/reviews (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let api: ReviewClient;
  let seller: UserRow;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    api = reviewClient(t);
    seller = await newUser(db, { role: 'seller' });
  });
  afterAll(() => t.close());

  const mine = (auth: Auth | undefined, query = '') =>
    t.app.inject({ method: 'GET', url: `${API}/users/reviews${query}`, headers: auth ?? {} });
  const reviewsOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.reviews as { id: number; target_type: string; target_id: number; target_title: string | null }[];
  };
  const newReviewer = async (overrides: Partial<UserRow> = {}) => {
    const user = await newUser(db, { display_name: 'Rita Reviewer', ...overrides });
    return { user, auth: await sessionFor(t, user) };
  };
  const listing = (title = 'Sea view flat') => newListing(db, { title, author_id: seller.id });
  const setCreatedAt = (id: number, at: string) => db.updateTable('reviews').set({ created_at: at }).where('id', '=', id).execute();

  it('answers 401 without a token and with an invalid one (the static path is not taken for /users/{id})', async () => {
    expectError(await mine(undefined), 401, 'unauthorized');
    expectError(await mine(bearer('not.a.token')), 401, 'invalid_token');
  });

  it('refuses unknown query parameters and out-of-range paging with 400, and accepts `lang`', async () => {
    const { auth } = await newReviewer();
    for (const query of ['?author_id=1', '?sort_by=d_date', '?per_page=101', '?page=0', '?per_page=abc']) {
      expectError(await mine(auth, query), 400, 'validation_failed');
    }
    expect((await mine(auth, '?lang=fr')).statusCode).toBe(200);
  });

  it('answers an empty list to a user who wrote no review', async () => {
    const { auth } = await newReviewer();
    expect((await mine(auth)).json()).toEqual({ success: true, data: { reviews: [], pagination: pagination(0, 1, 10) } });
  });

  it('answers the review records with the target’s title or name, for each kind of target', async () => {
    const { user, auth } = await newReviewer();
    const listingId = await listing('Sea view flat');
    const { agentId, agencyId, agentUser, agencyUser } = await newAgencyWithAgent(db);
    const propertyReview = await api
      .create(auth, 'property', listingId, { rating: 4, title: 'Nice', content: 'Bright rooms' })
      .then(createdId);
    const agentReview = await api.create(auth, 'agent', agentId, { rating: 5, content: 'Helpful' }).then(createdId);
    const agencyReview = await api.create(auth, 'agency', agencyId, { rating: 2, content: 'Slow' }).then(createdId);
    await setCreatedAt(propertyReview, '2026-03-03T10:00:00.000Z');
    await setCreatedAt(agentReview, '2026-03-02T10:00:00.000Z');
    await setCreatedAt(agencyReview, '2026-03-01T10:00:00.000Z');
    // Someone else likes the listing review; the reviewer dislikes their own agency review.
    await api.react((await newReviewer()).auth, propertyReview, 'likes');
    await api.react(auth, agencyReview, 'dislikes');

    const res = await mine(auth);
    expect(res.statusCode, res.body).toBe(200);
    const author = { id: user.id, display_name: 'Rita Reviewer', avatar_url: null };
    expect(res.json()).toEqual({
      success: true,
      data: {
        reviews: [
          {
            id: propertyReview,
            target_type: 'property',
            target_id: listingId,
            target_title: 'Sea view flat',
            rating: 4,
            title: 'Nice',
            content: 'Bright rooms',
            likes: 1,
            dislikes: 0,
            my_reaction: null,
            author,
            created_at: '2026-03-03T10:00:00Z',
          },
          {
            id: agentReview,
            target_type: 'agent',
            target_id: agentId,
            target_title: agentUser.display_name,
            rating: 5,
            title: '',
            content: 'Helpful',
            likes: 0,
            dislikes: 0,
            my_reaction: null,
            author,
            created_at: '2026-03-02T10:00:00Z',
          },
          {
            id: agencyReview,
            target_type: 'agency',
            target_id: agencyId,
            target_title: agencyUser.display_name,
            rating: 2,
            title: '',
            content: 'Slow',
            likes: 0,
            dislikes: 1,
            my_reaction: 'dislike',
            author,
            created_at: '2026-03-01T10:00:00Z',
          },
        ],
        pagination: pagination(3, 1, 10),
      },
    });
  });

  it('shows only the caller’s own reviews', async () => {
    const me = await newReviewer();
    const other = await newReviewer();
    const shared = await listing();
    const myReview = await api.create(me.auth, 'property', shared, { rating: 3, content: 'Mine' }).then(createdId);
    const theirReview = await api.create(other.auth, 'property', shared, { rating: 1, content: 'Theirs' }).then(createdId);
    await api.create(other.auth, 'property', await listing(), { rating: 5, content: 'Theirs too' }).then(createdId);
    expect(reviewsOf(await mine(me.auth)).map((r) => r.id)).toEqual([myReview]);
    expect((await mine(me.auth)).json().data.pagination).toEqual(pagination(1, 1, 10));
    expect(reviewsOf(await mine(other.auth)).map((r) => r.id)).not.toContain(myReview);
    expect(reviewsOf(await mine(other.auth)).map((r) => r.id)).toContain(theirReview);
  });

  it('pages newest first, ties by id descending, with `paged` as an alias and true figures past the last page', async () => {
    const { auth } = await newReviewer();
    const ids: number[] = [];
    for (let i = 0; i < 4; i++)
      ids.push(await api.create(auth, 'property', await listing(), { rating: 3, content: `R${i}` }).then(createdId));
    await setCreatedAt(ids[0]!, '2026-01-01T10:00:00.000Z');
    await setCreatedAt(ids[1]!, '2026-01-02T10:00:00.000Z');
    await setCreatedAt(ids[2]!, '2026-01-02T10:00:00.000Z');
    await setCreatedAt(ids[3]!, '2026-01-03T10:00:00.000Z');
    const newestFirst = [ids[3], ids[2], ids[1], ids[0]];

    const first = await mine(auth, '?per_page=3');
    expect(reviewsOf(first).map((r) => r.id)).toEqual(newestFirst.slice(0, 3));
    expect(first.json().data.pagination).toEqual(pagination(4, 1, 3));
    const second = await mine(auth, '?per_page=3&page=2');
    expect(reviewsOf(second).map((r) => r.id)).toEqual(newestFirst.slice(3));
    expect(second.json().data.pagination).toEqual(pagination(4, 2, 3));
    expect(reviewsOf(await mine(auth, '?per_page=3&paged=2')).map((r) => r.id)).toEqual(newestFirst.slice(3));
    const past = await mine(auth, '?per_page=3&page=9');
    expect(past.json().data).toEqual({ reviews: [], pagination: pagination(4, 9, 3) });
  });

  describe('targets that are gone or hidden', () => {
    const titleOf = async (auth: Auth, reviewId: number) => {
      const found = reviewsOf(await mine(auth, '?per_page=100')).find((r) => r.id === reviewId);
      expect(found).toBeDefined();
      return found!.target_title;
    };

    it('keeps the review but hides the title of a listing the caller can no longer see, and shows it again once public', async () => {
      const { auth } = await newReviewer();
      const id = await listing('Garden house');
      const reviewId = await api.create(auth, 'property', id, { rating: 4, content: 'Quiet' }).then(createdId);
      expect(await titleOf(auth, reviewId)).toBe('Garden house');
      for (const status of ['draft', 'pending', 'on_hold', 'expired', 'disapproved'] as const) {
        await db.updateTable('listings').set({ status }).where('id', '=', id).execute();
        const review = reviewsOf(await mine(auth)).find((r) => r.id === reviewId);
        expect(review, status).toMatchObject({ target_type: 'property', target_id: id, target_title: null });
      }
      await db.updateTable('listings').set({ status: 'sold' }).where('id', '=', id).execute();
      expect(await titleOf(auth, reviewId)).toBe('Garden house');
    });

    it('shows the title of an unpublished listing to a caller who may still see it (a manager)', async () => {
      const { auth } = await newReviewer({ role: 'manager' });
      const id = await listing('Loft');
      const reviewId = await api.create(auth, 'property', id, { rating: 5, content: 'Great' }).then(createdId);
      await db.updateTable('listings').set({ status: 'draft' }).where('id', '=', id).execute();
      expect(await titleOf(auth, reviewId)).toBe('Loft');
    });

    it('answers a null title for a deleted agent or agency; a deleted listing takes its reviews with it', async () => {
      const { auth } = await newReviewer();
      const id = await listing('Gone soon');
      const { agentId } = await newAgencyWithAgent(db);
      const agencyId = await newAgency(db, { name: 'Short-lived agency' });
      const listingReview = await api.create(auth, 'property', id, { rating: 3, content: 'x' }).then(createdId);
      const agentReview = await api.create(auth, 'agent', agentId, { rating: 3, content: 'x' }).then(createdId);
      const agencyReview = await api.create(auth, 'agency', agencyId, { rating: 3, content: 'x' }).then(createdId);
      expect(await titleOf(auth, agencyReview)).toBe('Short-lived agency');
      await db.deleteFrom('listings').where('id', '=', id).execute();
      await db.deleteFrom('agents').where('id', '=', agentId).execute();
      await db.deleteFrom('agencies').where('id', '=', agencyId).execute();
      const res = await mine(auth);
      expect(reviewsOf(res).map((r) => [r.id, r.target_type, r.target_id, r.target_title])).toEqual([
        [agencyReview, 'agency', agencyId, null],
        [agentReview, 'agent', agentId, null],
      ]);
      expect(res.json().data.pagination).toEqual(pagination(2, 1, 10));
      expect(reviewsOf(res).map((r) => r.id)).not.toContain(listingReview);
    });

    it('hides the name of a hidden agent from the reviewer, and not from its managers', async () => {
      const reviewer = await newReviewer();
      const manager = await newReviewer({ role: 'manager' });
      const { agentId, agentUser } = await newAgencyWithAgent(db);
      const fromReviewer = await api.create(reviewer.auth, 'agent', agentId, { rating: 4, content: 'x' }).then(createdId);
      const fromManager = await api.create(manager.auth, 'agent', agentId, { rating: 4, content: 'x' }).then(createdId);
      await db.updateTable('agents').set({ visible: 0 }).where('id', '=', agentId).execute();
      expect(await titleOf(reviewer.auth, fromReviewer)).toBeNull();
      expect(await titleOf(manager.auth, fromManager)).toBe(agentUser.display_name);
    });
  });

  it('documents the route and the UserReview schema in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    expect(doc.components.schemas.UserReview.properties).toHaveProperty('target_title');
    const operation = doc.paths[`${API}/users/reviews`].get;
    expect(operation.security).toEqual([{ bearer: [] }]);
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['page', 'paged', 'per_page']));
  });

  it('answers a created review’s timestamp in the API’s format', async () => {
    const { auth } = await newReviewer();
    await api.create(auth, 'property', await listing(), { rating: 3, content: 'x' }).then(createdId);
    expect(reviewsOf(await mine(auth))[0]).toMatchObject({ created_at: expect.stringMatching(TIMESTAMP) });
  });
});

describeEachDialect('GET /users/reviews in a fixed number of queries (%s)', (dialect) => {
  const REVIEWS = 21;
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
    const seller = await newUser(db, { role: 'seller' });
    const reviewer = await newUser(db);
    const other = await newUser(db);
    auth = bearer((await services.auth.signIn(reviewer)).token);
    const now = new Date().toISOString();
    // Listings, agents and agencies in turn, each review liked by another user: everything a record shows.
    for (let i = 0; i < REVIEWS; i++) {
      const target =
        i % 3 === 0
          ? { target_type: 'property' as const, target_id: await newListing(db, { author_id: seller.id }) }
          : i % 3 === 1
            ? { target_type: 'agent' as const, target_id: (await newAgencyWithAgent(db)).agentId }
            : { target_type: 'agency' as const, target_id: await newAgency(db) };
      if (target.target_type === 'property') firstListing ??= target.target_id;
      const review = await db
        .insertInto('reviews')
        .values({ ...target, author_id: reviewer.id, rating: 4, content: 'x', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('review_reactions')
        .values({ review_id: review.id, user_id: other.id, reaction: 'like', created_at: now })
        .execute();
    }
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
    const res = await app.inject({ method: 'GET', url: `${API}/users/reviews${query}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    const reviews = res.json().data.reviews as { target_title: string | null; likes: number }[];
    expect(reviews.every((review) => review.target_title !== null && review.likes === 1)).toBe(true);
    return { selects: appSelects.selects - before, count: reviews.length };
  };

  it('takes the same queries for 3 reviews as for 21, over all three kinds of target', async () => {
    await selectsOf('?per_page=3'); // warms the session cache, where there is one
    const few = await selectsOf('?per_page=3');
    const many = await selectsOf(`?per_page=${REVIEWS}`);
    expect([few.count, many.count]).toEqual([3, REVIEWS]);
    expect(many.selects).toBe(few.selects);
  });
});
