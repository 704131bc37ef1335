import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseConfig } from '../src/config.js';
import { freePort, residentMemoryMb, waitForOk } from './children.js';
import { type Cleanups, measureRounds, medianSample, progress, realBody, startChild, withCleanups } from './harness.js';
import { CONNECTIONS, type RequestShape, WARMUP_SECONDS, waitUntilIdle } from './measure.js';
import { explainRequest } from './query-plans.js';
import { createScratchDatabase, seedDataset } from './search-data.js';
import {
  type DatasetResult,
  type Dialect,
  growthResults,
  printSearchReport,
  ratioResults,
  type SearchReport,
  type SearchScenarioResult,
} from './search-report.js';
import { matchesOf, SEARCH_SCENARIOS } from './search-scenarios.js';
import { type SearchSettings, searchSettings } from './search-settings.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const GET: RequestShape = { method: 'GET', headers: {} };
const PROGRESS_EVERY = 100_000;
/** A search may take this long under load before it counts as failed (autocannon's default is 10 s). */
const TIMEOUT_SECONDS = 30;

/**
 * The search suite: for each dataset (SQLite of each BENCH_SEARCH_SIZES size, then PostgreSQL of the
 * smallest), seeds it once (search-data.ts, through the bulk write path of `seed --properties`), explains
 * the SQL of the explained scenarios, starts the built API server on it and a bare twin serving the same
 * bodies, and measures every search scenario
 * against both; then checks the growth and ratio targets (search-scenarios.ts). Each dataset's servers,
 * file or database are gone before the next is seeded. Settings: search-settings.ts.
 */
export async function runSearchSuite(cleanups: Cleanups): Promise<void> {
  const settings = searchSettings();
  const jsonPath = path.resolve(settings.jsonPath ?? path.join(ROOT, 'bench/results/search-latest.json'));
  const loadAtStart = os.loadavg()[0]!;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-search-bench-'));
  cleanups.add(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const runs: { dialect: Dialect; listings: number }[] = [
    ...settings.sqliteSizes.map((listings) => ({ dialect: 'sqlite' as const, listings })),
    ...(settings.postgres ? [{ dialect: 'postgres' as const, listings: settings.postgres.size }] : []),
  ];
  const datasets: DatasetResult[] = [];
  const skipped: string[] = settings.postgres ? [] : ['PostgreSQL: not measured (BENCH_DATABASE_URL=none)'];
  for (const run of runs) {
    const result = await withCleanups(cleanups, (scope) => measureDataset(scope, settings, tmp, run.dialect, run.listings));
    if ('skipped' in result) {
      progress(result.skipped);
      skipped.push(result.skipped);
    } else {
      datasets.push(result);
    }
  }

  const report: SearchReport = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: settings.durationSeconds,
    rounds: settings.rounds,
    datasets,
    skipped,
    growth: growthResults(datasets, SEARCH_SCENARIOS),
    ratios: ratioResults(datasets, SEARCH_SCENARIOS),
  };
  fs.mkdirSync(path.dirname(jsonPath), { recursive: true });
  fs.writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  printSearchReport(report, jsonPath);
}

async function measureDataset(
  cleanups: Cleanups,
  settings: SearchSettings,
  tmp: string,
  dialect: Dialect,
  listings: number,
): Promise<DatasetResult | { skipped: string }> {
  const label = `${dialect}, ${listings.toLocaleString('en-US')} listings`;
  const config = await datasetDatabase(cleanups, settings, tmp, dialect, listings);
  if ('skipped' in config) return config;
  const uploadDir = path.join(tmp, `uploads-${dialect}-${listings}`);
  cleanups.add(() => fs.rmSync(uploadDir, { recursive: true, force: true }));

  progress(`${label}: seeding`);
  const seeding = await seedDataset(config, uploadDir, {
    count: listings,
    onProgress: (written) => {
      if (written % PROGRESS_EVERY === 0 && written < listings) progress(`${label}: ${written.toLocaleString('en-US')} written`);
    },
  });
  progress(
    `${label}: seeded in ${seeding.seconds.toFixed(1)} s (${Math.round(seeding.listingsPerSecond).toLocaleString('en-US')} listings/s; ` +
      `rows written in ${seeding.writeSeconds.toFixed(1)} s)`,
  );

  const plans: DatasetResult['plans'] = {};
  for (const scenario of SEARCH_SCENARIOS.filter((s) => s.explain)) plans[scenario.key] = await explainRequest(config, scenario.path);

  // Children run in the temporary directory: main.ts reads ./.env, which must not change what is measured.
  const apiPort = await freePort();
  const api = startChild(cleanups, [path.join(ROOT, 'dist/main.js'), 'serve'], tmp, {
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    DATABASE_URL: config.kind === 'sqlite' ? `sqlite:${config.path}` : config.url,
    UPLOAD_DIR: uploadDir,
    DATA_DIR: tmp,
    SEED_DEMO: 'false',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  });
  const apiBase = `http://127.0.0.1:${apiPort}`;
  await waitForOk(api, `${apiBase}/ready`);

  const bodies: string[] = [];
  for (const scenario of SEARCH_SCENARIOS) bodies.push(await realBody(`${apiBase}${scenario.path}`, GET));
  const bodiesFile = path.join(tmp, `bare-bodies-${dialect}-${listings}.json`);
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  const barePort = await freePort();
  const tsx = import.meta.resolve('tsx');
  const bare = startChild(cleanups, ['--import', tsx, path.join(ROOT, 'bench/bare-server.ts'), bodiesFile], tmp, {
    PORT: String(barePort),
  });
  const bareBase = `http://127.0.0.1:${barePort}`;
  await waitForOk(bare, `${bareBase}/bare/0`);

  const scenarios: SearchScenarioResult[] = [];
  const roundSettings = { ...settings, timeoutSeconds: TIMEOUT_SECONDS, idleUrl: `${apiBase}/ready` };
  for (const [index, scenario] of SEARCH_SCENARIOS.entries()) {
    const body = bodies[index]!;
    const result: SearchScenarioResult = {
      key: scenario.key,
      name: scenario.name,
      path: scenario.path,
      matches: matchesOf(body),
      bodyBytes: Buffer.byteLength(body),
    };
    try {
      const rounds = await measureRounds(
        roundSettings,
        `${label}, ${scenario.name}`,
        `${bareBase}/bare/${index}`,
        `${apiBase}${scenario.path}`,
        GET,
      );
      const bareSample = medianSample(rounds.bare);
      const real = medianSample(rounds.real);
      Object.assign(result, { bare: bareSample, real, ratio: real.requestsPerSecond / bareSample.requestsPerSecond, rounds });
    } catch (error) {
      // A search too slow to answer within the measurement says so in the report, with the time one request
      // takes alone; the others still count.
      const reason = error instanceof Error ? error.message : String(error);
      await waitUntilIdle(roundSettings.idleUrl);
      const started = performance.now();
      await realBody(`${apiBase}${scenario.path}`, GET);
      result.failure = `${reason}; one request alone took ${((performance.now() - started) / 1000).toFixed(2)} s`;
      progress(`${label}, ${scenario.name}: not measured, ${result.failure}`);
    }
    scenarios.push(result);
  }
  return { dialect, listings, seeding, scenarios, plans, rssMb: residentMemoryMb(api.pid as number) };
}

/** A SQLite file in `tmp`, or a PostgreSQL database of its own; removed by `cleanups`. */
async function datasetDatabase(
  cleanups: Cleanups,
  settings: SearchSettings,
  tmp: string,
  dialect: Dialect,
  listings: number,
): Promise<DatabaseConfig | { skipped: string }> {
  if (dialect === 'sqlite') {
    const file = path.join(tmp, `search-${listings}.db`);
    cleanups.add(() => {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
    });
    return { kind: 'sqlite', path: file };
  }
  const { adminUrl } = settings.postgres!;
  const scratch = await createScratchDatabase(adminUrl);
  if ('unreachable' in scratch) {
    return {
      skipped: `PostgreSQL skipped: cannot create a database through ${adminUrl} (${scratch.unreachable}); set BENCH_DATABASE_URL, or none`,
    };
  }
  cleanups.add(() => scratch.drop());
  return { kind: 'postgres', url: scratch.url };
}
