import { randomInt } from 'node:crypto';
import { type Compilable, CompiledQuery, type Kysely, sql } from 'kysely';
import { dialectOf } from '../../src/db/dialect/index.js';
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
