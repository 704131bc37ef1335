import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgencyWithAgent, newListing, newUser, sessionFor } from '../helpers/factories.js';
import { API, type Auth, reviewClient } from './review-fixtures.js';

const REVIEWERS = 12;

/**
 * Concurrent reviews of one target must all count. On PostgreSQL this fails if the totals were recomputed
 * with an aggregate subquery: an UPDATE that waited for another review's row lock does not see that review.
 */
describeEachDialect('concurrent reviews (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;
  let reviewers: Auth[];

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    seller = await newUser(db, { role: 'seller' });
    reviewers = await Promise.all(Array.from({ length: REVIEWERS }, async () => sessionFor(t, await newUser(db))));
  });
  afterAll(() => t.close());

  const ratingOf = (i: number) => (i % 5) + 1;
  const expectedSum = Array.from({ length: REVIEWERS }, (_, i) => ratingOf(i)).reduce((a, b) => a + b, 0);

  it('counts every one of N users reviewing the same listing at once, with the exact rating sum', async () => {
    const id = await newListing(db, { author_id: seller.id });
    const api = reviewClient(t);
    const results = await Promise.all(
      reviewers.map((auth, i) => api.create(auth, 'property', id, { rating: ratingOf(i), content: `Review ${i}` })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(reviewers.map(() => 201));
    const totals = await db
      .selectFrom('listings')
      .select(['rating_sum', 'reviews_count', 'rating'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(totals).toEqual({ rating_sum: expectedSum, reviews_count: REVIEWERS, rating: Math.round((expectedSum * 10) / REVIEWERS) / 10 });
    const record = (await t.app.inject({ method: 'GET', url: `${API}/properties/${id}` })).json().data;
    expect(record).toMatchObject({ reviews_count: REVIEWERS, rating: totals.rating });
  });

  it('counts every one of N users reviewing the same agent at once', async () => {
    const { agentId } = await newAgencyWithAgent(db);
    const api = reviewClient(t);
    const results = await Promise.all(
      reviewers.map((auth, i) => api.create(auth, 'agent', agentId, { rating: ratingOf(i), content: 'x' })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(reviewers.map(() => 201));
    const totals = await db
      .selectFrom('agents')
      .select(['rating_sum', 'reviews_count'])
      .where('id', '=', agentId)
      .executeTakeFirstOrThrow();
    expect(totals).toEqual({ rating_sum: expectedSum, reviews_count: REVIEWERS });
  });

  it('keeps the totals exact when reviews are created and deleted at once', async () => {
    const id = await newListing(db, { author_id: seller.id });
    const api = reviewClient(t);
    const half = reviewers.slice(0, REVIEWERS / 2);
    const first = await Promise.all(half.map((auth) => api.create(auth, 'property', id, { rating: 5, content: 'x' })));
    const ids = first.map((r) => r.json().data.id as number);
    const results = await Promise.all([
      ...half.map((auth, i) => api.remove(auth, ids[i]!)),
      ...reviewers.slice(REVIEWERS / 2).map((auth) => api.create(auth, 'property', id, { rating: 2, content: 'y' })),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([...half.map(() => 200), ...half.map(() => 201)].sort());
    const totals = await db
      .selectFrom('listings')
      .select(['rating_sum', 'reviews_count', 'rating'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(totals).toEqual({ rating_sum: 2 * half.length, reviews_count: half.length, rating: 2 });
  });
});
