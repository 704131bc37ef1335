import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, ReviewTarget, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgencyWithAgent, newListing, newUser, sessionFor } from '../helpers/factories.js';
import { API, type Auth, createdId, expectError, type ReviewClient, reviewClient } from './review-fixtures.js';

describeEachDialect('POST …/{id}/reviews (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let api: ReviewClient;
  let seller: UserRow;
  let sellerAuth: Auth;
  let buyer: UserRow;
  let buyerAuth: Auth;
  let otherAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    api = reviewClient(t);
    seller = await newUser(db, { role: 'seller' });
    buyer = await newUser(db, { display_name: 'Bea Buyer' });
    [sellerAuth, buyerAuth, otherAuth] = await Promise.all([sessionFor(t, seller), sessionFor(t, buyer), sessionFor(t, await newUser(db))]);
  });
  afterAll(() => t.close());

  const listing = (status: 'publish' | 'draft' | 'sold' | 'pending' = 'publish', authorId = seller.id) =>
    newListing(db, { status, author_id: authorId });
  const totalsOf = (table: 'listings' | 'agents' | 'agencies', id: number) =>
    db.selectFrom(table).select(['rating_sum', 'reviews_count']).where('id', '=', id).executeTakeFirstOrThrow();
  const listingRecord = async (id: number) => {
    const { rating, reviews_count } = (await t.app.inject({ method: 'GET', url: `${API}/properties/${id}` })).json().data;
    return { rating, reviews_count };
  };

  it.each<[ReviewTarget]>([['property'], ['agent'], ['agency']])('answers 201 with the review of a %s', async (type) => {
    const { agentId, agencyId } = await newAgencyWithAgent(db);
    const id = type === 'property' ? await listing() : type === 'agent' ? agentId : agencyId;
    const res = await api.create(buyerAuth, type, id, { rating: 4, title: 'Good', content: 'Helpful and quick.' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      success: true,
      data: {
        id: expect.any(Number),
        target_type: type,
        target_id: id,
        rating: 4,
        title: 'Good',
        content: 'Helpful and quick.',
        likes: 0,
        dislikes: 0,
        my_reaction: null,
        author: { id: buyer.id, display_name: 'Bea Buyer', avatar_url: null },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      },
    });
  });

  it('takes the title as optional and strips HTML from title and content', async () => {
    const untitled = await api.create(buyerAuth, 'property', await listing(), { rating: 5, content: '  Lovely  ' });
    expect(untitled.json().data).toMatchObject({ title: '', content: 'Lovely' });
    const html = await api.create(buyerAuth, 'property', await listing(), {
      rating: 3,
      title: '<b>Great</b> place<script>',
      content: '<p>Nice <em>view</em></p><!-- hidden -->, rooms < 3',
    });
    expect(html.json().data).toMatchObject({ title: 'Great place', content: 'Nice view, rooms < 3' });
  });

  it('shows the author’s avatar', async () => {
    const user = await newUser(db);
    const avatar = await db
      .insertInto('media')
      .values({
        owner_id: user.id,
        storage_key: 'avatars/a.jpg',
        mime_type: 'image/jpeg',
        size_bytes: 10,
        sizes: JSON.stringify({ medium: { key: 'avatars/a-medium.jpg', width: 600, height: 600 } }),
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('users').set({ avatar_media_id: avatar.id }).where('id', '=', user.id).execute();
    const res = await api.create(await sessionFor(t, user), 'property', await listing(), { rating: 5, content: 'Fine' });
    expect(res.json().data.author.avatar_url).toMatch(/^http.*avatars\/a-medium\.jpg$/);
  });

  it('answers 401 without a token', async () => {
    expectError(await api.create(undefined, 'property', await listing(), { rating: 5, content: 'x' }), 401, 'unauthorized');
  });

  describe('validation', () => {
    it.each([
      ['rating 0', { rating: 0, content: 'x' }, 'rating'],
      ['rating 6', { rating: 6, content: 'x' }, 'rating'],
      ['rating 2.5', { rating: 2.5, content: 'x' }, 'rating'],
      ['rating as text', { rating: '5', content: 'x' }, 'rating'],
      ['missing rating', { content: 'x' }, 'rating'],
      ['missing content', { rating: 5 }, 'content'],
      ['empty content', { rating: 5, content: '' }, 'content'],
      ['content over 5,000', { rating: 5, content: 'x'.repeat(5001) }, 'content'],
      ['content of tags only', { rating: 5, content: '<p> </p>' }, 'content'],
      ['title over 200', { rating: 5, title: 't'.repeat(201), content: 'x' }, 'title'],
      ['an unknown field', { rating: 5, content: 'x', author_id: 1 }, 'author_id'],
      ['a counter', { rating: 5, content: 'x', likes: 100 }, 'likes'],
    ])('refuses %s (400)', async (_name, payload, field) => {
      const id = await listing();
      const res = await api.create(buyerAuth, 'property', id, payload);
      expectError(res, 400, 'validation_failed');
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
      expect((await totalsOf('listings', id)).reviews_count).toBe(0);
    });

    it('accepts the limits themselves', async () => {
      const limits = { rating: 1, title: 't'.repeat(200), content: 'x'.repeat(5000) };
      const res = await api.create(buyerAuth, 'property', await listing(), limits);
      expect(res.statusCode, res.body).toBe(201);
      // Kept whole, not cut to fit.
      const stored = await db
        .selectFrom('reviews')
        .select(['rating', 'title', 'content'])
        .where('id', '=', createdId(res))
        .executeTakeFirstOrThrow();
      expect(stored).toEqual(limits);
    });
  });

  it('answers 409 already_reviewed for a second review of the same target, and keeps the first', async () => {
    const id = await listing();
    createdId(await api.create(buyerAuth, 'property', id, { rating: 5, content: 'First' }));
    expectError(await api.create(buyerAuth, 'property', id, { rating: 1, content: 'Second' }), 409, 'already_reviewed');
    expect(await totalsOf('listings', id)).toEqual({ rating_sum: 5, reviews_count: 1 });
  });

  it('answers one 201 and one 409 for a double submit', async () => {
    const id = await listing();
    const payload = { rating: 4, content: 'Twice' };
    const results = await Promise.all([api.create(buyerAuth, 'property', id, payload), api.create(buyerAuth, 'property', id, payload)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('already_reviewed');
    expect(await totalsOf('listings', id)).toEqual({ rating_sum: 4, reviews_count: 1 });
  });

  describe('self-review (403)', () => {
    it('refuses the author of a listing', async () => {
      expectError(await api.create(sellerAuth, 'property', await listing(), { rating: 5, content: 'Mine' }), 403, 'forbidden');
    });

    it('refuses the agency of the listing’s authoring agent', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      const id = await listing('publish', agentUser.id);
      expectError(await api.create(await sessionFor(t, agencyUser), 'property', id, { rating: 5, content: 'Ours' }), 403, 'forbidden');
      expectError(await api.create(await sessionFor(t, agentUser), 'property', id, { rating: 5, content: 'Mine' }), 403, 'forbidden');
    });

    it('refuses an agent reviewing itself, and its agency reviewing it', async () => {
      const { agencyUser, agentUser, agentId } = await newAgencyWithAgent(db);
      expectError(await api.create(await sessionFor(t, agentUser), 'agent', agentId, { rating: 5, content: 'Me' }), 403, 'forbidden');
      expectError(await api.create(await sessionFor(t, agencyUser), 'agent', agentId, { rating: 5, content: 'Ours' }), 403, 'forbidden');
    });

    it('refuses an agency reviewing itself, but not its agent reviewing it', async () => {
      const { agencyUser, agentUser, agencyId } = await newAgencyWithAgent(db);
      expectError(await api.create(await sessionFor(t, agencyUser), 'agency', agencyId, { rating: 5, content: 'Us' }), 403, 'forbidden');
      expect((await api.create(await sessionFor(t, agentUser), 'agency', agencyId, { rating: 4, content: 'My agency' })).statusCode).toBe(
        201,
      );
    });
  });

  describe('targets the caller cannot review', () => {
    it('answers 404 for a listing the caller cannot see, and for unknown targets', async () => {
      for (const status of ['draft', 'pending'] as const) {
        expectError(await api.create(buyerAuth, 'property', await listing(status), { rating: 5, content: 'x' }), 404, 'not_found');
      }
      expectError(await api.create(buyerAuth, 'property', 999_999, { rating: 5, content: 'x' }), 404, 'not_found');
      expectError(await api.create(buyerAuth, 'agent', 999_999, { rating: 5, content: 'x' }), 404, 'not_found');
      expectError(await api.create(buyerAuth, 'agency', 999_999, { rating: 5, content: 'x' }), 404, 'not_found');
    });

    it('answers 404 for a hidden agent', async () => {
      const { agentId } = await newAgencyWithAgent(db);
      await db.updateTable('agents').set({ visible: 0 }).where('id', '=', agentId).execute();
      expectError(await api.create(buyerAuth, 'agent', agentId, { rating: 5, content: 'x' }), 404, 'not_found');
    });

    it('answers 403 to a moderator reviewing a listing that is not public', async () => {
      const manager = await sessionFor(t, await newUser(db, { role: 'manager' }));
      for (const status of ['draft', 'pending'] as const) {
        expectError(await api.create(manager, 'property', await listing(status), { rating: 5, content: 'x' }), 403, 'forbidden');
      }
    });

    it('accepts reviews of sold listings (docs/api.md 12)', async () => {
      expect((await api.create(buyerAuth, 'property', await listing('sold'), { rating: 2, content: 'Sold' })).statusCode).toBe(201);
    });
  });

  describe('aggregates', () => {
    it('updates the listing record’s rating and reviews_count at once on create and delete', async () => {
      const id = await listing();
      expect(await listingRecord(id)).toEqual({ rating: null, reviews_count: 0 });
      const five = createdId(await api.create(buyerAuth, 'property', id, { rating: 5, content: 'a' }));
      expect(await listingRecord(id)).toEqual({ rating: 5, reviews_count: 1 });
      createdId(await api.create(otherAuth, 'property', id, { rating: 4, content: 'b' }));
      expect(await listingRecord(id)).toEqual({ rating: 4.5, reviews_count: 2 });
      const third = createdId(await api.create(await sessionFor(t, await newUser(db)), 'property', id, { rating: 4, content: 'c' }));
      expect(await listingRecord(id)).toEqual({ rating: 4.3, reviews_count: 3 }); // 13 / 3
      expect(await totalsOf('listings', id)).toEqual({ rating_sum: 13, reviews_count: 3 });
      expect((await api.remove(buyerAuth, five)).statusCode).toBe(200);
      expect(await listingRecord(id)).toEqual({ rating: 4, reviews_count: 2 });
      const list = (await api.list('property', id)).json().data;
      expect(list).toMatchObject({ rating: 4, reviews_count: 2 });
      expect(list.pagination.total_records).toBe(2);
      expect((await api.remove(otherAuth, list.reviews.find((r: { id: number }) => r.id !== third).id)).statusCode).toBe(200);
      const admin = await sessionFor(t, await newUser(db, { role: 'administrator' }));
      expect((await api.remove(admin, third)).statusCode).toBe(200);
      expect(await listingRecord(id)).toEqual({ rating: null, reviews_count: 0 });
      expect(await totalsOf('listings', id)).toEqual({ rating_sum: 0, reviews_count: 0 });
    });

    it.each<['agent' | 'agency']>([['agent'], ['agency']])('updates the totals of an %s on create and delete', async (type) => {
      const { agentId, agencyId } = await newAgencyWithAgent(db);
      const id = type === 'agent' ? agentId : agencyId;
      const table = type === 'agent' ? 'agents' : 'agencies';
      const first = createdId(await api.create(buyerAuth, type, id, { rating: 5, content: 'a' }));
      createdId(await api.create(otherAuth, type, id, { rating: 2, content: 'b' }));
      expect(await totalsOf(table, id)).toEqual({ rating_sum: 7, reviews_count: 2 });
      expect((await api.list(type, id)).json().data).toMatchObject({ rating: 3.5, reviews_count: 2 });
      expect((await api.remove(buyerAuth, first)).statusCode).toBe(200);
      expect(await totalsOf(table, id)).toEqual({ rating_sum: 2, reviews_count: 1 });
      expect((await api.list(type, id)).json().data).toMatchObject({ rating: 2, reviews_count: 1 });
    });
  });

  describe('new_review event', () => {
    const eventsOf = async (reviewId: number) => {
      const rows = await db
        .selectFrom('domain_events')
        .select(['type', 'payload', 'processed_at'])
        .where('type', '=', 'new_review')
        .execute();
      return rows
        .map((row) => ({ ...row, payload: JSON.parse(row.payload) as Record<string, unknown> }))
        .filter((row) => row.payload.review_id === reviewId);
    };

    it('tells the listing’s author and the author’s agency, once each', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      const id = await listing('publish', agentUser.id);
      const reviewId = createdId(await api.create(buyerAuth, 'property', id, { rating: 3, content: 'ok' }));
      const [event, ...more] = await eventsOf(reviewId);
      expect(more).toEqual([]);
      expect(event!.processed_at).toBeNull();
      expect(event!.payload).toEqual({
        review_id: reviewId,
        target_type: 'property',
        target_id: id,
        author_id: buyer.id,
        rating: 3,
        recipient_user_ids: expect.arrayContaining([agentUser.id, agencyUser.id]),
      });
      expect(event!.payload.recipient_user_ids).toHaveLength(2);
    });

    it('tells a private seller alone, an agent’s user and an agency’s user', async () => {
      const sellerReview = createdId(await api.create(buyerAuth, 'property', await listing(), { rating: 3, content: 'ok' }));
      expect((await eventsOf(sellerReview))[0]!.payload.recipient_user_ids).toEqual([seller.id]);
      const { agencyUser, agentUser, agentId, agencyId } = await newAgencyWithAgent(db);
      const agentReview = createdId(await api.create(buyerAuth, 'agent', agentId, { rating: 3, content: 'ok' }));
      expect((await eventsOf(agentReview))[0]!.payload).toMatchObject({
        target_type: 'agent',
        target_id: agentId,
        recipient_user_ids: [agentUser.id],
      });
      // The agent reviewing its own agency is not told of its own review.
      const agencyReview = createdId(await api.create(await sessionFor(t, agentUser), 'agency', agencyId, { rating: 3, content: 'ok' }));
      expect((await eventsOf(agencyReview))[0]!.payload).toMatchObject({ author_id: agentUser.id, recipient_user_ids: [agencyUser.id] });
    });

    it('writes no event for a refused review', async () => {
      const before = await db
        .selectFrom('domain_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const id = await listing();
      createdId(await api.create(buyerAuth, 'property', id, { rating: 3, content: 'ok' }));
      await api.create(buyerAuth, 'property', id, { rating: 3, content: 'again' });
      const after = await db
        .selectFrom('domain_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n) - Number(before.n)).toBe(1);
    });
  });
});
