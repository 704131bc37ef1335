import type { Kysely } from 'kysely';
import { countTermsByStatement } from '../dialect/ddl/term-count-statements.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * PostgreSQL: term counts move once per statement that adds or removes term links instead of once per link
 * (db/dialect/ddl/term-count-statements.ts), the same counts for less work when listings are written many at
 * a time. Nothing changes on SQLite.
 */
export async function up(db: AnyDb): Promise<void> {
  await countTermsByStatement(db);
}
