import { CompiledQuery, sql } from 'kysely';
import type { AnyDb } from '../any-db.js';
import { copyRows } from '../postgres-copy.js';
import { dialectOf } from './index.js';

/**
 * What a bulk write (modules/properties/bulk/) needs to know of the database underneath: how to insert many
 * rows with few statements, how to set a table's triggers and secondary indexes aside for a load into empty
 * tables and put them back, how to reserve ids, and how to rebuild the keyword index afterwards.
 *
 * Statements are sent as compiled queries, without Kysely's query builder: building a 30,000-value insert
 * node by node costs more than running it.
 */

/**
 * Values one SQLite statement binds (its limit is 32,766). Far below the limit: preparing a multi-row insert
 * costs more per row the longer it is (inserting 240,000 term links measured 2.2 s in statements of 4,571
 * rows, 0.6-0.8 s in statements of 128 to 256 rows, the same as one prepared single-row insert reused).
 */
const SQLITE_VALUES_PER_STATEMENT = 2_000;

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/**
 * Inserts `rows` (arrays of values in the order of `columns`) into `table`, in as few statements as the
 * database allows. SQLite: multi-row VALUES of up to 2,000 bound values. PostgreSQL: one COPY
 * (postgres-copy.ts). Row triggers in force fire for every row either way.
 */
export async function insertRows(db: AnyDb, table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  if (dialectOf(db) === 'postgres') return copyRows(db, table, columns, rows);
  const perStatement = Math.max(1, Math.floor(SQLITE_VALUES_PER_STATEMENT / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const end = Math.min(rows.length, start + perStatement);
    const values = new Array<unknown>((end - start) * columns.length);
    let n = 0;
    for (let row = start; row < end; row++) for (const value of rows[row]!) values[n++] = value;
    await db.executeQuery(CompiledQuery.raw(sqliteInsertSql(table, columns, end - start), values));
  }
}

/** The text of the last SQLite inserts by table, columns and row count: full statements repeat it. */
const sqliteInsertTexts = new Map<string, string>();

function sqliteInsertSql(table: string, columns: readonly string[], rowCount: number): string {
  const key = `${table}(${columns.join(',')})${rowCount}`;
  let text = sqliteInsertTexts.get(key);
  if (text === undefined) {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    text = `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values ${Array.from({ length: rowCount }, () => tuple).join(', ')}`;
    // Only a few shapes are full-sized; the last statement of each batch is not worth keeping.
    if (sqliteInsertTexts.size > 64) sqliteInsertTexts.clear();
    sqliteInsertTexts.set(key, text);
  }
  return text;
}

/**
 * `count` new ids for rows of `table` (an identity or AUTOINCREMENT key) that no other writer will take:
 * PostgreSQL draws them from the identity's sequence (unique, ascending, not necessarily consecutive with
 * other writers about); SQLite moves `sqlite_sequence` past them in the caller's write transaction (one
 * writer at a time), so they follow every id ever given, deleted ones included. Run inside a transaction.
 */
export async function reserveIds(trx: AnyDb, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  if (dialectOf(trx) === 'postgres') {
    const { rows } = await sql<{ id: number }>`
      select nextval(pg_get_serial_sequence(${table}, 'id'))::integer as id from generate_series(1, ${count})`.execute(trx);
    return rows.map((row) => row.id).sort((a, b) => a - b);
  }
  // A write first: it takes the write lock, so the highest id read next stays the highest until commit.
  await sql`insert into sqlite_sequence (name, seq) select ${table}, 0 where not exists (select 1 from sqlite_sequence where name = ${table})`.execute(
    trx,
  );
  const { rows } = await sql<{ last: number }>`
    update sqlite_sequence set seq = max(seq, (select coalesce(max(id), 0) from ${sql.table(table)})) + ${count}
    where name = ${table} returning seq as last`.execute(trx);
  const last = Number(rows[0]!.last);
  return Array.from({ length: count }, (_, n) => last - count + 1 + n);
}

/**
 * Listings per transaction of a live bulk write. PostgreSQL: a hundred, because every link of a published
 * listing updates its term's count row (term-triggers.ts) and a row updated many times in one transaction
 * grows a chain of versions that each further update walks (measured at 10,000 listings: 1,000 per
 * transaction wrote about 300 listings/s, 100 about 430/s, and 550/s with `tidyBetweenTransactions` every
 * ten). SQLite has no such chains, and a commit writes each page the transaction dirtied once, however
 * many of its rows went there: most are pages of the indexes, each touched by inserts all over it, so larger
 * transactions write fewer pages per listing (30,000 listings into 100,000, the wide cache and rare
 * checkpoints of `withBulkSettings`, three runs each: 24.4 s by 1,000, 22.7 s by 2,500, 20.2 s by 5,000,
 * 2026-11-26). The price: a transaction of 5,000 holds the write lock about 3 s on a 2-core machine, which
 * other writers wait out (busy_timeout: 5 s, database.ts).
 */
export function liveBatchSize(db: AnyDb): number {
  return dialectOf(db) === 'postgres' ? 100 : 5_000;
}

/**
 * Between live transactions, every `every`-th time: PostgreSQL vacuums `tables` (small, updated once per
 * written row by triggers, as `terms` by the term counts), whose pages otherwise fill with dead versions
 * until updates can no longer stay on their page (HOT) and each also writes every index of the table; the
 * autovacuum, waking once a minute, falls behind a bulk write. SQLite rewrites rows in place: nothing to do.
 */
export async function tidyBetweenTransactions(db: AnyDb, tables: readonly string[]): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql.raw(`vacuum ${tables.map(quote).join(', ')}`).execute(db);
}

/**
 * Runs `write`, the work of one live bulk transaction, between the SQLite change log's bulk mark and its
 * removal (db/dialect/ddl/change-log-once-per-bulk-transaction.ts): while the mark holds the highest `seq`
 * of before the transaction, the term links and agents of a listing whose change this transaction has just
 * recorded record nothing more. The mark is written first, under the write lock it takes, and deleted last:
 * no committed state holds it, and a failure rolls both back. PostgreSQL records once per statement already.
 */
export async function inMarkedTransaction<T>(trx: AnyDb, write: () => Promise<T>): Promise<T> {
  if (dialectOf(trx) === 'postgres') return write();
  await sql`insert into change_log_bulk_mark (seq) select coalesce(max(seq), 0) from change_log`.execute(trx);
  const result = await write();
  await sql`delete from change_log_bulk_mark`.execute(trx);
  return result;
}

/**
 * Page cache of SQLite's connection during a bulk write (KiB); the default 2 MiB makes every index insert a
 * read. A fresh load rebuilds each index in one sort, which SQLite keeps in memory up to the cache's size:
 * 256 MiB. A live write inserts into the indexes all over; their pages beyond the cache come back from the
 * operating system's file cache, and the cache is the importing process's memory: 64 MiB. 100,000 CSV
 * listings imported into 10,000 (feed import, SQLite, 372 MB database at the end): peak resident memory
 * 524 MB with 256 MiB, 310 MB with 64 MiB, 263 MB with 32 MiB, 2026-11-27.
 */
const SQLITE_BULK_CACHE_KIB = { fresh: 262_144, live: 65_536 } as const;
/**
 * Write-ahead log pages after which a commit of a bulk write copies the log into the database (SQLite's
 * default: 1,000). A live transaction of 1,000 listings dirties more than that, so by default every commit
 * checkpoints, copying again the index pages that every transaction touches; one checkpoint per 80 MB of log
 * copies each of them once. 10,000 listings into 100,000, statements timed: the 10 commits 2.6 s → 1.9–2.0 s
 * (four runs); the bench's live rate moved within its run-to-run spread (1,206 → 1,339 and 1,194 a second).
 */
const SQLITE_BULK_CHECKPOINT_PAGES = 20_000;

/**
 * Runs `write`, a bulk write of the given kind (a `fresh` load into empty tables or a `live` one), with the
 * connection set for it: SQLite's page cache widened (random inserts into the indexes of a large table then
 * find their pages in memory) and its log checkpointed less often, both set back afterwards.
 * PostgreSQL's buffers are the server's: nothing to do.
 */
export async function withBulkSettings<T>(db: AnyDb, kind: 'fresh' | 'live', write: () => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgres') return write();
  const cacheBefore = await pragmaNumber(db, 'cache_size');
  const checkpointBefore = await pragmaNumber(db, 'wal_autocheckpoint');
  await sql.raw(`pragma cache_size = -${SQLITE_BULK_CACHE_KIB[kind]}`).execute(db);
  await sql.raw(`pragma wal_autocheckpoint = ${SQLITE_BULK_CHECKPOINT_PAGES}`).execute(db);
  try {
    return await write();
  } finally {
    await sql.raw(`pragma cache_size = ${cacheBefore}`).execute(db);
    await sql.raw(`pragma wal_autocheckpoint = ${checkpointBefore}`).execute(db);
  }
}

async function pragmaNumber(db: AnyDb, name: 'cache_size' | 'wal_autocheckpoint'): Promise<number> {
  const { rows } = await sql<Record<string, number>>`${sql.raw(`pragma ${name}`)}`.execute(db);
  return Number(Object.values(rows[0]!)[0]);
}

/** Triggers, indexes and keys set aside by `setAsideForLoad`, to be put back by `restore`. */
export interface SetAside {
  /** Puts everything back from its own definition, then rebuilds what reads the loaded rows (full-text index, statistics). */
  restore(): Promise<void>;
}

/**
 * For a load into empty tables, inside the caller's transaction (so that a failed load leaves the tables
 * as they were, triggers and indexes included): sets aside the user triggers of `tables`, their secondary
 * indexes (rebuilt afterwards with one sorted pass instead of a random insert per row) and, on PostgreSQL,
 * their foreign keys (added back, each checks all rows with one join instead of a query per row). Indexes
 * behind primary keys and unique constraints stay. Definitions come back from the catalogue's own text,
 * exactly as the migrations made them. Other writers of these tables wait until the transaction ends.
 */
export async function setAsideForLoad(trx: AnyDb, tables: readonly string[]): Promise<SetAside> {
  return dialectOf(trx) === 'postgres' ? setAsidePostgres(trx, tables) : setAsideSqlite(trx, tables);
}

async function setAsideSqlite(trx: AnyDb, tables: readonly string[]): Promise<SetAside> {
  const { rows: objects } = await sql<{ type: string; name: string; sql: string }>`
    select type, name, sql from sqlite_master
    where type in ('index', 'trigger') and sql is not null and tbl_name in (${sql.join(tables)})`.execute(trx);
  for (const { type, name } of objects) await sql.raw(`drop ${type} ${quote(name)}`).execute(trx);
  return {
    async restore() {
      // Indexes before triggers, as the migrations made them.
      for (const { sql: definition } of [...objects].sort((a, b) => (a.type === b.type ? 0 : a.type === 'index' ? -1 : 1))) {
        await sql.raw(definition).execute(trx);
      }
      // External-content full-text tables over the loaded tables read their rows again.
      const { rows: fullText } = await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and sql like 'CREATE VIRTUAL TABLE % USING fts5(%content=%'`.execute(trx);
      for (const { name } of fullText) await sql.raw(`insert into ${quote(name)}(${quote(name)}) values ('rebuild')`).execute(trx);
      for (const table of tables) await sql.raw(`analyze ${quote(table)}`).execute(trx);
    },
  };
}

async function setAsidePostgres(trx: AnyDb, tables: readonly string[]): Promise<SetAside> {
  for (const table of tables) await sql.raw(`alter table ${quote(table)} disable trigger user`).execute(trx);
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select index.relname as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class index on index.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
    where t.relname = any(${[...tables]}) and t.relnamespace = current_schema()::regnamespace
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`.execute(trx);
  for (const { name } of indexes) await sql.raw(`drop index ${quote(name)}`).execute(trx);
  const { rows: keys } = await sql<{ table: string; name: string; definition: string }>`
    select t.relname as table, c.conname as name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_class t on t.oid = c.conrelid
    where c.contype = 'f' and t.relname = any(${[...tables]}) and t.relnamespace = current_schema()::regnamespace`.execute(trx);
  for (const { table, name } of keys) await sql.raw(`alter table ${quote(table)} drop constraint ${quote(name)}`).execute(trx);
  return {
    async restore() {
      await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
      for (const { definition } of indexes) await sql.raw(definition).execute(trx);
      for (const { table, name, definition } of keys) {
        await sql.raw(`alter table ${quote(table)} add constraint ${quote(name)} ${definition}`).execute(trx);
      }
      for (const table of tables) await sql.raw(`alter table ${quote(table)} enable trigger user`).execute(trx);
      // Statistics come with the vacuum after commit (settleAfterLoad).
    },
  };
}

/**
 * Fresh load: the change log (ddl/change-log.ts) gets one `listing` change for every listing, in id order, in
 * the load's transaction: what a follower needs to index them (the row triggers, set aside, would have
 * recorded the same listings once per row: the listing, each term link and each agent).
 *
 * PostgreSQL numbers them as they are inserted, under the lock that the commit-time numbering takes (every
 * `cache_versions` row in name order, then `change_log_head`), held from here to commit: no other transaction
 * numbers meanwhile, so these numbers follow every committed one and precede every later one, as numbering at
 * commit would make them. Numbering at commit instead updates every row once more (a new version of each,
 * with its index entries): at 100,000 listings the commit took 0.73 s. The lock is held for the rest of the
 * load's transaction (its stamps and commit): other writers' commits wait that long.
 */
export async function recordNewListings(trx: AnyDb): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await sql`select 1 from cache_versions order by name for update`.execute(trx);
    await sql`
      with added as (select count(*) as n from listings),
           head as (update change_log_head set seq = seq + (select n from added) where id = 1 returning seq - (select n from added) as last)
      insert into change_log (seq, entity, entity_id)
      select (select last from head) + row_number() over (order by id), 'listing', id from listings order by id`.execute(trx);
  } else {
    await sql`insert into change_log (entity, entity_id, changed_at)
      select 'listing', id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') from listings order by id`.execute(trx);
  }
}

/**
 * Fresh load: what the link trigger of ddl/term-triggers.ts, set aside, does row by row, done set-wise: each
 * term's count moves by one for each link of a published listing. Each link carries its listing's state (the
 * search triggers' copy, written with the links), so the links are counted alone, without a join to their
 * listings (100,000 listings on SQLite: 1.0 s with the join, 0.06 s without).
 */
export async function countTermsOfLoadedLinks(trx: AnyDb): Promise<void> {
  await sql`
    update terms set count = terms.count + added.n
    from (select term_id, count(*) as n from listing_terms where status = 'publish' group by term_id) as added
    where terms.id = added.term_id`.execute(trx);
}

/** Vacuums run at once after a load: one server process each, as many as a small machine has processors. */
const SETTLING_VACUUMS = 2;

/**
 * After a load committed: PostgreSQL vacuums the loaded tables (the visibility map that index-only scans
 * need, which autovacuum would otherwise make a minute or so later, in the middle of the first requests).
 * One table per statement, two statements at a time on connections of their own: a vacuum runs on one
 * server process, and `listings` alone took two thirds of the time of all six in one statement.
 * SQLite needs nothing more.
 */
export async function settleAfterLoad(db: AnyDb, tables: readonly string[]): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  const waiting = [...tables];
  const vacuumNext = async (): Promise<void> => {
    for (let table = waiting.shift(); table !== undefined; table = waiting.shift()) {
      await sql.raw(`vacuum (analyze) ${quote(table)}`).execute(db);
    }
  };
  await Promise.all(Array.from({ length: SETTLING_VACUUMS }, vacuumNext));
}
