import type { Kysely } from 'kysely';
import { countTermsByListingIds } from '../dialect/ddl/term-counts-by-listing-ids.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * PostgreSQL: the term-count statement triggers of migration 0012 look up the listings of the links by id
 * instead of joining every published listing (db/dialect/ddl/term-counts-by-listing-ids.ts); the same counts
 * and locks. Nothing changes on SQLite.
 */
export async function up(db: AnyDb): Promise<void> {
  await countTermsByListingIds(db);
}
