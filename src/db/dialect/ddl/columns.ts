import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Integer primary key that the database numbers itself. */
export function identity(db: AnyDb): (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return dialectOf(db) === 'postgres'
    ? (col) => col.generatedByDefaultAsIdentity().primaryKey()
    : (col) => col.primaryKey().autoIncrement();
}

/**
 * Text that compares byte by byte. SQLite's default collation already does; PostgreSQL's default follows
 * the server locale, which would sort differently from SQLite. Declaring the column `COLLATE "C"` keeps
 * ORDER BY identical on both and lets PostgreSQL use the column's index for it.
 */
export function binaryText(db: AnyDb) {
  return dialectOf(db) === 'postgres' ? sql`text collate "C"` : sql`text`;
}
