import type { Kysely } from 'kysely';
import { clusterTermLinks } from '../dialect/ddl/term-links-clustered.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Term links written into fewer structures (db/dialect/ddl/term-links-clustered.ts): the term index that the
 * search index already covers goes, and on SQLite the table is kept in its primary key's order (WITHOUT ROWID).
 */
export async function up(db: AnyDb): Promise<void> {
  await clusterTermLinks(db);
}
