import type { Kysely } from 'kysely';
import { binaryText, identity } from '../dialect/ddl/columns.js';
import { createStampBumpFunction, deferTermAndSessionStamps } from '../dialect/ddl/deferred-stamps.js';
import { createListingTriggers } from '../dialect/ddl/listing-triggers.js';
import { shareMediaStorageKeys } from '../dialect/ddl/media-keys.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The rest of the listing record (docs/api.md 4.1), the agents named on listings, the transition history of the
 * listing states (3.3), the indexes of the listing routes, and the `listings` cache stamp.
 */
export async function up(db: AnyDb): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  const listings = () => db.schema.alterTable('listings');
  await listings()
    .addColumn('sort_title', binaryText(db), (c) => c.notNull().defaultTo(''))
    .execute();
  await listings()
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await listings()
    .addColumn('agency_id', 'integer', (c) => c.references('agencies.id').onDelete('set null'))
    .execute();
  await listings()
    .addColumn('agent_display', 'text', (c) => c.notNull().defaultTo('author_info'))
    .execute();
  await listings()
    .addColumn('additional_features', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await listings()
    .addColumn('floor_plans', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await listings()
    .addColumn('featured_image_id', 'integer', (c) => c.references('media.id').onDelete('set null'))
    .execute();
  await listings().addColumn('rating', 'double precision').execute();
  await listings()
    .addColumn('reviews_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // Owner lists (my-properties) and profile counts filter by author and state.
  await db.schema.dropIndex('listings_author_idx').execute();
  await db.schema.createIndex('listings_author_status_idx').on('listings').columns(['author_id', 'status', 'id']).execute();
  await db.schema.createIndex('listings_agency_idx').on('listings').columns(['agency_id', 'status']).execute();
  await db.schema.createIndex('listings_status_price_idx').on('listings').columns(['status', 'price']).execute();
  await db.schema.createIndex('listings_status_title_idx').on('listings').columns(['status', 'sort_title']).execute();
  await db.schema.createIndex('listings_status_size_idx').on('listings').columns(['status', 'size']).execute();
  // The expiry job looks for published or held listings past their date.
  await db.schema.createIndex('listings_status_expires_idx').on('listings').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('listing_agents')
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('listing_agents_pk', ['listing_id', 'agent_id'])
    .execute();
  await db.schema.createIndex('listing_agents_agent_idx').on('listing_agents').columns(['agent_id', 'listing_id']).execute();

  await db.schema
    .createTable('listing_transitions')
    .addColumn('id', 'integer', identity(db))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('from_state', 'text')
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('listing_transitions_listing_idx').on('listing_transitions').columns(['listing_id', 'id']).execute();

  await shareMediaStorageKeys(db);
  await db.insertInto('cache_versions').values({ name: 'listings', version: 'initial' }).execute();
  await createStampBumpFunction(db);
  await deferTermAndSessionStamps(db);
  await createListingTriggers(db);
}
