import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { DiskStorage } from '../src/adapters/storage/disk-storage.js';
import type { DatabaseConfig } from '../src/config.js';
import { CacheStamps } from '../src/db/cache-versions.js';
import { createDatabase, type Database, migrateToLatest } from '../src/db/database.js';
import { compactGeoCells } from '../src/db/dialect/geo-cell-compaction.js';
import { PasswordHasher } from '../src/modules/accounts/password-hasher.service.js';
import { AccountRecords } from '../src/modules/directory/account-records.service.js';
import { TaxonomiesService } from '../src/modules/taxonomies/taxonomies.service.js';
import { AccountsService } from '../src/modules/accounts/accounts.service.js';
import type { BulkWriteMode } from '../src/modules/properties/index.js';
import { type DemoListingsSummary, seedDemoListings } from '../src/seed/demo-listings.js';
import { seedDemoTerms } from '../src/seed/seed-demo.js';
import { type Cleanups, progress, withCleanups } from './harness.js';

export interface SeedOptions {
  count: number;
  seed?: number;
  /** The moment the listings' dates count back from (default now): fixed, two seeds give the same rows. */
  now?: Date;
  /** The running total of listings written. */
  onProgress?: (written: number) => void;
}

export interface SeedSummary {
  listings: number;
  published: number;
  /** How the bulk writer wrote them (fresh: a new database). */
  mode: BulkWriteMode;
  /** Writing the listings and everything that follows from them (indexes, counts, geo cells). */
  seconds: number;
  /** Of `seconds`, until the last listing was written (fresh: then come indexes, full text, counts, geo cells). */
  writeSeconds: number;
  listingsPerSecond: number;
}

/**
 * A search dataset: migrates a fresh database (a SQLite file, or a PostgreSQL database of its own) and fills
 * it with the demo taxonomy and `count` demo listings, as `seed --properties N` would leave it, geo cells
 * compacted.
 */
export async function seedDataset(config: DatabaseConfig, uploadDir: string, options: SeedOptions): Promise<SeedSummary> {
  const now = options.now ?? new Date();
  const database = createDatabase(config);
  let started: number;
  let written: number | undefined;
  let seeded: DemoListingsSummary;
  try {
    await migrateToLatest(database.db);
    await seedDemoTerms(new TaxonomiesService(database.db, new CacheStamps(database.readCacheVersion, database.localWrites, 0)));
    const users = new AccountsService(database.db, new PasswordHasher(), new AccountRecords());
    const storage = new DiskStorage(uploadDir, 'http://127.0.0.1');
    started = performance.now();
    let total = 0;
    seeded = await seedDemoListings(database.db, users, storage, {
      count: options.count,
      seed: options.seed ?? 1,
      now,
      onProgress: (count) => {
        total += count;
        if (total === options.count) written = performance.now();
        options.onProgress?.(total);
      },
    });
    await compactGeoCells(database.db);
  } finally {
    await database.destroy();
  }
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  const writeSeconds = ((written ?? ended) - started) / 1000;
  return {
    listings: seeded.listings,
    published: seeded.published,
    mode: seeded.mode,
    seconds,
    writeSeconds,
    listingsPerSecond: options.count / seconds,
  };
}

/** Runs `use` on a database opened on `config`, closed afterwards. */
export async function withDatabase<T>(config: DatabaseConfig, use: (database: Database) => Promise<T>): Promise<T> {
  const database = createDatabase(config);
  try {
    return await use(database);
  } finally {
    await database.destroy();
  }
}

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new, empty PostgreSQL database next to the one `adminUrl` names, for one dataset; `drop` removes it
 * (closing any connection left). `unreachable` says why when it cannot be created.
 */
export async function createScratchDatabase(adminUrl: string): Promise<ScratchDatabase | { unreachable: string }> {
  const name = `realty_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  try {
    await withAdmin(adminUrl, (client) => client.query(`create database ${name}`));
  } catch (error) {
    return { unreachable: error instanceof Error ? error.message : String(error) };
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    await withAdmin(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
  };
  return { url: url.toString(), drop };
}

async function withAdmin<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * `measure` on a database of each dialect of the run: a SQLite file in `tmp`, then (unless `adminUrl` is `none`) a
 * PostgreSQL database of its own, each removed with its scope once measured. A database that cannot be had is
 * said and left out of the results.
 */
export async function measureOnEachDatabase<T>(
  cleanups: Cleanups,
  tmp: string,
  adminUrl: string,
  measure: (dialect: 'sqlite' | 'postgres', config: DatabaseConfig) => Promise<T>,
): Promise<T[]> {
  const datasets: T[] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (dialect === 'postgres' && adminUrl === 'none') continue;
    const result = await withCleanups(cleanups, async (scope) => {
      const config = await datasetDatabase(scope, tmp, dialect, adminUrl);
      return 'skipped' in config ? config : { measured: await measure(dialect, config) };
    });
    if ('skipped' in result) progress(result.skipped);
    else datasets.push(result.measured);
  }
  return datasets;
}

/** A SQLite file in `tmp`, or a PostgreSQL database of its own made through `adminUrl`; removed by `cleanups`. */
export async function datasetDatabase(
  cleanups: Cleanups,
  tmp: string,
  dialect: 'sqlite' | 'postgres',
  adminUrl: string,
): Promise<DatabaseConfig | { skipped: string }> {
  if (dialect === 'sqlite') {
    const file = path.join(tmp, 'dataset.db');
    cleanups.add(() => {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
    });
    return { kind: 'sqlite', path: file };
  }
  const scratch = await createScratchDatabase(adminUrl);
  if ('unreachable' in scratch) {
    return {
      skipped: `PostgreSQL skipped: cannot create a database through ${adminUrl} (${scratch.unreachable}); set BENCH_DATABASE_URL, or none`,
    };
  }
  cleanups.add(() => scratch.drop());
  return { kind: 'postgres', url: scratch.url };
}
