import type { Kysely } from 'kysely';
import { recordListingChangesOncePerStatement } from '../dialect/ddl/change-log-once-per-statement.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * PostgreSQL: a statement writing many term links or agents records each of their listings once in the change
 * log (db/dialect/ddl/change-log-once-per-statement.ts). Nothing changes on SQLite.
 */
export async function up(db: AnyDb): Promise<void> {
  await recordListingChangesOncePerStatement(db);
}
