import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, type Database, migrateToLatest } from '../../src/db/database.js';
import type { DialectName } from '../../src/db/dialect/index.js';

/** Every integration test runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set. */
export const DIALECTS: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase extends Database {
  /** Destroys the connection and, on PostgreSQL, drops the test's schema. */
  dispose(): Promise<void>;
}

/** A fresh, migrated database: SQLite in memory, or a new PostgreSQL schema of its own. */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const database = createDatabase({ kind: 'sqlite', path: ':memory:' });
    await migrateToLatest(database.db);
    return { ...database, dispose: () => database.destroy() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withClient(url, (client) => client.query(`create schema ${schema}`));
  const database = createDatabase({ kind: 'postgres', url, schema });
  await migrateToLatest(database.db, schema);
  return {
    ...database,
    dispose: async () => {
      await database.destroy();
      await withClient(url, (client) => client.query(`drop schema ${schema} cascade`));
    },
  };
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
