import { type Kysely, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { appliedMigrations, emptyDatabase, describeEachDialect } from '../helpers/database.js';
import { insertTermRow, newListing, unique } from '../helpers/factories.js';

const links = (db: Kysely<DB>) => db.selectFrom('listing_terms').selectAll().orderBy('listing_id').orderBy('term_id').execute();
const counts = (db: Kysely<DB>) => db.selectFrom('terms').select(['id', 'count']).orderBy('id').execute();

async function schemaOf(db: Kysely<DB>, dialect: string): Promise<{ indexes: string[]; triggers: string[]; withoutRowid: boolean }> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ name: string }>`
      select indexname as name from pg_indexes where tablename = 'listing_terms' order by 1`.execute(db);
    return { indexes: rows.map((row) => row.name), triggers: [], withoutRowid: false };
  }
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'listing_terms' order by name`.execute(db);
  return {
    indexes: rows.filter((row) => row.type === 'index').map((row) => row.name),
    triggers: rows.filter((row) => row.type === 'trigger').map((row) => row.name),
    withoutRowid: /WITHOUT ROWID$/i.test(rows.find((row) => row.type === 'table')!.sql!),
  };
}

describeEachDialect('0020 stores term links in fewer structures (%s)', (dialect) => {
  let dispose: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await dispose?.();
    dispose = undefined;
  });

  it('keeps every link, count and trigger, drops the term index, and clusters the SQLite table by its key', async () => {
    const empty = await emptyDatabase(dialect);
    dispose = empty.dispose;
    const db: Kysely<DB> = empty.database.db;
    await appliedMigrations(empty.migrator.migrateTo('0019_geo_cells_by_statement'));

    const [type, city, otherCity, feature] = [
      await insertTermRow(db, 'property_type', unique('term-')),
      await insertTermRow(db, 'property_city', unique('term-')),
      await insertTermRow(db, 'property_city', unique('term-')),
      await insertTermRow(db, 'property_feature', unique('term-')),
    ];
    const published = await newListing(db, {
      price: 300_000,
      terms: [
        { termId: type, taxonomy: 'property_type' },
        { termId: city, taxonomy: 'property_city' },
      ],
    });
    const draft = await newListing(db, { status: 'draft', price: 90_000, terms: [{ termId: feature, taxonomy: 'property_feature' }] });
    const before = { links: await links(db), counts: await counts(db), schema: await schemaOf(db, dialect) };
    expect(before.schema.indexes).toContain('listing_terms_term_idx');

    expect(await appliedMigrations(empty.migrator.migrateToLatest())).toContain('0020_term_links_clustered:Success');

    expect(await links(db)).toEqual(before.links);
    expect(await counts(db)).toEqual(before.counts);
    const after = await schemaOf(db, dialect);
    // SQLite's primary key was a second b-tree beside the rows (its automatic index): now it is the table itself.
    const gone = ['listing_terms_term_idx', ...(dialect === 'sqlite' ? ['sqlite_autoindex_listing_terms_1'] : [])];
    expect(before.schema.indexes).toEqual(expect.arrayContaining(gone));
    expect(after.indexes).toEqual(before.schema.indexes.filter((name) => !gone.includes(name)));
    expect(after.triggers).toEqual(before.schema.triggers);
    expect(after.withoutRowid).toBe(dialect === 'sqlite');
    if (dialect === 'sqlite') {
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows).toEqual([{ foreign_keys: 1 }]);
      expect((await sql<{ legacy_alter_table: number }>`pragma legacy_alter_table`.execute(db)).rows).toEqual([{ legacy_alter_table: 0 }]);
    }

    // The triggers still run: a new link of a published listing counts, carries its listing's copies and is
    // logged; a listing's removal takes its links; a term's removal takes its links and the listing's city copy.
    const head = await db
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirstOrThrow();
    await db
      .insertInto('listing_terms')
      .values({ listing_id: published, term_id: feature, taxonomy: 'property_feature', position: 0 })
      .execute();
    expect(await db.selectFrom('terms').select('count').where('id', '=', feature).executeTakeFirstOrThrow()).toEqual({ count: 1 });
    expect(
      await db
        .selectFrom('listing_terms')
        .select(['status', 'price', 'city_id'])
        .where('listing_id', '=', published)
        .where('term_id', '=', feature)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'publish', price: 300_000, city_id: city });
    const logged = await db
      .selectFrom('change_log')
      .select(['entity', 'entity_id'])
      .where('seq', '>', Number(head.seq ?? 0))
      .execute();
    expect(logged).toContainEqual({ entity: 'listing', entity_id: published });

    await db
      .insertInto('listing_terms')
      .values({ listing_id: published, term_id: otherCity, taxonomy: 'property_city', position: 1 })
      .execute();
    await db.deleteFrom('terms').where('id', '=', city).execute();
    expect(await db.selectFrom('listing_terms').select('term_id').where('listing_id', '=', published).orderBy('term_id').execute()).toEqual(
      [{ term_id: type }, { term_id: otherCity }, { term_id: feature }].sort((a, b) => a.term_id - b.term_id),
    );
    expect(
      await db
        .selectFrom('listing_terms')
        .select('city_id')
        .where('listing_id', '=', published)
        .where('term_id', '=', type)
        .executeTakeFirstOrThrow(),
    ).toEqual({ city_id: otherCity });

    await db.deleteFrom('listings').where('id', '=', draft).execute();
    expect(await db.selectFrom('listing_terms').select('term_id').where('listing_id', '=', draft).execute()).toEqual([]);
    await expect(
      db.insertInto('listing_terms').values({ listing_id: 999_999, term_id: type, taxonomy: 'property_type', position: 0 }).execute(),
    ).rejects.toThrow(/foreign key/i);
  });
});
