import { randomBytes, randomInt } from 'node:crypto';
import { type Compilable, CompiledQuery, type Kysely, Migrator, sql } from 'kysely';
import pg from 'pg';
import { createDatabase, type Database } from '../../src/db/database.js';
import { type DialectName, dialectOf } from '../../src/db/dialect/index.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import type { DB, Taxonomy } from '../../src/db/schema/index.js';

/**
 * The query plan as text: SQLite's EXPLAIN QUERY PLAN, or PostgreSQL's EXPLAIN with sequential scans
 * disabled (test tables are small enough that a scan would always win).
 */
export async function planOf(db: Kysely<DB>, query: Compilable): Promise<string> {
  const { sql: text, parameters } = query.compile();
  if (dialectOf(db) === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]));
    return rows.map((row) => row.detail).join('\n');
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${text}`, [...parameters]));
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

const CONSONANTS = 'bcdfghjklmnpqrtvwxz';

/** A word of its own for one test: consonants only, which the Porter stemmer leaves as they are. */
export function newWord(): string {
  return Array.from({ length: 9 }, () => CONSONANTS[randomInt(CONSONANTS.length)]).join('');
}

export async function insertTerm(db: Kysely<DB>, taxonomy: Taxonomy, name = newWord()): Promise<number> {
  const at = new Date().toISOString();
  const { id } = await db
    .insertInto('terms')
    .values({ taxonomy, name, slug: name, sort_key: name, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A database with no migration applied, and a Migrator for it (as test/db/media-keys.test.ts). */
export async function emptyDatabase(dialect: DialectName): Promise<{ database: Database; migrator: Migrator; dispose(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = createDatabase({ kind: 'sqlite', path: ':memory:' });
    return { database, migrator: new Migrator({ db: database.db, provider: migrationProvider }), dispose: () => database.destroy() };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `test_search_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create schema ${schema}`);
  const database = createDatabase({ kind: 'postgres', url, schema });
  return {
    database,
    migrator: new Migrator({ db: database.db, provider: migrationProvider, migrationTableSchema: schema }),
    dispose: async () => {
      await database.destroy();
      await admin(`drop schema ${schema} cascade`);
    },
  };
}
