import type { Kysely } from 'kysely';
import { identity } from '../dialect/ddl/columns.js';
import { createDirectoryTriggers } from '../dialect/ddl/directory-triggers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const AGENT_TEXT = [
  'position',
  'company',
  'bio',
  'mobile',
  'whatsapp',
  'fax',
  'website',
  'license',
  'tax_number',
  'service_areas',
  'specialties',
];
const AGENCY_TEXT = ['description', 'mobile', 'whatsapp', 'fax', 'website', 'license', 'tax_number', 'address'];

/**
 * The directory (docs/api.md 5): the rest of the agent and agency records and the agents' category and city
 * terms; reviews of listings, agents and agencies with one reaction per user (6.1); leads with their
 * recipients (6.3); domain events that the notifications issue turns into notifications; and the
 * `directory` and `reviews` cache stamps.
 *
 * Ratings are kept as an integer sum beside the count, changed by increments under the target's row lock,
 * so that concurrent reviews are never lost; the one-decimal average is computed from both in JavaScript
 * (identical on both databases, which round halves differently).
 */
export async function up(db: AnyDb): Promise<void> {
  const agents = () => db.schema.alterTable('agents');
  for (const name of AGENT_TEXT)
    await agents()
      .addColumn(name, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  // JSON: `languages` an array of names, `social` an object of profile URLs.
  await agents()
    .addColumn('languages', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await agents()
    .addColumn('social', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await agents()
    .addColumn('picture_media_id', 'integer', (c) => c.references('media.id').onDelete('set null'))
    .execute();
  await agents()
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await agents()
    .addColumn('reviews_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('agents_visible_name_idx').on('agents').columns(['visible', 'sort_key', 'id']).execute();

  const agencies = () => db.schema.alterTable('agencies');
  for (const name of AGENCY_TEXT)
    await agencies()
      .addColumn(name, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  await agencies().addColumn('latitude', 'double precision').execute();
  await agencies().addColumn('longitude', 'double precision').execute();
  await agencies()
    .addColumn('social', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await agencies()
    .addColumn('logo_media_id', 'integer', (c) => c.references('media.id').onDelete('set null'))
    .execute();
  await agencies()
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await agencies()
    .addColumn('reviews_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('agencies_name_idx').on('agencies').columns(['sort_key', 'id']).execute();

  await db.schema
    .alterTable('listings')
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('agent_terms')
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
    .addColumn('taxonomy', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('agent_terms_pk', ['agent_id', 'term_id'])
    .execute();
  await db.schema.createIndex('agent_terms_term_idx').on('agent_terms').columns(['term_id', 'agent_id']).execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'integer', identity(db))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    // Null once the author's account is deleted: the review stays, shown as by "Deleted user".
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One review per user and target; the index also finds a user's reviews.
  await db.schema
    .createIndex('reviews_author_target_unique')
    .on('reviews')
    .columns(['author_id', 'target_type', 'target_id'])
    .unique()
    .execute();
  await db.schema.createIndex('reviews_target_date_idx').on('reviews').columns(['target_type', 'target_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('reviews_target_rating_idx').on('reviews').columns(['target_type', 'target_id', 'rating', 'id']).execute();

  // Likes and dislikes are these rows, counted when read: concurrent reactions cannot lose one another.
  await db.schema
    .createTable('review_reactions')
    .addColumn('review_id', 'integer', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reaction', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('review_reactions_pk', ['review_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('leads')
    .addColumn('id', 'integer', identity(db))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('property_id', 'integer', (c) => c.references('listings.id').onDelete('set null'))
    .addColumn('agent_id', 'integer', (c) => c.references('agents.id').onDelete('set null'))
    .addColumn('agency_id', 'integer', (c) => c.references('agencies.id').onDelete('set null'))
    .addColumn('sender_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('user_type', 'text', (c) => c.notNull().defaultTo('other'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('lead_recipients')
    .addColumn('lead_id', 'integer', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('lead_recipients_pk', ['lead_id', 'user_id'])
    .execute();
  await db.schema.createIndex('lead_recipients_user_idx').on('lead_recipients').columns(['user_id', 'lead_id']).execute();

  // Things that happened and that someone should hear about (a new lead, a new review): written in the
  // transaction of the change, turned into notifications by the notifications module.
  await db.schema
    .createTable('domain_events')
    .addColumn('id', 'integer', identity(db))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text')
    .execute();
  await db.schema.createIndex('domain_events_pending_idx').on('domain_events').columns(['processed_at', 'id']).execute();

  await db
    .insertInto('cache_versions')
    .values([
      { name: 'directory', version: 'initial' },
      { name: 'reviews', version: 'initial' },
    ])
    .execute();
  await createDirectoryTriggers(db);
}
