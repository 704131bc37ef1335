import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../src/config.js';

/**
 * Raw loading connections for bench/bulk-listings.ts, one per database: multi-row INSERTs with bound values
 * and no query builder in between (building a 30,000-value insert costs more than running it), and the
 * bookkeeping triggers of the loaded tables set aside during the load. bulk-listings.ts then does in a few
 * set-wise statements what those triggers would have done row by row.
 */
export interface BulkLoader {
  /** Sets aside the triggers of `tables`, and what slows a load (secondary indexes, row-by-row key checks), until `resume`. */
  suspend(tables: readonly string[]): Promise<void>;
  /** Rows as arrays of values in the order of `columns`; any number, split into statements as needed. */
  insert(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void>;
  transaction(write: () => Promise<void>): Promise<void>;
  /** Puts back what `suspend` set aside and rebuilds what reads the loaded rows (full-text index, statistics). */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** The loader of the database `config` names. */
export async function openLoader(config: DatabaseConfig): Promise<BulkLoader> {
  return config.kind === 'sqlite' ? new SqliteLoader(config.path) : PostgresLoader.connect(config.url);
}

/** Values one statement may bind: SQLite's limit is 32,766, PostgreSQL's 65,535. */
const SQLITE_VALUES_PER_STATEMENT = 32_000;
/** A few thousand rows per statement on PostgreSQL (a listing row binds 55 values, a term link 7). */
const POSTGRES_VALUES_PER_STATEMENT = 30_000;

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** `insert into "t" ("a", "b") values (…), (…)` for `rowCount` rows, with `placeholder(n)` for the n-th value (0-based). */
function insertSql(table: string, columns: readonly string[], rowCount: number, placeholder: (n: number) => string): string {
  const rows: string[] = [];
  for (let row = 0; row < rowCount; row++) {
    rows.push(`(${columns.map((_, column) => placeholder(row * columns.length + column)).join(', ')})`);
  }
  return `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values ${rows.join(', ')}`;
}

/** Slices of at most `size` rows. */
function* slices<T>(rows: readonly T[], size: number): Generator<readonly T[]> {
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}

/**
 * SQLite: no rollback journal and no syncing during the load (a failed load is thrown away with its
 * temporary file), a large page cache, foreign keys unchecked (SQLite's default for a connection; the rows
 * are consistent by construction, which bench/verify-bulk.ts checks), and the secondary indexes of the
 * loaded tables dropped and created again afterwards (a sorted build instead of a million random inserts).
 * Indexes and triggers come back from their own `sqlite_master` text, exactly as the migrations made them.
 */
export class SqliteLoader implements BulkLoader {
  private readonly connection: SQLite.Database;
  private readonly statements = new Map<string, SQLite.Statement>();
  private setAside: { type: string; name: string; sql: string }[] = [];

  constructor(file: string) {
    this.connection = new SQLite(file);
    this.connection.pragma('journal_mode = OFF');
    this.connection.pragma('synchronous = OFF');
    this.connection.pragma('cache_size = -524288'); // 512 MiB
    this.connection.pragma('temp_store = MEMORY');
  }

  async suspend(tables: readonly string[]): Promise<void> {
    const placeholders = tables.map(() => '?').join(', ');
    this.setAside = this.connection
      .prepare(
        `select type, name, sql from sqlite_master where type in ('index', 'trigger') and sql is not null and tbl_name in (${placeholders})`,
      )
      .all(...tables) as { type: string; name: string; sql: string }[];
    for (const { type, name } of this.setAside) this.connection.exec(`drop ${type} ${quote(name)}`);
  }

  async insert(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
    const perStatement = Math.max(1, Math.floor(SQLITE_VALUES_PER_STATEMENT / columns.length));
    for (const slice of slices(rows, perStatement)) this.statement(table, columns, slice.length).run(slice.flat());
  }

  async transaction(write: () => Promise<void>): Promise<void> {
    // better-sqlite3's transaction() takes synchronous functions only; insert() never awaits anything real.
    this.connection.exec('begin');
    try {
      await write();
      this.connection.exec('commit');
    } catch (error) {
      if (this.connection.inTransaction) this.connection.exec('rollback');
      throw error;
    }
  }

  async resume(): Promise<void> {
    // Indexes before triggers; then the external-content full-text tables read the loaded rows once.
    for (const { sql } of [...this.setAside].sort((a, b) => (a.type === b.type ? 0 : a.type === 'index' ? -1 : 1))) {
      this.connection.exec(sql);
    }
    this.setAside = [];
    const fullText = this.connection
      .prepare(`select name from sqlite_master where type = 'table' and sql like 'CREATE VIRTUAL TABLE % USING fts5(%content=%'`)
      .all() as { name: string }[];
    for (const { name } of fullText) this.connection.exec(`insert into ${quote(name)}(${quote(name)}) values ('rebuild')`);
  }

  async close(): Promise<void> {
    // As the application leaves the file (db/database.ts): write-ahead log.
    this.connection.pragma('journal_mode = WAL');
    this.connection.close();
  }

  private statement(table: string, columns: readonly string[], rowCount: number): SQLite.Statement {
    const key = `${table}:${columns.join(',')}:${rowCount}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.connection.prepare(insertSql(table, columns, rowCount, () => '?'));
      this.statements.set(key, statement);
    }
    return statement;
  }
}

/**
 * PostgreSQL: one connection, multi-row inserts of a few thousand rows, the loaded tables' user triggers
 * disabled and their secondary indexes and foreign keys dropped during the load (indexes behind primary
 * keys and unique constraints stay), then indexes and foreign keys made again from their own definitions
 * (each key then checks all rows at once), identities moved past the ids written, and VACUUM ANALYZE: the
 * statistics and visibility map that autovacuum would make within a minute or so of such a load, made
 * before measuring rather than in the middle of it.
 */
export class PostgresLoader implements BulkLoader {
  private readonly client: pg.Client;
  private suspended: readonly string[] = [];
  private droppedIndexes: string[] = [];
  private droppedKeys: { table: string; name: string; definition: string }[] = [];

  private constructor(client: pg.Client) {
    this.client = client;
  }

  static async connect(url: string): Promise<PostgresLoader> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new PostgresLoader(client);
  }

  async suspend(tables: readonly string[]): Promise<void> {
    for (const table of tables) await this.client.query(`alter table ${quote(table)} disable trigger user`);
    this.suspended = tables;
    const indexes = await this.client.query<{ name: string; definition: string }>(
      `select index.relname as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i join pg_class index on index.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
       where t.relname = any($1) and t.relnamespace = current_schema()::regnamespace
         and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
      [tables],
    );
    for (const { name } of indexes.rows) await this.client.query(`drop index ${quote(name)}`);
    this.droppedIndexes = indexes.rows.map((index) => index.definition);
    // A foreign key checks each row with a query of its own; added back, it checks all rows with one join.
    const keys = await this.client.query<{ table: string; name: string; definition: string }>(
      `select t.relname as table, c.conname as name, pg_get_constraintdef(c.oid) as definition
       from pg_constraint c join pg_class t on t.oid = c.conrelid
       where c.contype = 'f' and t.relname = any($1) and t.relnamespace = current_schema()::regnamespace`,
      [tables],
    );
    for (const { table, name } of keys.rows) await this.client.query(`alter table ${quote(table)} drop constraint ${quote(name)}`);
    this.droppedKeys = keys.rows;
  }

  async insert(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
    const perStatement = Math.max(1, Math.floor(POSTGRES_VALUES_PER_STATEMENT / columns.length));
    for (const slice of slices(rows, perStatement)) {
      await this.client.query(
        insertSql(table, columns, slice.length, (n) => `$${n + 1}`),
        slice.flat(),
      );
    }
  }

  async transaction(write: () => Promise<void>): Promise<void> {
    await this.client.query('begin');
    try {
      await write();
      await this.client.query('commit');
    } catch (error) {
      await this.client.query('rollback');
      throw error;
    }
  }

  async resume(): Promise<void> {
    await this.client.query(`set maintenance_work_mem = '256MB'`);
    for (const definition of this.droppedIndexes) await this.client.query(definition);
    this.droppedIndexes = [];
    for (const { table, name, definition } of this.droppedKeys) {
      await this.client.query(`alter table ${quote(table)} add constraint ${quote(name)} ${definition}`);
    }
    this.droppedKeys = [];
    for (const table of this.suspended) await this.client.query(`alter table ${quote(table)} enable trigger user`);
    // Rows written with their own ids (listings) leave the identity behind; for the others this changes nothing.
    const identities = await this.client.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
       where table_schema = current_schema() and is_identity = 'YES' and table_name = any($1)`,
      [this.suspended],
    );
    for (const { table_name: table, column_name: column } of identities.rows) {
      await this.client.query(
        `select setval(pg_get_serial_sequence($1, $2), max(${quote(column)})) from ${quote(table)} having max(${quote(column)}) is not null`,
        [table, column],
      );
    }
    this.suspended = [];
    await this.client.query('vacuum analyze');
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
