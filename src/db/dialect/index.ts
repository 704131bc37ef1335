import { type Expression, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { AnyDb } from '../any-db.js';

/**
 * The only place that knows which database is underneath. Everything outside `src/db/` asks these helpers
 * instead of branching on the dialect itself.
 */
export type DialectName = 'sqlite' | 'postgres';

export function dialectOf(db: AnyDb): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** True when a driver error is a unique-constraint violation, on either driver. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  // better-sqlite3 reports SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY; pg reports SQLSTATE 23505.
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * A column as a sort key that no index may provide. SQLite otherwise walks an index in the sort's order and
 * filters each row when a LIMIT is given, which reads every listing of the state when a selective filter (a
 * small circle, a keyword) matches fewer rows than the page: `+x` keeps the filter's own index in charge.
 * PostgreSQL weighs both plans itself and gets the column as it is.
 */
export function unindexedSortKey<T>(db: AnyDb, column: Expression<T>): Expression<T> {
  return dialectOf(db) === 'sqlite' ? sql<T>`+${column}` : column;
}

/**
 * A column that a condition reads without its indexes. SQLite's statistics are sampled (ANALYZE with an
 * analysis limit) and can take a common value for a rare one: it then plans `status IN ('publish', 'sold')`
 * through an index on `status` and sorts nine listings in ten for every page of a walk by id. `+x` leaves the
 * plan to the other conditions (the id range). PostgreSQL keeps real statistics and gets the column as it is.
 */
export function unindexedColumn<T>(db: AnyDb, column: Expression<T>): Expression<T> {
  return dialectOf(db) === 'sqlite' ? sql<T>`+${column}` : column;
}

/**
 * A condition that holds for most rows, said so to the planner. A partial index's own condition (`status IN
 * ('publish', 'sold')`) must be written as it is for the index to be usable, and so invites SQLite, without
 * statistics or with sampled ones, to plan through another index on `status` instead; wrapped in `likely()` it
 * still proves the partial index usable and no longer looks selective. PostgreSQL gets the condition as it is.
 */
export function likelyCondition(db: AnyDb, condition: RawBuilder<boolean>): RawBuilder<boolean> {
  return dialectOf(db) === 'sqlite' ? sql<boolean>`likely(${condition})` : condition;
}

/**
 * Whether each statement is a round trip to a database server (PostgreSQL) rather than a call into this
 * process (SQLite): where one statement can do the work of two at some cost in rows read, it pays there.
 */
export function statementsAreRoundTrips(db: AnyDb): boolean {
  return dialectOf(db) === 'postgres';
}

/**
 * `lower(text)` that folds ASCII letters only on both databases: SQLite's lower() does nothing else, and
 * PostgreSQL's does the same under the "C" collation (under the default collation it also folds É → é,
 * which would make the two databases match different rows).
 */
export function asciiLower(db: AnyDb, text: Expression<string>): RawBuilder<string> {
  return dialectOf(db) === 'postgres' ? sql<string>`lower(${text} collate "C")` : sql<string>`lower(${text})`;
}

/** What `asciiLower` does in the database, for text compared with its result (a LIKE pattern). */
export function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Escapes LIKE's wildcards and the escape character itself, for a pattern used with `escape '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** True when a driver error is a foreign-key violation (a referenced row is gone), on either driver. */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  // better-sqlite3 reports SQLITE_CONSTRAINT_FOREIGNKEY; pg reports SQLSTATE 23503.
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * Serializes transactions that use the same `key` until the caller's transaction ends: PostgreSQL takes a
 * transaction-scoped advisory lock; SQLite runs one write transaction at a time anyway. For look-then-create
 * steps that no unique constraint covers (a location term found by its folded name).
 */
export async function lockTransactionKey(trx: AnyDb, key: string): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

/**
 * Whether a statement runs on this thread, synchronously (SQLite through better-sqlite3), rather than as a round
 * trip that hands the event loop back while it waits (PostgreSQL): a loop of awaited statements here serves no
 * request until it ends, so a long one must yield between its transactions itself (lib/event-loop-turns.ts).
 */
export function statementsHoldTheThread(db: AnyDb): boolean {
  return dialectOf(db) === 'sqlite';
}
