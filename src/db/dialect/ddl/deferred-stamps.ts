import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * PostgreSQL: cache stamps are renewed when a transaction commits, not where its statements ran.
 *
 * A stamp is a `cache_versions` row; renewing it locks the row until commit. Renewed by statement
 * triggers, stamps were locked mid-transaction, between other row locks, in whatever order the statements
 * came: a listing created (`listings` stamp) and then linked to a term (`terms` stamp) against a term
 * created and then used by a listing was a deadlock, answered 500 after a second. Constraint triggers
 * deferred to commit run after every other lock of the transaction is held, and each takes all stamp
 * rows in name order before renewing its own, so two committing transactions wait for each other at
 * most once, never in a cycle. A transaction renews each stamp once (a transaction-local setting
 * remembers it), however many rows it changed.
 *
 * SQLite needs none of this: one writer at a time, triggers run in place (term-triggers.ts,
 * session-triggers.ts, listing-triggers.ts).
 */
export async function createStampBumpFunction(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql
    .raw(
      `CREATE FUNCTION cache_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         done text := current_setting('realty.stamp_' || TG_ARGV[0], true);
       BEGIN
         IF done = txid_current()::text THEN RETURN NULL; END IF;
         PERFORM 1 FROM cache_versions ORDER BY name FOR UPDATE;
         UPDATE cache_versions SET version = md5(random()::text || clock_timestamp()::text) WHERE name = TG_ARGV[0];
         PERFORM set_config('realty.stamp_' || TG_ARGV[0], txid_current()::text, true);
         RETURN NULL;
       END $$`,
    )
    .execute(db);
}

/** `CREATE CONSTRAINT TRIGGER` renewing `stamp` at commit after `events` on `table` (optionally `WHEN`). */
export function deferredStampTrigger(name: string, events: string, table: string, stamp: string, when?: string): string {
  return `CREATE CONSTRAINT TRIGGER ${name} AFTER ${events} ON ${table} DEFERRABLE INITIALLY DEFERRED
          FOR EACH ROW ${when ? `WHEN (${when})` : ''} EXECUTE FUNCTION cache_version_bump('${stamp}')`;
}

/** Moves the `terms` and `sessions` stamps of migrations 0001 and 0002 to commit time. */
export async function deferTermAndSessionStamps(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  const statements = [
    'DROP TRIGGER terms_version ON terms',
    'DROP FUNCTION terms_version()',
    deferredStampTrigger('terms_stamp', 'INSERT OR UPDATE OR DELETE', 'terms', 'terms'),
    'DROP TRIGGER sessions_revoked_stamp ON sessions',
    'DROP TRIGGER users_access_stamp ON users',
    'DROP FUNCTION sessions_version()',
    deferredStampTrigger('sessions_revoked_stamp', 'UPDATE OF revoked_at', 'sessions', 'sessions'),
    deferredStampTrigger('sessions_deleted_stamp', 'DELETE', 'sessions', 'sessions'),
    deferredStampTrigger(
      'users_access_stamp',
      'UPDATE OF role, status',
      'users',
      'sessions',
      'OLD.role IS DISTINCT FROM NEW.role OR OLD.status IS DISTINCT FROM NEW.status',
    ),
    deferredStampTrigger('users_deleted_stamp', 'DELETE', 'users', 'sessions'),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * PostgreSQL: renews now the stamps a migration's row changes have left pending. Migrations run in one
 * transaction, and PostgreSQL refuses DDL on a table (CREATE INDEX in a later migration) while it has trigger
 * events pending; a migration that rewrites rows calls this when done, so the next one may build indexes.
 */
export async function fireDeferredStamps(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`set constraints all immediate`.execute(db);
  await sql`set constraints all deferred`.execute(db);
}
