import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Migration 0014, PostgreSQL: a statement that inserts or deletes many term links or agents records each of
 * their listings once, in id order, instead of once per link (change-log.ts). A follower re-reads the listing
 * a change names, so a second row for the same listing in the same statement tells it nothing, and each row
 * costs its insert and, at commit, its numbering: a bulk write of 100 listings with a dozen links each
 * recorded about 1,450 changes, now about 300. A statement that writes one link records what it did before.
 * SQLite records row by row (no statement triggers): nothing changes there.
 */
export async function recordListingChangesOncePerStatement(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const statement of POSTGRES) await sql.raw(statement).execute(db);
}

const POSTGRES = (['inserted', 'deleted'] as const).map(
  (rows) => `CREATE OR REPLACE FUNCTION change_log_record_${rows}_by_listing_id() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO change_log (entity, entity_id)
       SELECT TG_ARGV[0], listing_id FROM ${rows}_rows GROUP BY listing_id ORDER BY listing_id;
     IF FOUND THEN
       INSERT INTO change_log_pending (txid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
     END IF;
     RETURN NULL;
   END $$`,
);
