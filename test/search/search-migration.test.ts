import { type Kysely, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasAllTerms } from '../../src/db/dialect/full-text.js';
import type { DB } from '../../src/db/schema/index.js';
import { queryTerms } from '../../src/lib/search-tokens.js';
import {
  deleteListing,
  linkTerms,
  replaceTermLinks,
  setListingState,
  updateListingInState,
} from '../../src/modules/properties/properties.repository.js';
import { searchColumnsOf } from '../../src/lib/search-columns.js';
import { createTestDatabase, type TestDatabase, emptyDatabase, describeEachDialect } from '../helpers/database.js';
import { newListing } from '../helpers/factories.js';
import { insertTerm } from './search-storage-fixtures.js';

/** The copies on a listing's links, by term id: `[term_id, status, price, city_id]`. */
async function copiesOf(db: Kysely<DB>, listingId: number) {
  const rows = await db
    .selectFrom('listing_terms')
    .select(['term_id', 'status', 'price', 'city_id'])
    .where('listing_id', '=', listingId)
    .orderBy('term_id')
    .execute();
  return rows.map((row) => [row.term_id, row.status, row.price, row.city_id]);
}

describeEachDialect('migration 0006 on existing data (%s)', (dialect) => {
  let dispose: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await dispose?.();
    dispose = undefined;
  });

  it('fills the search columns and the link copies of the rows already there', async () => {
    const empty = await emptyDatabase(dialect);
    dispose = empty.dispose;
    const db: Kysely<DB> = empty.database.db;
    const { error } = await empty.migrator.migrateTo('0005_payments');
    expect(error).toBeUndefined();

    const at = new Date().toISOString();
    const type = await insertTerm(db, 'property_type');
    const [cityB, cityA] = [await insertTerm(db, 'property_city'), await insertTerm(db, 'property_city')];
    const old = {
      title: 'Harbour Houses',
      description: '<p>Two <em>renovated</em> houses</p>',
      address: '3 Quay Street',
      zipcode: '1100',
      reference: 'OLD-1',
      latitude: 38.7223,
      longitude: -9.1393,
    };
    const insert = (slug: string, values: object) =>
      db
        .insertInto('listings')
        .values({ slug, status: 'publish', currency: 'EUR', created_at: at, updated_at: at, title: slug, ...values })
        .returning('id')
        .executeTakeFirstOrThrow();
    const { id: located } = await insert('located', { ...old, price: 350_000 });
    const { id: bare } = await insert('bare', { title: 'Plot', status: 'draft' });
    await db
      .insertInto('listing_terms')
      .values([
        { listing_id: located, term_id: type, taxonomy: 'property_type', position: 0 },
        // Two cities: the first by position (then id) is the listing's city.
        { listing_id: located, term_id: cityA, taxonomy: 'property_city', position: 1 },
        { listing_id: located, term_id: cityB, taxonomy: 'property_city', position: 1 },
        { listing_id: bare, term_id: type, taxonomy: 'property_type', position: 0 },
      ])
      .execute();

    const { error: latest } = await empty.migrator.migrateToLatest();
    expect(latest).toBeUndefined();

    const rows = await db
      .selectFrom('listings')
      .select(['id', 'search_text', 'title_tokens', 'geo_key', 'geo_x', 'geo_y', 'geo_z'])
      .orderBy('id')
      .execute();
    const stored = rows.map(({ id: _id, geo_key, ...columns }) => ({ ...columns, geo_key: geo_key === null ? null : Number(geo_key) }));
    expect(stored).toEqual([searchColumnsOf(old), searchColumnsOf({ title: 'Plot' })]);
    expect(stored[0]!.search_text).toBe('harbour hou two renov hou 3 quai street 1100 old 1');
    expect(stored[1]).toMatchObject({ geo_key: null, geo_x: null });

    const firstCity = Math.min(cityA, cityB);
    expect(await copiesOf(db, located)).toEqual(
      [
        [type, 'publish', 350_000, firstCity],
        [cityB, 'publish', 350_000, firstCity],
        [cityA, 'publish', 350_000, firstCity],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    expect(await copiesOf(db, bare)).toEqual([[type, 'draft', null, null]]);

    // The keyword index holds the old rows, and the triggers follow from here on.
    const found = await db
      .selectFrom('listings as l')
      .select('l.id')
      .where(hasAllTerms(db, queryTerms('renovated house')))
      .execute();
    expect(found.map((row) => row.id)).toEqual([located]);
    await db.updateTable('listings').set({ status: 'publish', price: 10 }).where('id', '=', bare).execute();
    expect(await copiesOf(db, bare)).toEqual([[type, 'publish', 10, null]]);
  });
});

describeEachDialect('link copies kept by triggers (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  let type: number;
  let feature: number;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    type = await insertTerm(db, 'property_type');
    feature = await insertTerm(db, 'property_feature');
  });
  afterAll(() => database.dispose());

  const at = () => new Date().toISOString();

  it('follow creation, price, state, city replacement and deletion', async () => {
    const [city, otherCity] = [await insertTerm(db, 'property_city'), await insertTerm(db, 'property_city')];
    const bystander = await newListing(db, {
      price: 5,
      terms: [
        { termId: type, taxonomy: 'property_type' },
        { termId: city, taxonomy: 'property_city' },
      ],
    });
    const id = await newListing(db, {
      price: 250,
      terms: [
        { termId: type, taxonomy: 'property_type' },
        { termId: feature, taxonomy: 'property_feature' },
        { termId: city, taxonomy: 'property_city' },
      ],
    });
    const row = (term: number, status: string, price: number | null, cityId: number | null) => [term, status, price, cityId];
    const expectCopies = async (status: string, price: number | null, cityId: number | null, terms = [type, feature, city]) =>
      expect(await copiesOf(db, id)).toEqual([...terms].sort((a, b) => a - b).map((term) => row(term, status, price, cityId)));

    await expectCopies('publish', 250, city);
    expect(await updateListingInState(db, id, 'publish', { price: 300, title: 'Renamed' })).toBe(true);
    await expectCopies('publish', 300, city);
    await setListingState(db, id, 'sold', at());
    await expectCopies('sold', 300, city);
    await updateListingInState(db, id, 'sold', { price: null });
    await expectCopies('sold', null, city);

    await replaceTermLinks(db, id, ['property_city'], [{ termId: otherCity, taxonomy: 'property_city' }]);
    await expectCopies('sold', null, otherCity, [type, feature, otherCity]);
    await replaceTermLinks(db, id, ['property_city'], []);
    await expectCopies('sold', null, null, [type, feature]);

    // A link added later gets the listing's values as they are now.
    await replaceTermLinks(db, id, ['property_city'], [{ termId: city, taxonomy: 'property_city' }]);
    await db.deleteFrom('listing_terms').where('listing_id', '=', id).where('term_id', '=', feature).execute();
    await linkTerms(db, id, [{ termId: feature, taxonomy: 'property_feature' }]);
    await expectCopies('sold', null, city);

    expect(await copiesOf(db, bystander)).toEqual(
      [row(type, 'publish', 5, city), row(city, 'publish', 5, city)].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    await deleteListing(db, id);
    expect(await copiesOf(db, id)).toEqual([]);
  });

  it('follow a city term deleted: the next city, or none', async () => {
    const [first, second] = [await insertTerm(db, 'property_city'), await insertTerm(db, 'property_city')];
    const id = await newListing(db, {
      price: 1,
      terms: [
        { termId: second, taxonomy: 'property_city' },
        { termId: type, taxonomy: 'property_type' },
      ],
    });
    // Position 1 after `second` (position 0): `second` stays the city, though its id is larger.
    await db.insertInto('listing_terms').values({ listing_id: id, term_id: first, taxonomy: 'property_city', position: 1 }).execute();
    expect((await copiesOf(db, id)).map((copy) => copy[3])).toEqual([second, second, second]);

    await db.deleteFrom('terms').where('id', '=', second).execute();
    expect(await copiesOf(db, id)).toEqual(
      [
        [type, 'publish', 1, first],
        [first, 'publish', 1, first],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    await db.deleteFrom('terms').where('id', '=', first).execute();
    expect(await copiesOf(db, id)).toEqual([[type, 'publish', 1, null]]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('link copies under concurrency (postgres)', () => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = database.db;
  });
  afterAll(() => database.dispose());

  /** Resolves once `count` callers have arrived. */
  function barrier(count: number): () => Promise<void> {
    let arrived = 0;
    return async () => {
      arrived++;
      await expect.poll(() => arrived, { timeout: 5000 }).toBe(count);
    };
  }
  /**
   * Resolves once another statement waits for a lock (a session of this test's own database waits on one:
   * the statement a transaction means to hold up), or `done()` says it finished without waiting.
   */
  async function blockedOrDone(done: () => boolean): Promise<void> {
    const waiting = async () => {
      const { rows } = await sql<{ n: string | number }>`
        select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
      return Number(rows[0]?.n) > 0;
    };
    await expect.poll(async () => done() || (await waiting()), { timeout: 10_000, interval: 10 }).toBe(true);
  }

  it('lets two transactions change two listings that share terms, interleaved, without waiting for each other', async () => {
    const type = await insertTerm(db, 'property_type');
    const feature = await insertTerm(db, 'property_feature');
    const [city, otherCity] = [await insertTerm(db, 'property_city'), await insertTerm(db, 'property_city')];
    const links = [
      { termId: type, taxonomy: 'property_type' as const },
      { termId: city, taxonomy: 'property_city' as const },
    ];
    // Pending: the term counts (published listings only) stay out of it; only these copies are at stake.
    const newPending = (price: number) => newListing(db, { status: 'pending', price, terms: links });
    const [a, b] = [await newPending(1), await newPending(2)];
    const bothWrote = barrier(2);
    // Each writes price and city, waits until the other has too (holding its locks), then state and a feature.
    const change = (id: number, price: number) =>
      db.transaction().execute(async (trx) => {
        await updateListingInState(trx, id, 'pending', { price });
        await replaceTermLinks(trx, id, ['property_city'], [{ termId: otherCity, taxonomy: 'property_city' }]);
        await bothWrote();
        await setListingState(trx, id, 'draft', new Date().toISOString());
        await linkTerms(trx, id, [{ termId: feature, taxonomy: 'property_feature' }]);
      });
    const results = await Promise.allSettled([change(a, 10), change(b, 20)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
    const copies = (price: number) => [type, feature, otherCity].sort((x, y) => x - y).map((term) => [term, 'draft', price, otherCity]);
    expect(await copiesOf(db, a)).toEqual(copies(10));
    expect(await copiesOf(db, b)).toEqual(copies(20));
  });

  it('gives a link inserted during a state change the state that change commits', async () => {
    const type = await insertTerm(db, 'property_type');
    const feature = await insertTerm(db, 'property_feature');
    const id = await newListing(db, { price: 7, terms: [{ termId: type, taxonomy: 'property_type' }] });
    const changed = barrier(2);
    let linked = false;
    const stateChange = db.transaction().execute(async (trx) => {
      await setListingState(trx, id, 'expired', new Date().toISOString());
      await changed();
      await blockedOrDone(() => linked); // the link insert below is now waiting for this transaction
    });
    const link = (async () => {
      await changed();
      await linkTerms(db, id, [{ termId: feature, taxonomy: 'property_feature' }]);
      linked = true;
    })();
    await Promise.all([stateChange, link]);
    expect(await copiesOf(db, id)).toEqual(
      [
        [type, 'expired', 7, null],
        [feature, 'expired', 7, null],
      ].sort((x, y) => (x[0] as number) - (y[0] as number)),
    );
  });

  it('settles on one city when two transactions add cities to one listing at once', async () => {
    const type = await insertTerm(db, 'property_type');
    const [late, early] = [await insertTerm(db, 'property_city'), await insertTerm(db, 'property_city')];
    const id = await newListing(db, { price: 3, terms: [{ termId: type, taxonomy: 'property_type' }] });
    const firstLinked = barrier(2);
    let earlyAdded = false;
    const addLate = db.transaction().execute(async (trx) => {
      await trx.insertInto('listing_terms').values({ listing_id: id, term_id: late, taxonomy: 'property_city', position: 1 }).execute();
      await firstLinked();
      await blockedOrDone(() => earlyAdded);
    });
    const addEarly = (async () => {
      await firstLinked();
      await db.insertInto('listing_terms').values({ listing_id: id, term_id: early, taxonomy: 'property_city', position: 0 }).execute();
      earlyAdded = true;
    })();
    await Promise.all([addLate, addEarly]);
    expect((await copiesOf(db, id)).map((copy) => copy[3])).toEqual([early, early, early]);
  });
});
