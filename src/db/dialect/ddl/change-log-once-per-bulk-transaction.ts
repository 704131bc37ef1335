import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Migration 0017, SQLite: inside a transaction of the bulk writer (modules/properties/bulk/), a term link or
 * agent inserted for a listing whose change the transaction has just recorded records nothing more. A live
 * bulk write of a thousand listings recorded about 15 changes a listing (the listing, then each of its dozen
 * links and its agents, one `change_log` row and one `sqlite_sequence` update each); now about three (the
 * listing, its first link, its first agent). PostgreSQL records once per statement already
 * (change-log-once-per-statement.ts): nothing changes there.
 *
 * A follower re-reads the listing a change names, so a second row for the same listing tells it nothing if
 * both commit together; but SQLite cannot tell a trigger which rows its own transaction wrote. The bulk writer
 * says so: `change_log_bulk_mark` holds one row only inside its transactions, the highest `seq` when the
 * transaction began (written as its first statement, under the write lock, and deleted as its last, so that
 * no committed state ever holds a row: a failed transaction rolls both back). SQLite has one writer at a
 * time, so while the mark exists every `change_log` row above it is the marking transaction's own. A link's
 * insert records nothing when the last change row is above the mark and names its listing (links and agents
 * come listing by listing after their listings); with no mark, as for every other writer, it records as
 * before (change-log.ts). Updates and deletes record as before.
 */
export async function recordListingChangesOncePerBulkTransaction(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  for (const statement of SQLITE) await sql.raw(statement).execute(db);
}

const SQLITE_NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** The last change row names listing NEW.listing_id and is the marking transaction's own. */
const RECORDED_IN_THIS_BULK_TRANSACTION = `EXISTS (
  SELECT 1 FROM change_log c, change_log_bulk_mark m
   WHERE c.seq = (SELECT max(seq) FROM change_log) AND c.seq > m.seq
     AND c.entity = 'listing' AND c.entity_id = NEW.listing_id)`;

const SQLITE = [
  `CREATE TABLE change_log_bulk_mark (seq INTEGER NOT NULL)`,
  ...['listing_terms', 'listing_agents'].flatMap((table) => [
    `DROP TRIGGER ${table}_change_insert`,
    `CREATE TRIGGER ${table}_change_insert AFTER INSERT ON ${table}
     WHEN NOT ${RECORDED_IN_THIS_BULK_TRANSACTION}
     BEGIN
       INSERT INTO change_log (entity, entity_id, changed_at) VALUES ('listing', NEW.listing_id, ${SQLITE_NOW});
     END`,
  ]),
];
