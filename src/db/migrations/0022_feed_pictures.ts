import type { Kysely } from 'kysely';
import { identity } from '../dialect/ddl/columns.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The pictures a feed names for its listings (modules/exchange): each URL waits here until a background job
 * has fetched it into the listing's gallery, and stays as the record of where that picture came from, so that
 * the next import of an unchanged gallery fetches nothing.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('feed_pictures')
    .addColumn('id', 'integer', identity(db))
    .addColumn('listing_id', 'integer', (col) => col.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    /** `pending`, `stored` (media_id set) or `failed` (last_error says why). */
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('media_id', 'integer', (col) => col.references('media.id').onDelete('set null'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('not_before', 'text', (col) => col.notNull())
    .addColumn('last_error', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('feed_pictures_listing_idx').on('feed_pictures').columns(['listing_id', 'position']).execute();
  await db.schema.createIndex('feed_pictures_due_idx').on('feed_pictures').columns(['state', 'not_before', 'id']).execute();
}
