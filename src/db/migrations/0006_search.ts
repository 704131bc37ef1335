import type { Kysely } from 'kysely';
import { searchColumnsOf } from '../../lib/search-columns.js';
import { fireDeferredStamps } from '../dialect/ddl/deferred-stamps.js';
import { createKeywordIndex } from '../dialect/ddl/keyword-index.js';
import { createSearchTriggers } from '../dialect/ddl/search-triggers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Listings read and rewritten per batch while filling the search columns of existing rows. */
const BACKFILL_BATCH = 500;

/**
 * Search (docs/api.md 4.4): on `listings`, the words of keyword search and the geo columns (schema.ts,
 * modules/search/geo.ts) with their indexes; on `listing_terms`, copies of the listing's state, price and
 * city kept by triggers (dialect/search-triggers.ts) under an index that answers term filters alone.
 * Existing rows are filled last, through the indexes and the keyword index's triggers.
 */
export async function up(db: AnyDb): Promise<void> {
  const listings = () => db.schema.alterTable('listings');
  await listings()
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await listings()
    .addColumn('title_tokens', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await listings().addColumn('geo_key', 'bigint').execute();
  for (const name of ['geo_x', 'geo_y', 'geo_z']) await listings().addColumn(name, 'double precision').execute();
  const links = () => db.schema.alterTable('listing_terms');
  await links().addColumn('status', 'text').execute();
  await links().addColumn('price', 'double precision').execute();
  await links()
    .addColumn('city_id', 'integer', (c) => c.references('terms.id').onDelete('set null'))
    .execute();

  // Indexes before the rows are filled: PostgreSQL refuses to build an index on a table whose rows this
  // transaction changed while their deferred triggers (the cache stamps) are pending.
  // Geo filters read key ranges of (status, geo_key); the rest of the columns are what the exact tests and the
  // cell centroids (0008) read, so the points of a region's edge never visit the table (measured on SQLite:
  // 5–8 times faster).
  await db.schema
    .createIndex('listings_geo_points_idx')
    .on('listings')
    .columns(['status', 'geo_key', 'latitude', 'longitude', 'geo_x', 'geo_y', 'geo_z', 'id'])
    .execute();
  await createKeywordIndex(db);
  await db.schema
    .createIndex('listing_terms_search_idx')
    .on('listing_terms')
    .columns(['term_id', 'status', 'city_id', 'price', 'listing_id'])
    .execute();

  await fillSearchColumns(db);
  await fillLinkCopies(db);
  await createSearchTriggers(db);
  await fireDeferredStamps(db);
}

/**
 * The search columns of the listings already there, computed in JavaScript (the words cannot be made in
 * SQL), read and written by id in batches. SQLite runs migrations outside a transaction: each batch is one.
 */
async function fillSearchColumns(db: AnyDb): Promise<void> {
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('listings')
      .select(['id', 'title', 'description', 'address', 'zipcode', 'reference', 'latitude', 'longitude'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) return;
    const write = async (trx: AnyDb) => {
      for (const row of rows) await trx.updateTable('listings').set(searchColumnsOf(row)).where('id', '=', row.id).execute();
    };
    await (db.isTransaction ? write(db) : db.transaction().execute(write));
    after = rows.at(-1)!.id;
  }
}

/** The copies on every link, with the same choice of city as the triggers (first by position, then id). */
async function fillLinkCopies(db: AnyDb): Promise<void> {
  await db
    .updateTable('listing_terms')
    .set((eb) => ({
      status: eb.selectFrom('listings as l').select('l.status').whereRef('l.id', '=', 'listing_terms.listing_id'),
      price: eb.selectFrom('listings as l').select('l.price').whereRef('l.id', '=', 'listing_terms.listing_id'),
      city_id: eb
        .selectFrom('listing_terms as c')
        .select('c.term_id')
        .whereRef('c.listing_id', '=', 'listing_terms.listing_id')
        .where('c.taxonomy', '=', 'property_city')
        .orderBy('c.position')
        .orderBy('c.term_id')
        .limit(1),
    }))
    .execute();
}
