import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgencyWithAgent, newListing, newUser, sessionFor } from '../helpers/factories.js';
import { API, type Auth, createdId, expectError, type ReviewClient, reviewClient } from './review-fixtures.js';

describeEachDialect('POST /reviews/{id}/action (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let api: ReviewClient;
  let seller: UserRow;
  let sellerAuth: Auth;
  let authorAuth: Auth;
  let buyer: UserRow;
  let buyerAuth: Auth;
  let otherAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    api = reviewClient(t);
    seller = await newUser(db, { role: 'seller' });
    buyer = await newUser(db);
    [sellerAuth, authorAuth, buyerAuth, otherAuth] = await Promise.all([
      sessionFor(t, seller),
      sessionFor(t, await newUser(db)),
      sessionFor(t, buyer),
      sessionFor(t, await newUser(db)),
    ]);
  });
  afterAll(() => t.close());

  /** A review of a fresh published listing of the seller; returns the review's and the listing's ids. */
  const newReview = async () => {
    const listingId = await newListing(db, { author_id: seller.id });
    const reviewId = createdId(await api.create(authorAuth, 'property', listingId, { rating: 4, content: 'Fine' }));
    return { reviewId, listingId };
  };
  const expectResult = (res: Awaited<ReturnType<ReviewClient['react']>>, likes: number, dislikes: number, mine: string | null) => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { likes, dislikes, my_reaction: mine } });
  };
  const reactionRows = (reviewId: number) =>
    db.selectFrom('review_reactions').select(['user_id', 'reaction']).where('review_id', '=', reviewId).orderBy('user_id').execute();

  it('likes, removes with the same action, and switches with the other', async () => {
    const { reviewId } = await newReview();
    expectResult(await api.react(buyerAuth, reviewId, 'likes'), 1, 0, 'like');
    expect(await reactionRows(reviewId)).toEqual([{ user_id: buyer.id, reaction: 'like' }]);
    expectResult(await api.react(buyerAuth, reviewId, 'likes'), 0, 0, null);
    expect(await reactionRows(reviewId)).toEqual([]);
    expectResult(await api.react(buyerAuth, reviewId, 'dislikes'), 0, 1, 'dislike');
    expectResult(await api.react(buyerAuth, reviewId, 'likes'), 1, 0, 'like');
    expectResult(await api.react(buyerAuth, reviewId, 'dislikes'), 0, 1, 'dislike');
    expectResult(await api.react(buyerAuth, reviewId, 'dislikes'), 0, 0, null);
  });

  it('counts every user’s reaction and answers the caller’s own', async () => {
    const { reviewId, listingId } = await newReview();
    expectResult(await api.react(buyerAuth, reviewId, 'likes'), 1, 0, 'like');
    expectResult(await api.react(otherAuth, reviewId, 'dislikes'), 1, 1, 'dislike');
    expectResult(await api.react(sellerAuth, reviewId, 'likes'), 2, 1, 'like');
    const record = (await api.list('property', listingId, '', otherAuth)).json().data.reviews[0];
    expect(record).toMatchObject({ id: reviewId, likes: 2, dislikes: 1, my_reaction: 'dislike' });
  });

  it('counts N users liking the same review at once', async () => {
    const { reviewId } = await newReview();
    const users = await Promise.all(Array.from({ length: 8 }, async () => sessionFor(t, await newUser(db))));
    const results = await Promise.all(users.map((auth) => api.react(auth, reviewId, 'likes')));
    expect(results.map((r) => r.statusCode)).toEqual(users.map(() => 200));
    expect((await reactionRows(reviewId)).length).toBe(8);
    expectResult(await api.react(buyerAuth, reviewId, 'dislikes'), 8, 1, 'dislike');
  });

  it('keeps one reaction per user when the same user sends several at once', async () => {
    const { reviewId } = await newReview();
    const results = await Promise.all([
      api.react(buyerAuth, reviewId, 'likes'),
      api.react(buyerAuth, reviewId, 'dislikes'),
      api.react(buyerAuth, reviewId, 'likes'),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const rows = await reactionRows(reviewId);
    expect(rows.length).toBeLessThanOrEqual(1);
    // Whatever the interleaving, the state is consistent with the answer of the next toggle.
    const next = (await api.react(buyerAuth, reviewId, 'likes')).json().data;
    expect(next.likes + next.dislikes).toBe(next.my_reaction === null ? 0 : 1);
  });

  it('answers 404 for unknown reviews and reviews of targets the caller cannot see', async () => {
    expectError(await api.react(buyerAuth, 999_999, 'likes'), 404, 'not_found');
    const { reviewId, listingId } = await newReview();
    await db.updateTable('listings').set({ status: 'draft' }).where('id', '=', listingId).execute();
    expectError(await api.react(buyerAuth, reviewId, 'likes'), 404, 'not_found');
    expectResult(await api.react(sellerAuth, reviewId, 'likes'), 1, 0, 'like'); // the owner still sees it

    const { agentId } = await newAgencyWithAgent(db);
    const agentReview = createdId(await api.create(authorAuth, 'agent', agentId, { rating: 3, content: 'ok' }));
    await db.updateTable('agents').set({ visible: 0 }).where('id', '=', agentId).execute();
    expectError(await api.react(buyerAuth, agentReview, 'likes'), 404, 'not_found');
  });

  it('answers 401 without a token and 400 for a bad body', async () => {
    const { reviewId } = await newReview();
    expectError(await api.react(undefined, reviewId, 'likes'), 401, 'unauthorized');
    for (const payload of [{ action: 'like' }, {}, { action: 'likes', user_id: buyer.id }]) {
      const res = await t.app.inject({ method: 'POST', url: `${API}/reviews/${reviewId}/action`, headers: buyerAuth, payload });
      expectError(res, 400, 'validation_failed');
    }
    expect(await reactionRows(reviewId)).toEqual([]);
  });
});
