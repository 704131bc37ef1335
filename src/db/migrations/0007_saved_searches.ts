import type { Kysely } from 'kysely';
import { identity } from '../dialect/ddl/columns.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Saved searches (docs/api.md 7) and the record of which listings each one has matched.
 *
 * A saved search keeps its parameters as the canonical query string (aliases converted, lists joined, values
 * normalized: search-query.ts), so that reading it back gives exactly the search it was saved as, and the
 * matching of later issues reads the same text the search endpoint would. Its owner's listing of saved
 * searches (newest first) walks saved_searches_user_idx (user_id, id); deleting the account removes them.
 *
 * `saved_search_matches` is filled by the alerts job of the notifications issue: a row per (saved search,
 * listing) that has matched, written once, so that a listing is announced to a saved search at most once
 * (docs/api.md 12) however often it re-enters `publish`; `notified_at` is set when the match went out (at once for
 * `instant`, in the next digest for `daily`/`weekly`). It is created here, with the saved searches, so that the
 * data model of the feature is one migration and the later issue adds behaviour, not tables.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('saved_searches')
    .addColumn('id', 'integer', identity(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('query_string', 'text', (c) => c.notNull())
    .addColumn('email_alerts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('frequency', 'text', (c) => c.notNull().defaultTo('daily'))
    .addColumn('last_notified_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saved_searches_user_idx').on('saved_searches').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('saved_search_matches')
    .addColumn('saved_search_id', 'integer', (c) => c.notNull().references('saved_searches.id').onDelete('cascade'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('matched_at', 'text', (c) => c.notNull())
    .addColumn('notified_at', 'text')
    .addPrimaryKeyConstraint('saved_search_matches_pk', ['saved_search_id', 'listing_id'])
    .execute();
  // Deleting a listing deletes its matches: without this index PostgreSQL would scan the table to find them.
  await db.schema.createIndex('saved_search_matches_listing_idx').on('saved_search_matches').column('listing_id').execute();
}
