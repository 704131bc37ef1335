import type { Kysely } from 'kysely';
import { recordListingChangesOncePerBulkTransaction } from '../dialect/ddl/change-log-once-per-bulk-transaction.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * SQLite: inside a bulk writer's transaction, a listing's term links and agents add no change row after the
 * one its transaction has just recorded for it (db/dialect/ddl/change-log-once-per-bulk-transaction.ts).
 * Nothing changes on PostgreSQL.
 */
export async function up(db: AnyDb): Promise<void> {
  await recordListingChangesOncePerBulkTransaction(db);
}
