import type { Kysely } from 'kysely';
import { binaryText, identity } from '../dialect/ddl/columns.js';
import { createTermTriggers } from '../dialect/ddl/term-triggers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Users, sessions, terms, listings and their term links: the core every later migration extends. */
export async function up(db: AnyDb): Promise<void> {
  const text = binaryText(db);

  let users = db.schema
    .createTable('users')
    .addColumn('id', 'integer', identity(db))
    .addColumn('username', text, (c) => c.notNull().unique())
    .addColumn('email', text, (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'));
  for (const name of ['display_name', 'first_name', 'last_name', 'phone', 'mobile', 'whatsapp', 'bio', 'website', 'language']) {
    users = users.addColumn(name, 'text', (c) => c.notNull().defaultTo(''));
  }
  await users
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_role_idx').on('users').column('role').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('refresh_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('terms')
    .addColumn('id', 'integer', identity(db))
    .addColumn('taxonomy', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', text, (c) => c.notNull())
    .addColumn('sort_key', text, (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parent_id', 'integer', (c) => c.references('terms.id').onDelete('set null'))
    .addColumn('location_parent_id', 'integer', (c) => c.references('terms.id').onDelete('set null'))
    .addColumn('image_url', 'text')
    .addColumn('marker_icon_url', 'text')
    .addColumn('marker_retina_icon_url', 'text')
    .addColumn('custom_link', 'text')
    .addColumn('color', 'text')
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('terms_taxonomy_slug_unique', ['taxonomy', 'slug'])
    .execute();
  // Each term listing filters by taxonomy and orders by one of these keys.
  await db.schema.createIndex('terms_taxonomy_sort_idx').on('terms').columns(['taxonomy', 'sort_key', 'id']).execute();
  await db.schema.createIndex('terms_taxonomy_count_idx').on('terms').columns(['taxonomy', 'count']).execute();
  await db.schema.createIndex('terms_parent_idx').on('terms').columns(['parent_id']).execute();
  await db.schema.createIndex('terms_location_parent_idx').on('terms').columns(['location_parent_id']).execute();

  await db.schema
    .createTable('listings')
    .addColumn('id', 'integer', identity(db))
    .addColumn('slug', text, (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reference', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('price', 'double precision')
    .addColumn('second_price', 'double precision')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('price_prefix', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('price_postfix', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('bedrooms', 'integer')
    .addColumn('bathrooms', 'integer')
    .addColumn('rooms', 'integer')
    .addColumn('garage', 'integer')
    .addColumn('garage_size', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('size', 'double precision')
    .addColumn('size_unit', 'text', (c) => c.notNull().defaultTo('sqft'))
    .addColumn('land_size', 'double precision')
    .addColumn('land_size_unit', 'text', (c) => c.notNull().defaultTo('sqft'))
    .addColumn('year_built', 'integer')
    .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('zipcode', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('video_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('virtual_tour', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text')
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('listings_status_published_idx').on('listings').columns(['status', 'published_at']).execute();
  await db.schema.createIndex('listings_author_idx').on('listings').column('author_id').execute();

  await db.schema
    .createTable('listing_terms')
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
    .addColumn('taxonomy', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('listing_terms_pk', ['listing_id', 'term_id'])
    .execute();
  // The reverse direction: which listings use a term (search filters, counts).
  await db.schema.createIndex('listing_terms_term_idx').on('listing_terms').columns(['term_id', 'listing_id']).execute();

  // Version stamps of cached answers (term listings), moved by triggers (dialect/term-triggers.ts).
  await db.schema
    .createTable('cache_versions')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('version', 'text', (c) => c.notNull())
    .execute();
  await db.insertInto('cache_versions').values({ name: 'terms', version: 'initial' }).execute();

  await createTermTriggers(db);
}
