import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgencyWithAgent, newListing, newUser, sessionFor } from '../helpers/factories.js';
import { pagination } from '../helpers/expectations.js';
import { type Auth, createdId, expectError, type ReviewClient, reviewClient } from './review-fixtures.js';

describeEachDialect('GET …/{id}/reviews (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let api: ReviewClient;
  let seller: UserRow;
  let sellerAuth: Auth;
  let managerAuth: Auth;
  const reviewers: { user: UserRow; auth: Auth }[] = [];

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    api = reviewClient(t);
    seller = await newUser(db, { role: 'seller' });
    sellerAuth = await sessionFor(t, seller);
    managerAuth = await sessionFor(t, await newUser(db, { role: 'manager' }));
    for (let i = 0; i < 4; i++) {
      const user = await newUser(db, { display_name: `Reviewer ${i}` });
      reviewers.push({ user, auth: await sessionFor(t, user) });
    }
  });
  afterAll(() => t.close());

  const listing = (status: 'publish' | 'draft' | 'sold' = 'publish') => newListing(db, { status, author_id: seller.id });
  const review = (i: number, type: 'property' | 'agent' | 'agency', id: number, rating: number, extra: object = {}) =>
    api.create(reviewers[i]!.auth, type, id, { rating, content: `Review ${i}`, ...extra }).then(createdId);
  const setCreatedAt = (id: number, at: string) => db.updateTable('reviews').set({ created_at: at }).where('id', '=', id).execute();

  it('answers a listing’s reviews with the records, paging, rating and count', async () => {
    const id = await listing();
    const reviewId = await review(0, 'property', id, 4, { title: 'Nice' });
    const res = await api.list('property', id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('public, no-cache');
    expect(res.headers.etag).toBeTruthy();
    expect(res.json()).toEqual({
      success: true,
      data: {
        reviews: [
          {
            id: reviewId,
            target_type: 'property',
            target_id: id,
            rating: 4,
            title: 'Nice',
            content: 'Review 0',
            likes: 0,
            dislikes: 0,
            my_reaction: null,
            author: { id: reviewers[0]!.user.id, display_name: 'Reviewer 0', avatar_url: null },
            created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          },
        ],
        pagination: pagination(1, 1, 10),
        rating: 4,
        reviews_count: 1,
      },
    });
    // The same answer revalidates to 304.
    const again = await api.list('property', id, '', { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('answers an agent’s and an agency’s reviews', async () => {
    const { agentId, agencyId } = await newAgencyWithAgent(db);
    await review(0, 'agent', agentId, 5);
    await review(1, 'agent', agentId, 2);
    await review(0, 'agency', agencyId, 3);
    const agent = (await api.list('agent', agentId)).json().data;
    expect(agent.reviews.map((r: { rating: number }) => r.rating)).toEqual([2, 5]);
    expect(agent).toMatchObject({ rating: 3.5, reviews_count: 2, pagination: pagination(2, 1, 10) });
    expect(agent.reviews[0]).toMatchObject({ target_type: 'agent', target_id: agentId });
    const agency = (await api.list('agency', agencyId)).json().data;
    expect(agency).toMatchObject({ rating: 3, reviews_count: 1 });
    expect(agency.reviews[0]).toMatchObject({ target_type: 'agency', target_id: agencyId });
  });

  it('answers an empty list with a null rating for a target without reviews', async () => {
    const res = await api.list('property', await listing());
    expect(res.json().data).toEqual({ reviews: [], pagination: pagination(0, 1, 10), rating: null, reviews_count: 0 });
  });

  describe('sorting and paging', () => {
    let id: number;
    let ids: number[];

    beforeAll(async () => {
      id = await listing();
      ids = [
        await review(0, 'property', id, 3),
        await review(1, 'property', id, 5),
        await review(2, 'property', id, 3),
        await review(3, 'property', id, 1),
      ];
      // Reviews 1 and 2 were written at the same moment: ties fall back to id, descending.
      await setCreatedAt(ids[0]!, '2026-01-01T10:00:00.000Z');
      await setCreatedAt(ids[1]!, '2026-01-02T10:00:00.000Z');
      await setCreatedAt(ids[2]!, '2026-01-02T10:00:00.000Z');
      await setCreatedAt(ids[3]!, '2026-01-03T10:00:00.000Z');
    });

    const order = async (query: string) => {
      const res = await api.list('property', id, query);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.reviews as { id: number }[]).map((r) => r.id);
    };

    it.each([
      ['', [3, 2, 1, 0]],
      ['?sort_by=d_date', [3, 2, 1, 0]],
      ['?sort_by=a_date', [0, 2, 1, 3]],
      ['?sort_by=d_rating', [1, 2, 0, 3]],
      ['?sort_by=a_rating', [3, 2, 0, 1]],
    ])('orders by %s, ties by id descending', async (query, expected) => {
      expect(await order(query)).toEqual(expected.map((i) => ids[i]));
    });

    it('pages, with `paged` as an alias and true figures past the last page', async () => {
      const second = (await api.list('property', id, '?sort_by=a_date&per_page=3&page=2')).json().data;
      expect(second.reviews.map((r: { id: number }) => r.id)).toEqual([ids[3]]);
      expect(second.pagination).toEqual(pagination(4, 2, 3));
      expect(await order('?per_page=2&paged=2')).toEqual([ids[1], ids[0]]);
      const past = (await api.list('property', id, '?page=5&per_page=2')).json().data;
      expect(past).toMatchObject({ reviews: [], pagination: pagination(4, 5, 2), reviews_count: 4 });
    });

    it('refuses bad paging and sort values and unknown parameters', async () => {
      for (const query of ['?per_page=101', '?page=0', '?sort_by=rating', '?sortby=d_date', '?author_id=1']) {
        expectError(await api.list('property', id, query), 400, 'validation_failed');
      }
    });
  });

  it('shows new and deleted reviews and changed author names at once to anonymous callers (cache)', async () => {
    const id = await listing();
    expect((await api.list('property', id)).json().data.reviews_count).toBe(0);
    const reviewId = await review(0, 'property', id, 5);
    expect((await api.list('property', id)).json().data).toMatchObject({ reviews_count: 1, rating: 5 });
    await db.updateTable('users').set({ display_name: 'Renamed reviewer' }).where('id', '=', reviewers[0]!.user.id).execute();
    expect((await api.list('property', id)).json().data.reviews[0].author.display_name).toBe('Renamed reviewer');
    await db.updateTable('users').set({ display_name: 'Reviewer 0' }).where('id', '=', reviewers[0]!.user.id).execute();
    expect((await api.remove(reviewers[0]!.auth, reviewId)).statusCode).toBe(200);
    expect((await api.list('property', id)).json().data).toMatchObject({ reviews: [], reviews_count: 0, rating: null });
  });

  it('adds the caller’s reaction for signed-in callers, privately', async () => {
    const id = await listing();
    const first = await review(0, 'property', id, 4);
    const second = await review(1, 'property', id, 2);
    await api.react(reviewers[2]!.auth, first, 'likes');
    await api.react(reviewers[2]!.auth, second, 'dislikes');
    await api.react(reviewers[3]!.auth, second, 'dislikes');
    const mine = await api.list('property', id, '', reviewers[2]!.auth);
    expect(mine.headers['cache-control']).toBe('private, no-cache');
    expect(mine.json().data.reviews.map((r: object) => r)).toEqual([
      expect.objectContaining({ id: second, likes: 0, dislikes: 2, my_reaction: 'dislike' }),
      expect.objectContaining({ id: first, likes: 1, dislikes: 0, my_reaction: 'like' }),
    ]);
    // Anonymous callers see the counts without a reaction, and the signed-in answer did not leak into the cache.
    expect((await api.list('property', id)).json().data.reviews.map((r: { my_reaction: unknown }) => r.my_reaction)).toEqual([null, null]);
    expect(
      (await api.list('property', id, '', reviewers[0]!.auth)).json().data.reviews.map((r: { my_reaction: unknown }) => r.my_reaction),
    ).toEqual([null, null]);
  });

  describe('visibility', () => {
    it('hides the reviews of a listing the caller cannot see (404), and shows them to its owner and managers', async () => {
      const id = await listing();
      await review(0, 'property', id, 5);
      await db.updateTable('listings').set({ status: 'draft' }).where('id', '=', id).execute();
      expectError(await api.list('property', id), 404, 'not_found');
      expectError(await api.list('property', id, '', reviewers[1]!.auth), 404, 'not_found');
      expect((await api.list('property', id, '', sellerAuth)).json().data.reviews_count).toBe(1);
      expect((await api.list('property', id, '', managerAuth)).statusCode).toBe(200);
      await db.updateTable('listings').set({ status: 'sold' }).where('id', '=', id).execute();
      expect((await api.list('property', id)).statusCode).toBe(200);
    });

    it('hides the reviews of a hidden agent from everyone but its managers', async () => {
      const { agentId, agentUser, agencyUser } = await newAgencyWithAgent(db);
      await db.updateTable('agents').set({ visible: 0 }).where('id', '=', agentId).execute();
      expectError(await api.list('agent', agentId), 404, 'not_found');
      expectError(await api.list('agent', agentId, '', reviewers[0]!.auth), 404, 'not_found');
      expect((await api.list('agent', agentId, '', await sessionFor(t, agentUser))).statusCode).toBe(200);
      expect((await api.list('agent', agentId, '', await sessionFor(t, agencyUser))).statusCode).toBe(200);
      expect((await api.list('agent', agentId, '', managerAuth)).statusCode).toBe(200);
    });

    it('answers 404 for unknown targets and malformed ids', async () => {
      expectError(await api.list('property', 999_999), 404, 'not_found');
      expectError(await api.list('agent', 999_999), 404, 'not_found');
      expectError(await api.list('agency', 999_999), 404, 'not_found');
      expectError(await api.list('agency', 0), 400, 'validation_failed');
    });
  });

  it('documents the routes and the Review schema in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/realty-api/v1/openapi.json' })).json();
    expect(doc.components.schemas).toHaveProperty('Review');
    for (const segment of ['properties', 'agents', 'agencies']) {
      expect(Object.keys(doc.paths[`/realty-api/v1/${segment}/{id}/reviews`])).toEqual(expect.arrayContaining(['get', 'post']));
    }
    expect(doc.paths['/realty-api/v1/reviews/{id}/action']).toHaveProperty('post');
    expect(doc.paths['/realty-api/v1/reviews/{id}']).toHaveProperty('delete');
  });

  it('answers an invalid token with 401 even on this public route', async () => {
    const res = await api.list('property', await listing(), '', { authorization: 'Bearer not-a-token' });
    expect(res.statusCode).toBe(401);
  });
});
