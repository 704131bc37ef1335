import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { newListing, newMedia, newUser } from '../helpers/factories.js';
import { addListingViews } from '../../src/modules/properties/views/view-counter.repository.js';
import { replaceTermLinks, type TermLink } from '../../src/modules/properties/properties.repository.js';

/** Triggers renew the `listings` stamp on every change that shows in a listing record, and on nothing else. */
describeEachDialect('the listings cache stamp (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.dispose());

  /** Whether `change` renewed the stamp. */
  async function moves(change: () => Promise<unknown>, stamp = 'listings'): Promise<boolean> {
    const before = await database.readCacheVersion(stamp);
    await change();
    return (await database.readCacheVersion(stamp)) !== before;
  }

  it('moves with the listing, its gallery and its author’s name', async () => {
    const author = await newUser(db, { role: 'seller' });
    const listing = await newListing(db, { author_id: author.id });
    const image = await newMedia(db, author.id);
    expect(await moves(() => db.updateTable('listings').set({ price: 1 }).where('id', '=', listing).execute())).toBe(true);
    expect(await moves(() => db.updateTable('media').set({ listing_id: listing }).where('id', '=', image.id).execute())).toBe(true);
    expect(await moves(() => db.updateTable('media').set({ alt: 'Terrace' }).where('id', '=', image.id).execute())).toBe(true);
    expect(await moves(() => db.deleteFrom('media').where('id', '=', image.id).execute())).toBe(true);
    expect(await moves(() => db.updateTable('users').set({ display_name: 'Renamed' }).where('id', '=', author.id).execute())).toBe(true);
  });

  it('stays when the view counter adds views, which renew listing_views alone; an edit that sets views renews both', async () => {
    const listing = await newListing(db);
    const addViews = () => addListingViews(db, new Map([[listing, 2]]));
    expect(await moves(addViews)).toBe(false);
    expect(await moves(addViews, 'listing_views')).toBe(true);
    const edit = () =>
      db
        .updateTable('listings')
        .set({ views: 40, title: 'Edited', updated_at: new Date().toISOString() })
        .where('id', '=', listing)
        .execute();
    expect(await moves(edit)).toBe(true);
    expect(
      await moves(
        () => db.updateTable('listings').set({ views: 41, updated_at: 'later' }).where('id', '=', listing).execute(),
        'listing_views',
      ),
    ).toBe(true);
    expect(await moves(() => db.updateTable('listings').set({ title: 'Again' }).where('id', '=', listing).execute(), 'listing_views')).toBe(
      false,
    );
  });

  it('stays for uploads outside galleries, avatars and other user changes', async () => {
    const user = await newUser(db);
    let avatarId = 0;
    expect(
      await moves(async () => {
        avatarId = (await newMedia(db, user.id)).id;
      }),
    ).toBe(false);
    expect(await moves(() => db.updateTable('users').set({ avatar_media_id: avatarId }).where('id', '=', user.id).execute())).toBe(false);
    expect(await moves(() => db.updateTable('media').set({ title: 'Me' }).where('id', '=', avatarId).execute())).toBe(false);
    expect(await moves(() => db.updateTable('users').set({ bio: 'Hello' }).where('id', '=', user.id).execute())).toBe(false);
  });
});

describeEachDialect('rewriting a listing’s term links (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.dispose());

  const term = (slug: string) =>
    db
      .insertInto('terms')
      .values({
        taxonomy: slug.startsWith('type') ? 'property_type' : 'property_feature',
        name: slug,
        slug,
        sort_key: slug,
        created_at: 'x',
        updated_at: 'x',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((row) => row.id);
  const linksOf = (listing: number) =>
    db
      .selectFrom('listing_terms')
      .select(['taxonomy', 'term_id', 'position'])
      .where('listing_id', '=', listing)
      .orderBy('taxonomy')
      .orderBy('position')
      .execute();
  const counts = (ids: number[]) => db.selectFrom('terms').select(['id', 'count']).where('id', 'in', ids).orderBy('id').execute();

  // A re-import of changed titles sends every listing's terms again: rewritten, each count went down and up and the
  // terms stamp moved for every listing.
  it('leaves links that are already the given ones, and rewrites only the taxonomies that changed', async () => {
    const [villa, flat, pool, garden] = [await term('type-villa'), await term('type-flat'), await term('pool'), await term('garden')];
    const type = (...ids: number[]) => ids.map((termId) => ({ termId, taxonomy: 'property_type' as const }));
    const feature = (...ids: number[]) => ids.map((termId) => ({ termId, taxonomy: 'property_feature' as const }));
    const listing = await newListing(db, { terms: [...type(villa), ...feature(pool, garden)] });
    const before = await linksOf(listing);
    const replace = (links: TermLink[]) =>
      db.transaction().execute((trx) => replaceTermLinks(trx, listing, ['property_type', 'property_feature'], links));

    expect(await moves(() => replace([...type(villa), ...feature(pool, garden)]), 'terms')).toBe(false);
    expect(await linksOf(listing)).toEqual(before);

    // The features' order is part of the links: a new order is a change of that taxonomy alone.
    expect(await moves(() => replace([...type(villa), ...feature(garden, pool)]), 'terms')).toBe(true);
    expect(await linksOf(listing)).toEqual([
      { taxonomy: 'property_feature', term_id: garden, position: 0 },
      { taxonomy: 'property_feature', term_id: pool, position: 1 },
      ...before.filter((link) => link.taxonomy === 'property_type'),
    ]);
    expect(await moves(() => replace([...type(flat), ...feature(garden, pool)]), 'terms')).toBe(true);
    expect((await linksOf(listing)).filter((link) => link.taxonomy === 'property_type')).toEqual([
      { taxonomy: 'property_type', term_id: flat, position: 0 },
    ]);
    expect(await counts([villa, flat, pool, garden])).toEqual([
      { id: villa, count: 0 },
      { id: flat, count: 1 },
      { id: pool, count: 1 },
      { id: garden, count: 1 },
    ]);
    expect(await moves(() => replace([...type(flat)]), 'terms')).toBe(true);
    expect(await linksOf(listing)).toEqual([{ taxonomy: 'property_type', term_id: flat, position: 0 }]);
  });

  async function moves(change: () => Promise<unknown>, stamp: string): Promise<boolean> {
    const before = await database.readCacheVersion(stamp);
    await change();
    return (await database.readCacheVersion(stamp)) !== before;
  }
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('stamps renewed at commit (postgres)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(() => database.dispose());

  it('lets two transactions change terms and listings in opposite orders without a deadlock', async () => {
    const { db } = database;
    const term = await db
      .insertInto('terms')
      .values({ taxonomy: 'property_city', name: 'Old', slug: 'old', sort_key: 'old', created_at: 'x', updated_at: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Each side does its first write, then waits for the other's, then does its second: with stamps locked
    // where the statements run (terms, then listings against listings, then terms), this was a deadlock.
    let firstWrites = 0;
    const bothWrote = async () => {
      firstWrites++;
      await expect.poll(() => firstWrites, { timeout: 5000 }).toBe(2);
    };
    const listingRow = (slug: string) => ({
      slug,
      title: slug,
      status: 'pending' as const,
      currency: 'USD',
      created_at: 'x',
      updated_at: 'x',
    });
    const termFirst = db.transaction().execute(async (trx) => {
      await trx
        .insertInto('terms')
        .values({ taxonomy: 'property_city', name: 'New', slug: 'new', sort_key: 'new', created_at: 'x', updated_at: 'x' })
        .execute();
      await bothWrote();
      await trx.insertInto('listings').values(listingRow('term-first')).execute();
    });
    const listingFirst = db.transaction().execute(async (trx) => {
      // Published, so that the link moves the term's count too.
      const published = { ...listingRow('listing-first'), status: 'publish' as const, published_at: 'x' };
      const { id } = await trx.insertInto('listings').values(published).returning('id').executeTakeFirstOrThrow();
      await bothWrote();
      await trx.insertInto('listing_terms').values({ listing_id: id, term_id: term.id, taxonomy: 'property_city' }).execute();
    });
    const results = await Promise.allSettled([termFirst, listingFirst]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
  });
});
