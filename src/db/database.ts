import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { type CacheVersionReader, kyselyCacheVersionReader, LocalWrites, sqliteCacheVersionReader } from './cache-versions.js';
import type { DialectName } from './dialect/index.js';
import { MIGRATION_NAMES, migrationProvider } from './migrations/index.js';
import { registerCopyClients } from './postgres-copy.js';
import type { DB } from './schema/index.js';
import { withStatementCache } from './sqlite-statement-cache.js';
import { WalCheckpoints } from './wal-checkpoints.js';

export interface Database {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  /** True when this call created the SQLite file (used to decide whether to seed demo data). */
  readonly isNew: boolean;
  /** The cheapest way to read a cache stamp on this database; valid once migrated. */
  readonly readCacheVersion: CacheVersionReader;
  /** Counts this process's writes (see CacheStamps). */
  readonly localWrites: LocalWrites;
  /** True when reading a stamp costs no network round trip (the embedded database). */
  readonly stampReadsAreLocal: boolean;
  /**
   * How another thread reaches the same data (`openReader`): absent for a database held in this process's
   * memory (`:memory:`, the tests' copies), which no other connection can open.
   */
  readonly readerConfig?: DatabaseConfig;
  /** The thread checkpointing an SQLite file's log, when asked for (DatabaseOptions `checkpointsOffThread`). */
  readonly walCheckpoints?: WalCheckpoints;
  /** The connection pool's state, for metrics; absent for the embedded database (one connection, in process). */
  poolStats?(): { total: number; idle: number; waiting: number };
  destroy(): Promise<void>;
}

export interface DatabaseOptions {
  /**
   * SQLite file: its write-ahead log checkpointed on a thread of its own, not by the commits of this one
   * (wal-checkpoints.ts). For a process that serves; a command that only writes keeps SQLite's own checkpoints,
   * which the bulk path spaces out (dialect/bulk-load.ts).
   */
  checkpointsOffThread?: boolean;
}

export function createDatabase(config: DatabaseConfig, options: DatabaseOptions = {}): Database {
  return config.kind === 'sqlite' ? openSqlite(config.path, options) : openPostgres(config.url, config.schema);
}

function openSqlite(file: string, options: DatabaseOptions): Database {
  const inMemory = file === ':memory:';
  const isNew = inMemory || !fs.existsSync(file);
  if (!inMemory) fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  // WAL lets readers run beside the writer; NORMAL sync is durable across crashes of the process in WAL.
  if (!inMemory) connection.pragma('journal_mode = WAL');
  const database = sqliteDatabase(connection, isNew);
  if (inMemory) return database;
  const checkpoints = options.checkpointsOffThread ? new WalCheckpoints(connection, file) : undefined;
  return {
    ...database,
    readerConfig: { kind: 'sqlite', path: file },
    ...(checkpoints ? { walCheckpoints: checkpoints } : {}),
    destroy: async () => {
      await checkpoints?.stop();
      await database.destroy();
    },
  };
}

/**
 * A Database over an open better-sqlite3 connection: a file, `:memory:`, or an in-memory copy made from
 * `serialize()` bytes (the tests copy one migrated database for each test file).
 */
export function sqliteDatabase(connection: SQLite.Database, isNew: boolean): Database {
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // Planner statistics, sampled (analysis_limit) so that opening a large file stays quick: without them SQLite
  // reads a search's geo key ranges by `status` alone instead of through (status, geo_key).
  connection.pragma('analysis_limit = 1000');
  connection.pragma('optimize = 0x10002');
  const localWrites = new LocalWrites();
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }), plugins: [localWrites] });
  let reader: CacheVersionReader | undefined; // prepared lazily: the table exists only after migration
  const readCacheVersion: CacheVersionReader = (name) => (reader ??= sqliteCacheVersionReader(connection))(name);
  return {
    db,
    dialect: 'sqlite',
    isNew,
    readCacheVersion,
    localWrites,
    stampReadsAreLocal: true,
    destroy: () => db.destroy(),
  };
}

function postgresPool(url: string, schema: string | undefined, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // A dedicated schema (tests: one per test file) is selected for every connection of the pool.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle connection that the server drops (a restart, a failover, an administrator's kill) is reported as an
  // 'error' event of the pool, which would otherwise end the process: the pool has already discarded that
  // connection, and the next query opens a new one.
  pool.on('error', () => undefined);
  return pool;
}

function openPostgres(url: string, schema: string | undefined): Database {
  const pool = postgresPool(url, schema, 10);
  const localWrites = new LocalWrites();
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [localWrites] });
  registerCopyClients(db, pool);
  return {
    db,
    dialect: 'postgres',
    isNew: false,
    readCacheVersion: kyselyCacheVersionReader(db),
    localWrites,
    stampReadsAreLocal: false,
    readerConfig: { kind: 'postgres', url, ...(schema ? { schema } : {}) },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    destroy: () => db.destroy(),
  };
}

/** A reader's PostgreSQL connections: a page's two link statements and the next page's listings at once. */
const READER_CONNECTIONS = 3;

/**
 * Connections that only read, for a worker thread (the search index's build): one SQLite read-only connection,
 * beside the process's own (WAL lets them read while it writes), or a pool of PostgreSQL connections, whose
 * statements run at once in the server's processes (index-rows.repository.ts reads a page's links while the next
 * page's listings are read).
 */
export function openReader(config: DatabaseConfig): Kysely<DB> {
  if (config.kind === 'sqlite') {
    const connection = new SQLite(config.path, { readonly: true, fileMustExist: true });
    connection.pragma('busy_timeout = 5000');
    return new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  }
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: postgresPool(config.url, config.schema, READER_CONNECTIONS) }) });
}

/**
 * Applies every pending migration; throws with the failing migration's name. `schema` names the
 * PostgreSQL schema the tables live in when it is not the default: Kysely otherwise takes migration tables
 * found in any schema for its own.
 */
export async function migrateToLatest(db: Kysely<DB>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Readiness: the database answers and every migration this build knows is applied. */
export async function isDatabaseReady(db: Kysely<DB>): Promise<boolean> {
  try {
    const applied = await sql<{ n: number | string }>`select count(*) as n from kysely_migration`.execute(db);
    return Number(applied.rows[0]?.n) === MIGRATION_NAMES.length;
  } catch {
    return false;
  }
}
