import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { DEFAULT_PASSWORD, newListing, newUser, sessionFor } from '../helpers/factories.js';
import { API, type Auth, createdId, expectError, type ReviewClient, reviewClient } from './review-fixtures.js';

describeEachDialect('DELETE /reviews/{id} and deleted authors (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let api: ReviewClient;
  let seller: UserRow;
  let sellerAuth: Auth;
  let author: UserRow;
  let authorAuth: Auth;
  let otherAuth: Auth;
  let managerAuth: Auth;
  let adminAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    api = reviewClient(t);
    seller = await newUser(db, { role: 'seller' });
    author = await newUser(db);
    [sellerAuth, authorAuth, otherAuth, managerAuth, adminAuth] = await Promise.all([
      sessionFor(t, seller),
      sessionFor(t, author),
      sessionFor(t, await newUser(db)),
      sessionFor(t, await newUser(db, { role: 'manager' })),
      sessionFor(t, await newUser(db, { role: 'administrator' })),
    ]);
  });
  afterAll(() => t.close());

  const newReview = async (auth = authorAuth) => {
    const listingId = await newListing(db, { author_id: seller.id });
    const reviewId = createdId(await api.create(auth, 'property', listingId, { rating: 4, content: 'Fine' }));
    return { reviewId, listingId };
  };
  const reviewExists = async (id: number) =>
    (await db.selectFrom('reviews').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('lets the author delete their review, with its reactions', async () => {
    const { reviewId, listingId } = await newReview();
    await api.react(otherAuth, reviewId, 'likes');
    const res = await api.remove(authorAuth, reviewId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { id: reviewId, deleted: true }, message: 'The review was deleted.' });
    expect(await reviewExists(reviewId)).toBe(false);
    expect(await db.selectFrom('review_reactions').select('user_id').where('review_id', '=', reviewId).execute()).toEqual([]);
    expect((await api.list('property', listingId)).json().data).toMatchObject({ reviews: [], reviews_count: 0, rating: null });
    expectError(await api.remove(authorAuth, reviewId), 404, 'not_found');
  });

  it('lets an administrator delete any review', async () => {
    const { reviewId } = await newReview();
    expect((await api.remove(adminAuth, reviewId)).statusCode).toBe(200);
    expect(await reviewExists(reviewId)).toBe(false);
  });

  it('answers 403 to others who can see the review: other users, the listing’s owner, managers', async () => {
    const { reviewId } = await newReview();
    for (const auth of [otherAuth, sellerAuth, managerAuth]) expectError(await api.remove(auth, reviewId), 403, 'forbidden');
    expect(await reviewExists(reviewId)).toBe(true);
  });

  it('answers 404 to others who cannot see the review’s target, and for unknown reviews', async () => {
    const { reviewId, listingId } = await newReview();
    await db.updateTable('listings').set({ status: 'draft' }).where('id', '=', listingId).execute();
    expectError(await api.remove(otherAuth, reviewId), 404, 'not_found');
    expectError(await api.remove(sellerAuth, reviewId), 403, 'forbidden');
    expect((await api.remove(authorAuth, reviewId)).statusCode).toBe(200); // the author still may
    expectError(await api.remove(otherAuth, 999_999), 404, 'not_found');
    expectError(await api.remove(undefined, 999_999), 401, 'unauthorized');
  });

  it('deletes a listing’s reviews with the listing', async () => {
    const { reviewId, listingId } = await newReview();
    const res = await t.app.inject({ method: 'DELETE', url: `${API}/properties/${listingId}`, headers: sellerAuth });
    expect(res.statusCode, res.body).toBe(200);
    expect(await reviewExists(reviewId)).toBe(false);
  });

  it('keeps the reviews of a deleted account, shown as by "Deleted user" (localized)', async () => {
    const leaving = await newUser(db, { display_name: 'Leaving Soon' });
    const { reviewId, listingId } = await newReview(await sessionFor(t, leaving));
    expect((await api.list('property', listingId)).json().data.reviews[0].author).toEqual({
      id: leaving.id,
      display_name: 'Leaving Soon',
      avatar_url: null,
    });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${API}/users/delete-profile`,
      headers: await sessionFor(t, leaving),
      payload: { password: DEFAULT_PASSWORD },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const list = (await api.list('property', listingId)).json().data;
    expect(list).toMatchObject({ reviews_count: 1, rating: 4 });
    expect(list.reviews[0]).toMatchObject({ id: reviewId, author: { id: null, display_name: 'Deleted user', avatar_url: null } });
    const french = (await api.list('property', listingId, '?lang=fr')).json().data;
    expect(french.reviews[0].author.display_name).toBe('Utilisateur supprimé');
    const signedIn = (await api.list('property', listingId, '', otherAuth)).json().data;
    expect(signedIn.reviews[0].author.display_name).toBe('Deleted user');
    // Nobody is its author any more: only an administrator can delete it.
    expectError(await api.remove(otherAuth, reviewId), 403, 'forbidden');
    expect((await api.remove(adminAuth, reviewId)).statusCode).toBe(200);
    expect((await api.list('property', listingId)).json().data).toMatchObject({ reviews_count: 0, rating: null });
  });
});
