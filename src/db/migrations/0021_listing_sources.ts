import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Where an imported listing came from (modules/exchange): its source's name and the key the source gives it,
 * so that importing the same feed again finds the listing instead of adding a copy, and the fingerprint of the
 * record as last imported, so that an unchanged record writes nothing. A listing has at most one source; the
 * row goes with its listing.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('listing_sources')
    .addColumn('listing_id', 'integer', (col) => col.primaryKey().references('listings.id').onDelete('cascade'))
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('source_key', 'text', (col) => col.notNull())
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('imported_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('listing_sources_key_idx').on('listing_sources').columns(['source', 'source_key']).unique().execute();
}
