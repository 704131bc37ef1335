/**
 * `npx tsx bench/verify-bulk.ts [count]`: checks that bench/bulk-listings.ts writes what the application
 * writes. Seeds `count` demo listings (default 3,000) twice with the same seed and clock, once through
 * seedDemoListings (triggers firing row by row) and once through the bulk path, into fresh databases
 * (SQLite, and PostgreSQL when the server of BENCH_DATABASE_URL answers), then compares every row of the
 * tables the listings fill, the term counts, the geo cells, the indexes, constraints and triggers, and on SQLite checks
 * the full-text index against its content and the foreign keys. Prints both seeding rates; exits with 1 on
 * any difference.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type Kysely, sql } from 'kysely';
import type { DatabaseConfig } from '../src/config.js';
import { dialectOf } from '../src/db/dialect/index.js';
import type { DB } from '../src/db/schema/index.js';
import { LOADED_TABLES } from './bulk-listings.js';
import { createScratchDatabase, type SeedMethod, type SeedSummary, seedDataset, withDatabase } from './search-data.js';
import { benchDatabaseUrl } from './search-settings.js';

const count = Number(process.argv[2] ?? 3_000);
if (!Number.isInteger(count) || count < 1) throw new Error(`usage: verify-bulk.ts [count ≥ 1] (got "${process.argv[2]}")`);

/** Compared whole; `terms` only by id and count (their dates are the clock's when each seed ran). */
const COMPARED_TABLES = [...LOADED_TABLES, 'geo_cells', 'geo_cell_changes'];

type Rows = string[];

async function main(): Promise<boolean> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-verify-bulk-'));
  const now = new Date();
  let identical = true;
  try {
    identical = (await verify('sqlite', (method) => ({ kind: 'sqlite', path: path.join(tmp, `${method}.db`) }), tmp, now)) && identical;
    const adminUrl = benchDatabaseUrl();
    const scratch = { app: await createScratchDatabase(adminUrl), bulk: await createScratchDatabase(adminUrl) };
    if ('unreachable' in scratch.app || 'unreachable' in scratch.bulk) {
      console.log(`postgres: skipped, ${adminUrl} cannot be reached`);
    } else {
      const urls = { app: scratch.app.url, bulk: scratch.bulk.url };
      try {
        identical = (await verify('postgres', (method) => ({ kind: 'postgres', url: urls[method] }), tmp, now)) && identical;
      } finally {
        await scratch.app.drop();
        await scratch.bulk.drop();
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return identical;
}

async function verify(label: string, configOf: (method: SeedMethod) => DatabaseConfig, tmp: string, now: Date): Promise<boolean> {
  const seeded: Partial<Record<SeedMethod, SeedSummary>> = {};
  const contents: Partial<Record<SeedMethod, Map<string, Rows>>> = {};
  for (const method of ['app', 'bulk'] as const) {
    const config = configOf(method);
    seeded[method] = await seedDataset(config, path.join(tmp, `uploads-${label}-${method}`), { count, method, now });
    contents[method] = await withDatabase(config, (database) => snapshot(database.db));
  }
  for (const method of ['app', 'bulk'] as const) {
    const summary = seeded[method]!;
    console.log(
      `${label} ${method}: ${summary.listings} listings (${summary.published} published) in ${summary.seconds.toFixed(1)} s, ${Math.round(summary.listingsPerSecond)} listings/s`,
    );
  }
  let identical = true;
  for (const [name, appRows] of contents.app!) {
    const bulkRows = contents.bulk!.get(name)!;
    if (isDeepStrictEqual(appRows, bulkRows)) {
      console.log(`${label} ${name}: identical (${appRows.length} rows)`);
      continue;
    }
    identical = false;
    const missing = appRows.filter((row) => !bulkRows.includes(row)).slice(0, 3);
    const extra = bulkRows.filter((row) => !appRows.includes(row)).slice(0, 3);
    console.log(`${label} ${name}: DIFFERENT (${appRows.length} rows by the app, ${bulkRows.length} in bulk)`);
    for (const row of missing) console.log(`  only by the app: ${row}`);
    for (const row of extra) console.log(`  only in bulk:    ${row}`);
  }
  return identical;
}

/** Every compared table as sorted JSON rows, plus the schema objects and the checks a dialect has. */
async function snapshot(db: Kysely<DB>): Promise<Map<string, Rows>> {
  const tables = new Map<string, Rows>();
  const rows = async (name: string, query: ReturnType<typeof sql>) => {
    const result = await query.execute(db);
    tables.set(name, result.rows.map((row) => JSON.stringify(row)).sort());
  };
  for (const table of COMPARED_TABLES) await rows(table, sql`select * from ${sql.table(table)}`);
  tables.set('media', withStableFileNames(tables.get('media')!));
  await rows('terms (id, count)', sql`select id, count from terms`);
  if (dialectOf(db) === 'postgres') {
    await rows('indexes', sql`select tablename, indexname, indexdef from pg_indexes where schemaname = current_schema()`);
    await rows('triggers', sql`select tgrelid::regclass::text as "table", tgname, tgenabled from pg_trigger where not tgisinternal`);
    await rows(
      'constraints',
      sql`select conrelid::regclass::text as "table", conname, pg_get_constraintdef(oid) as definition, convalidated from pg_constraint where connamespace = current_schema()::regnamespace`,
    );
    // Not geo_cell_changes' counter: the bulk path writes no change rows, it counts the cells directly.
    await rows(
      'sequences',
      sql`select sequencename, last_value from pg_sequences where schemaname = current_schema() and sequencename <> 'geo_cell_changes_id_seq'`,
    );
  } else {
    await rows('schema objects', sql`select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_autoindex%'`);
    await rows('sqlite_sequence', sql`select * from sqlite_sequence`);
    await rows('foreign key problems', sql`pragma foreign_key_check`);
    // Fails when the index differs from what its content table holds.
    await sql`insert into listings_fts(listings_fts, rank) values ('integrity-check', 1)`.execute(db);
  }
  return tables;
}

/**
 * Stored files get random names (docs/api.md 12), so each seed names the demo pictures differently: a name is
 * replaced by its number in order of first use, in `storage_key` and in the `sizes` that derive from it.
 */
function withStableFileNames(media: Rows): Rows {
  const rows = media.map((text) => JSON.parse(text) as { id: number; storage_key: string; sizes: string });
  const numbers = new Map<string, string>();
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    const name = row.storage_key.replace(/\.[a-z]+$/, '');
    if (!numbers.has(name)) numbers.set(name, `file-${numbers.size + 1}`);
  }
  return rows
    .map((row) => {
      const name = row.storage_key.replace(/\.[a-z]+$/, '');
      const number = numbers.get(name)!;
      return JSON.stringify({ ...row, storage_key: row.storage_key.replace(name, number), sizes: row.sizes.replaceAll(name, number) });
    })
    .sort();
}

const identical = await main();
console.log(identical ? 'the bulk path writes what the application writes' : 'DIFFERENCES found');
process.exitCode = identical ? 0 : 1;
