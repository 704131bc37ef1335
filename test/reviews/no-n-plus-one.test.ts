import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp, createServices, type Services } from '../../src/app.js';
import type { UserRow } from '../../src/db/schema/index.js';
import { TEST_JWT_SECRET, testConfig } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { bearer, newListing, newMedia, newUser } from '../helpers/factories.js';
import { reviewsPath } from './review-fixtures.js';

/** Counts the statements the application runs through the database (not the cache-stamp reads). */
class StatementCounter implements KyselyPlugin {
  statements = 0;

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.statements++;
    return result;
  }
}

/** A page of reviews costs the same number of queries whatever its size, signed in or not (../shared/CONVENTIONS.md 5). */
describeEachDialect('no N+1 in review pages (%s)', (dialect) => {
  const counter = new StatementCounter();
  let database: TestDatabase;
  let services: Services;
  let app: FastifyInstance;
  let smallListing: number;
  let largeListing: number;
  let readerAuth: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const db = database.db;
    const deps = { config: testConfig(), database: { ...database, db: db.withPlugin(counter) }, jwtSecret: TEST_JWT_SECRET };
    services = createServices(deps);
    app = await buildApp(deps, services);
    await app.ready();

    const seller = await newUser(db, { role: 'seller' });
    const reader = await newUser(db);
    readerAuth = bearer((await services.auth.signIn(reader)).token);
    [smallListing, largeListing] = [await newListing(db, { author_id: seller.id }), await newListing(db, { author_id: seller.id })];
    // Authors with avatars, reactions of several users including the reader: everything a record shows.
    const authors: UserRow[] = [];
    for (let i = 0; i < 20; i++) {
      const author = await newUser(db);
      const avatar = await newMedia(db, author.id, { sizes: JSON.stringify({ medium: { key: `a${i}.jpg`, width: 1, height: 1 } }) });
      await db.updateTable('users').set({ avatar_media_id: avatar.id }).where('id', '=', author.id).execute();
      authors.push(author);
    }
    const now = new Date().toISOString();
    const write = async (listingId: number, count: number) => {
      for (const author of authors.slice(0, count)) {
        const review = await db
          .insertInto('reviews')
          .values({
            target_type: 'property',
            target_id: listingId,
            author_id: author.id,
            rating: 4,
            content: 'x',
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const user of [reader, seller]) {
          await db
            .insertInto('review_reactions')
            .values({ review_id: review.id, user_id: user.id, reaction: 'like', created_at: now })
            .execute();
        }
      }
    };
    await write(smallListing, 2);
    await write(largeListing, 20);
  });
  afterAll(async () => {
    await app.close();
    await services.shutdown();
    await database.dispose();
  });

  const statementsOf = async (url: string, headers: Record<string, string> = {}) => {
    const before = counter.statements;
    const res = await app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(200);
    return { statements: counter.statements - before, reviews: res.json().data.reviews as { likes: number; my_reaction: string | null }[] };
  };

  it('loads a page of 2 and a page of 20 in the same number of queries, and answers a cached page without any', async () => {
    const small = await statementsOf(`${reviewsPath('property', smallListing)}?per_page=20`);
    const large = await statementsOf(`${reviewsPath('property', largeListing)}?per_page=20`);
    expect(small.reviews).toHaveLength(2);
    expect(large.reviews).toHaveLength(20);
    expect(large.reviews.every((r) => r.likes === 2)).toBe(true);
    expect(large.statements).toBe(small.statements);
    expect((await statementsOf(`${reviewsPath('property', largeListing)}?per_page=20`)).statements).toBe(0);
  });

  it('adds the signed-in caller’s reactions with one query on top of the cached page', async () => {
    const url = `${reviewsPath('property', largeListing)}?per_page=20&sort_by=a_rating`;
    await statementsOf(url); // fills the cache
    expect((await statementsOf(url)).statements).toBe(0);
    await statementsOf(url, readerAuth); // the session enters the session cache where there is one
    const signedIn = await statementsOf(url, readerAuth);
    expect(signedIn.reviews.every((r) => r.my_reaction === 'like')).toBe(true);
    // One query for the reactions; on PostgreSQL without Redis the bearer check reads the session too.
    expect(signedIn.statements).toBe(dialect === 'sqlite' ? 1 : 2);
  });
});
