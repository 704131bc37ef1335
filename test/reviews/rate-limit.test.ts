import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgencyWithAgent, newListing, newUser, sessionFor } from '../helpers/factories.js';
import { type Auth, expectError, reviewClient } from './review-fixtures.js';

/** Review creation has a budget of its own per client IP and route (docs/api.md 0.6: 5 a minute). */
describeEachDialect('review creation rate limit (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let auth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { RATE_LIMIT_ENABLED: 'true' });
    db = t.database.db;
    auth = await sessionFor(t, await newUser(db));
  });
  afterAll(() => t.close());

  it('answers the 6th review within a minute from one IP with 429, per route', async () => {
    const api = reviewClient(t);
    const seller = await newUser(db, { role: 'seller' });
    const listings = await Promise.all(Array.from({ length: 6 }, () => newListing(db, { author_id: seller.id })));
    const remoteAddress = '198.18.7.1';
    const statuses: number[] = [];
    for (const id of listings)
      statuses.push((await api.create(auth, 'property', id, { rating: 5, content: 'x' }, remoteAddress)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const limited = await api.create(auth, 'property', listings[5]!, { rating: 5, content: 'x' }, remoteAddress);
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Another route and another client keep their own budgets; reading is not limited by it.
    const { agentId } = await newAgencyWithAgent(db);
    expect((await api.create(auth, 'agent', agentId, { rating: 5, content: 'x' }, remoteAddress)).statusCode).toBe(201);
    expect(
      (await api.create(await sessionFor(t, await newUser(db)), 'property', listings[5]!, { rating: 5, content: 'x' }, '198.18.7.2'))
        .statusCode,
    ).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: `/realty-api/v1/properties/${listings[5]}/reviews`, remoteAddress })).statusCode).toBe(
      200,
    );
  });
});
