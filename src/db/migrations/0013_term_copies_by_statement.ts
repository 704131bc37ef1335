import type { Kysely } from 'kysely';
import { checkTermCopiesByStatement } from '../dialect/ddl/term-copies-by-statement.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The copies on term links (migration 0006) cost nothing when a writer gives them right, as the bulk write
 * path does (db/dialect/ddl/term-copies-by-statement.ts): PostgreSQL checks them once per statement instead
 * of filling them once per link, SQLite rewrites only links whose copies differ. The same copies either way.
 */
export async function up(db: AnyDb): Promise<void> {
  await checkTermCopiesByStatement(db);
}
