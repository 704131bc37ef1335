import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newUser, tokenFor } from '../helpers/factories.js';
import { createdId, expectError, insertSavedSearches, type SavedSearchClient, savedSearchClient } from './saved-search-fixtures.js';

const countOf = async (db: Kysely<DB>, userId: number) =>
  Number(
    (
      await db
        .selectFrom('saved_searches')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describeEachDialect('saved searches per user (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let client: SavedSearchClient;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    client = savedSearchClient(t.app);
  });
  afterAll(() => t.close());

  /** A signed-in user who already has `count` saved searches. */
  const userWith = async (count: number) => {
    const user = await newUser(db);
    await insertSavedSearches(db, user.id, count);
    return { user, auth: bearer(await tokenFor(t.app, user)) };
  };

  it('allows 50; the 51st is 409 conflict, until one is deleted; other users are not affected', async () => {
    const { user, auth } = await userWith(49);
    const fiftieth = await createdId(client, auth, { query: { city: 'miami' } });
    const refused = await client.create(auth, { query: { city: 'orlando' } });
    expectError(refused, 409, 'conflict');
    expect(refused.json().message).toBe('You already have 50 saved searches, the most allowed. Delete one to save another.');
    expect(await countOf(db, user.id)).toBe(50);
    // A broken body is still a 400, not a 409.
    expectError(await client.create(auth, { query: { min_price: -1 } }), 400, 'validation_failed');

    const other = await userWith(0);
    await createdId(client, other.auth, { query: {} });

    expect((await client.remove(auth, fiftieth)).statusCode).toBe(200);
    await createdId(client, auth, { query: { city: 'orlando' } });
    expectError(await client.create(auth, { query: {} }), 409, 'conflict');
  });

  it('lets exactly one of two concurrent creations take the last place, repeatedly', async () => {
    for (let round = 0; round < 5; round++) {
      const { user, auth } = await userWith(49);
      const answers = await Promise.all([client.create(auth, { query: { min_beds: 1 } }), client.create(auth, { query: { min_beds: 2 } })]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
      expect(await countOf(db, user.id)).toBe(50);
    }
  });

  it('lets three concurrent creations fill two places and no more', async () => {
    const { user, auth } = await userWith(48);
    const answers = await Promise.all([1, 2, 3].map((beds) => client.create(auth, { query: { min_beds: beds } })));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 201, 409]);
    expect(await countOf(db, user.id)).toBe(50);
  });
});

describeEachDialect('SAVED_SEARCHES_PER_USER (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { SAVED_SEARCHES_PER_USER: '2' });
  });
  afterAll(() => t.close());

  it('sets the limit', async () => {
    const client = savedSearchClient(t.app);
    const auth = bearer(await tokenFor(t.app, await newUser(t.database.db)));
    await createdId(client, auth, { query: {} });
    await createdId(client, auth, { query: {} });
    const refused = await client.create(auth, { query: {} }, '?lang=es');
    expectError(refused, 409, 'conflict');
    expect(refused.json().message).toBe('Ya tienes 2 búsquedas guardadas, el máximo permitido. Borra una para guardar otra.');
  });
});
