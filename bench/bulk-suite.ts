import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DiskStorage } from '../src/adapters/storage/disk-storage.js';
import { createDatabase } from '../src/db/database.js';
import { AccountsService } from '../src/modules/accounts/accounts.service.js';
import { PasswordHasher } from '../src/modules/accounts/password-hasher.service.js';
import { AccountRecords } from '../src/modules/directory/account-records.service.js';
import { seedDemoListings } from '../src/seed/demo-listings.js';
import { type Cleanups, positiveInteger, progress, withCleanups } from './harness.js';
import { datasetDatabase, seedDataset } from './search-data.js';
import { benchDatabaseUrl } from './search-settings.js';
import { formatTable, median } from './stats.js';

/** The targets, listings per second: fresh on both databases, live with every trigger in force. */
const TARGETS = { fresh: { sqlite: 5_000, postgres: 5_000 }, live: { sqlite: 2_000, postgres: 1_000 } } as const;

interface BulkRound {
  /** `seed --properties N` into a new database (the bulk writer's fresh mode), terms and directory included. */
  freshPerSecond: number;
  /** The same count again into that database (live mode, every trigger in force). */
  livePerSecond: number;
}

interface BulkDataset {
  dialect: 'sqlite' | 'postgres';
  listings: number;
  rounds: BulkRound[];
}

/**
 * The bulk suite (`BENCH_SUITE=bulk`): the rate of the bulk write path (modules/properties/bulk/) as
 * `seed --properties N` uses it, with BENCH_BULK_LISTINGS listings (default 100,000) on a SQLite file and,
 * unless BENCH_DATABASE_URL=none, a PostgreSQL database of its own. Each of BENCH_BULK_ROUNDS rounds (default
 * 3) seeds a new database (fresh mode: triggers set aside, their work done set-wise; the rate counts the
 * drafting, the writing, the index builds, counts, geo cells and, on PostgreSQL, VACUUM ANALYZE), then seeds as
 * many listings again into it (live mode: transactions of 5,000 listings on SQLite and 100 on PostgreSQL, every
 * trigger in force). Results: bench/results/bulk-latest.json (BENCH_BULK_JSON).
 */
export async function runBulkSuite(outer: Cleanups): Promise<void> {
  const listings = positiveInteger('BENCH_BULK_LISTINGS', 100_000);
  const rounds = positiveInteger('BENCH_BULK_ROUNDS', 3);
  const adminUrl = benchDatabaseUrl();
  const loadAtStart = os.loadavg()[0]!;
  const datasets: BulkDataset[] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (dialect === 'postgres' && adminUrl === 'none') continue;
    const dataset: BulkDataset = { dialect, listings, rounds: [] };
    for (let round = 1; round <= rounds; round++) {
      const result = await withCleanups(outer, async (scope) => {
        const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-bench-bulk-'));
        scope.add(() => fs.rmSync(tmp, { recursive: true, force: true }));
        const config = await datasetDatabase(scope, tmp, dialect, adminUrl);
        if ('skipped' in config) return config;
        const uploadDir = path.join(tmp, 'uploads');
        progress(`bulk ${dialect} round ${round}: ${listings.toLocaleString('en-US')} listings into a new database`);
        const fresh = await seedDataset(config, uploadDir, { count: listings });
        if (fresh.mode !== 'fresh') throw new Error(`a new database was written in ${fresh.mode} mode`);
        progress(`bulk ${dialect} round ${round}: ${Math.round(fresh.listingsPerSecond)} listings/s fresh; as many again, live`);
        const database = createDatabase(config);
        try {
          const started = performance.now();
          const storage = new DiskStorage(uploadDir, 'http://127.0.0.1');
          const live = await seedDemoListings(
            database.db,
            new AccountsService(database.db, new PasswordHasher(), new AccountRecords()),
            storage,
            {
              count: listings,
              seed: 2,
            },
          );
          if (live.mode !== 'live') throw new Error(`a database with listings was written in ${live.mode} mode`);
          const livePerSecond = listings / ((performance.now() - started) / 1000);
          progress(`bulk ${dialect} round ${round}: ${Math.round(livePerSecond)} listings/s live`);
          return { freshPerSecond: fresh.listingsPerSecond, livePerSecond };
        } finally {
          await database.destroy();
        }
      });
      if ('skipped' in result) {
        progress(result.skipped);
        break;
      }
      dataset.rounds.push(result);
    }
    if (dataset.rounds.length > 0) datasets.push(dataset);
  }
  const report = { listings, rounds, loadAverage: { start: loadAtStart, end: os.loadavg()[0]! }, datasets };
  const rate = (value: number) => Math.round(value).toLocaleString('en-US');
  const rows = datasets.flatMap((dataset) =>
    (['fresh', 'live'] as const).map((mode) => {
      const values = dataset.rounds.map((round) => (mode === 'fresh' ? round.freshPerSecond : round.livePerSecond));
      const middle = median(values);
      const target = TARGETS[mode][dataset.dialect];
      return [`${dataset.dialect} ${mode}`, rate(middle), values.map(rate).join(', '), rate(target), middle >= target ? 'yes' : 'NO'];
    }),
  );
  console.log(
    [
      '',
      `Bulk write path: ${listings.toLocaleString('en-US')} listings, median of ${rounds} round(s); ` +
        `load average ${report.loadAverage.start.toFixed(2)} at the start, ${report.loadAverage.end.toFixed(2)} at the end`,
      formatTable(['mode', 'listings/s', 'rounds', 'target', 'met'], rows),
    ].join('\n'),
  );
  const file = process.env.BENCH_BULK_JSON || path.join(import.meta.dirname, 'results', 'bulk-latest.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
