import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { type MigrationResultSet, Migrator, sql } from 'kysely';
import { describe, inject } from 'vitest';
import { createDatabase, type Database, migrateToLatest, sqliteDatabase } from '../../src/db/database.js';
import type { DialectName } from '../../src/db/dialect/index.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { postgresAdmin, postgresUrlFor } from './postgres.js';

/** The databases this run reaches: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DIALECTS: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/**
 * A suite once per database, `%s` in its name replaced by the dialect. Without TEST_DATABASE_URL the PostgreSQL
 * half is collected and reported as skipped, so that a run which never reached PostgreSQL says so in its summary
 * instead of passing with half its tests gone.
 */
export function describeEachDialect(name: string, suite: (dialect: DialectName) => void): void {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe.skipIf(!DIALECTS.includes(dialect))(name.replaceAll('%s', dialect), () => suite(dialect));
  }
}

export interface TestDatabase extends Database {
  /** Destroys the connection and, on PostgreSQL, drops the test's database. */
  dispose(): Promise<void>;
  /** PostgreSQL: the URL of this test's own database, for another pool or process on it. */
  readonly url?: string;
}

/**
 * A fresh, migrated database: SQLite in memory, or a PostgreSQL database of its own. Migrations run once:
 * SQLite clones a migrated image this process made; PostgreSQL copies the template database that
 * global-setup.ts migrated for the whole run.
 */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const database = dialect === 'sqlite' ? openSqliteImage(await migratedSqliteImage()) : await clonePostgresTemplate();
  // In use, as a database that was just migrated is: Kysely's `destroy()` does nothing to one never used.
  await sql`select 1`.execute(database.db);
  return database;
}

// SQLite

let sqliteImage: Promise<Buffer> | undefined;

/** The bytes of an in-memory database with every migration applied, made once per test process. */
function migratedSqliteImage(): Promise<Buffer> {
  sqliteImage ??= (async () => {
    const template = openSqliteImage(null);
    try {
      await migrateToLatest(template.db);
      return template.connection.serialize();
    } finally {
      await template.destroy();
    }
  })();
  // A failed attempt is not kept: the next test reports its own error.
  sqliteImage.catch(() => (sqliteImage = undefined));
  return sqliteImage;
}

/** An in-memory database opened from `image` (null: empty), set up as createDatabase sets up SQLite. */
function openSqliteImage(image: Buffer | null): TestDatabase & { connection: SQLite.Database } {
  const connection = new SQLite(image ?? ':memory:');
  const database = sqliteDatabase(connection, true);
  return { ...database, connection, dispose: database.destroy };
}

// PostgreSQL

/** A copy of the run's migrated template: a database of its own, in the default `public` schema. */
async function clonePostgresTemplate(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const template = inject('postgresTemplate');
  if (!template) {
    throw new Error(
      inject('postgresTemplateError') ?? 'no PostgreSQL template database: vitest.config.ts must run test/helpers/global-setup.ts',
    );
  }
  const name = `${template}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await postgresAdmin(url, async (client) => {
    // NOTE: a copy fails while any session is connected to the template (SQLSTATE 55006); nothing should
    // be (it refuses connections), but PostgreSQL may be finishing another copy's bookkeeping: try again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await client.query(`create database "${name}" template "${template}"`);
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt === 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  });
  const cloneUrl = postgresUrlFor(url, name);
  const database = createDatabase({ kind: 'postgres', url: cloneUrl });
  return {
    ...database,
    url: cloneUrl,
    dispose: async () => {
      await database.destroy();
      await postgresAdmin(url, (client) => client.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/**
 * A database with no migration applied, and a Migrator for it, for tests of the migrations themselves: SQLite
 * in memory, or a new, empty PostgreSQL database of its own (dropped at dispose).
 */
export async function emptyDatabase(dialect: DialectName): Promise<{ database: Database; migrator: Migrator; dispose(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = createDatabase({ kind: 'sqlite', path: ':memory:' });
    return { database, migrator: new Migrator({ db: database.db, provider: migrationProvider }), dispose: () => database.destroy() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const name = `realty_empty_${process.pid}_${randomBytes(4).toString('hex')}`;
  await postgresAdmin(url, (client) => client.query(`create database "${name}" template template0`));
  const database = createDatabase({ kind: 'postgres', url: postgresUrlFor(url, name) });
  return {
    database,
    migrator: new Migrator({ db: database.db, provider: migrationProvider }),
    dispose: async () => {
      await database.destroy();
      await postgresAdmin(url, (client) => client.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** `name:status` of each migration a Migrator run applied; its error thrown. */
export async function appliedMigrations(run: Promise<MigrationResultSet>): Promise<string[]> {
  const { error, results } = await run;
  if (error) throw error;
  return (results ?? []).map((r) => `${r.migrationName}:${r.status}`);
}
