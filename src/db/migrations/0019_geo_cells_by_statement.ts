import type { Kysely } from 'kysely';
import { writeGeoCellsByStatement } from '../dialect/ddl/geo-cells-by-statement.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * PostgreSQL: the geo-cell changes of inserted and deleted listings are written once per statement
 * (db/dialect/ddl/geo-cells-by-statement.ts); the same rows. Nothing changes on SQLite.
 */
export async function up(db: AnyDb): Promise<void> {
  await writeGeoCellsByStatement(db);
}
