import type { Kysely } from 'kysely';
import { binaryText } from '../dialect/ddl/columns.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The slugs listings had before (docs/api.md 4.6): an owner or moderator may change a listing's `slug`, and the
 * page at its former path answers 301 to the new one. A former slug names one listing for good (the primary key),
 * so an old link never leads to another listing; it goes with the listing when that is deleted.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('listing_slug_history')
    .addColumn('slug', binaryText(db), (col) => col.primaryKey())
    .addColumn('listing_id', 'integer', (col) => col.notNull().references('listings.id').onDelete('cascade'))
    /** When the listing stopped answering at this slug. */
    .addColumn('retired_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('listing_slug_history_listing_idx').on('listing_slug_history').column('listing_id').execute();
}
