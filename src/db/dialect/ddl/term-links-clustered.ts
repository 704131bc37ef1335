import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Fewer structures written per term link, and a listing's links read in one place:
 * - `listing_terms_term_idx` (term_id, listing_id) goes on both databases: `listing_terms_search_idx` (term_id,
 *   status, city_id, price, listing_id) leads with the term and holds the listing too, so every reader of a
 *   term's links (similar listings, a term's removal cascading to its links) is served by it.
 * - SQLite: the table is rebuilt WITHOUT ROWID, stored in its primary key's order (listing_id, term_id). A
 *   rowid table kept the links twice, the rows by rowid and the primary key beside them: every link written
 *   went into both, and reading a page's links by listing (summaries) found each in the key, then looked its
 *   row up for `taxonomy` and `position`. PostgreSQL's heap has no such second copy to drop.
 *
 * The rebuild follows SQLite's documented procedure for changing a table's form (foreign keys off, copy,
 * swap, check, on) and puts back the table's indexes and triggers from their own stored text. Legacy
 * ALTER TABLE keeps the rename from reparsing the triggers of other tables (listings' delete, status and
 * price copies) that name `listing_terms` while it does not exist. Kysely runs SQLite migrations outside a
 * transaction, which the pragmas need; the swap itself is one transaction.
 */
export async function clusterTermLinks(db: AnyDb): Promise<void> {
  await sql`drop index listing_terms_term_idx`.execute(db);
  if (dialectOf(db) === 'postgres') return;
  await sql`pragma foreign_keys = off`.execute(db);
  await sql`pragma legacy_alter_table = on`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      const { rows: tables } = await sql<{ sql: string }>`
        select sql from sqlite_master where type = 'table' and name = 'listing_terms'`.execute(trx);
      const { rows: dependents } = await sql<{ sql: string }>`
        select sql from sqlite_master
        where type in ('index', 'trigger') and tbl_name = 'listing_terms' and sql is not null
        order by type = 'trigger', name`.execute(trx);
      const definition = tables[0]!.sql.replace(
        /^CREATE TABLE\s+("listing_terms"|listing_terms)/i,
        'CREATE TABLE "listing_terms_clustered"',
      );
      if (definition === tables[0]!.sql) throw new Error(`unexpected definition of listing_terms: ${definition.slice(0, 80)}`);
      await sql.raw(`${definition} WITHOUT ROWID`).execute(trx);
      await sql`insert into listing_terms_clustered (listing_id, term_id, taxonomy, position, status, price, city_id)
        select listing_id, term_id, taxonomy, position, status, price, city_id from listing_terms order by listing_id, term_id`.execute(
        trx,
      );
      await sql`drop table listing_terms`.execute(trx);
      await sql`alter table listing_terms_clustered rename to listing_terms`.execute(trx);
      // Indexes first, then triggers, as the migrations made them.
      for (const { sql: statement } of dependents) await sql.raw(statement).execute(trx);
    });
    const problems = await sql`pragma foreign_key_check(listing_terms)`.execute(db);
    if (problems.rows.length > 0)
      throw new Error(`foreign key check failed after rebuilding listing_terms: ${JSON.stringify(problems.rows)}`);
  } finally {
    await sql`pragma legacy_alter_table = off`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
