import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseConfig } from '../src/config.js';
import { freePort, residentMemoryMb, startNode, waitForOk } from './children.js';
import { type Cleanups, progress, realBody, startChild, withCleanups } from './harness.js';
import { CONNECTIONS, type RequestShape, WARMUP_SECONDS } from './measure.js';
import { explainRequest } from './query-plans.js';
import { createScratchDatabase, seedDataset } from './search-data.js';
import { measureFreshness, readEngineFigures, signIn } from './search-engine-figures.js';
import { measureScenario } from './search-measure.js';
import {
  type DatasetResult,
  type Dialect,
  growthResults,
  printSearchReport,
  ratioResults,
  type SearchReport,
  type SearchScenarioResult,
  type ServerStart,
} from './search-report.js';
import { matchesOf, scenarioPaths, SEARCH_SCENARIOS } from './search-scenarios.js';
import { type SearchSettings, searchSettings } from './search-settings.js';
import { median } from './stats.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const GET: RequestShape = { method: 'GET', headers: {} };
const PROGRESS_EVERY = 100_000;
/** The engine builds before /ready answers: 20 s allowed at 1,000,000 listings, and room beyond it to say by how much it missed. */
const READY_TIMEOUT_MS = 300_000;
/** Requests of each rotation answered before the measurements, spread over it: their sizes give the bare twin's body. */
const SAMPLED_REQUESTS = 15;
const METRICS_TOKEN = 'search-bench-metrics-token-0123456789';
const ADMIN = { email: 'search-bench-admin@example.test', username: 'search-bench-admin', password: 'search-bench-admin-password' };

/**
 * The search suite: for each dataset (SQLite, then PostgreSQL, of each BENCH_SEARCH_SIZES size), seeds it once
 * (search-data.ts, through the bulk write path of `seed --properties`), explains the SQL of the explained
 * scenarios, starts the built API server on it (timing spawn to /ready and reading its engine gauges), answers
 * a sample of each scenario's rotating requests to size its bare twin, measures every scenario against its
 * twin at 10 and 1 connections (search-measure.ts), then starts a second server on the same database and
 * times how soon writes through the first are found by searches on the second. Checks the targets of
 * search-scenarios.ts and search-report.ts. Each dataset's servers, file or database are gone before the next
 * is seeded. Settings: search-settings.ts.
 */
export async function runSearchSuite(cleanups: Cleanups): Promise<void> {
  const settings = searchSettings();
  const jsonPath = path.resolve(settings.jsonPath ?? path.join(ROOT, 'bench/results/search-latest.json'));
  const loadAtStart = os.loadavg()[0]!;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-search-bench-'));
  cleanups.add(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const dialects: Dialect[] = settings.postgresAdminUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  // Size by size, so that a run cut short has both databases at the smaller sizes.
  const runs = settings.sizes.flatMap((listings) => dialects.map((dialect) => ({ dialect, listings })));
  const datasets: DatasetResult[] = [];
  const skipped: string[] = settings.postgresAdminUrl ? [] : ['PostgreSQL: not measured (BENCH_DATABASE_URL=none)'];
  const reportSoFar = (): SearchReport => ({
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: settings.durationSeconds,
    rounds: settings.rounds,
    requestsPerScenario: settings.requestsPerScenario,
    searchEngine: settings.searchEngine ?? 'default',
    datasets,
    skipped,
    growth: growthResults(datasets, SEARCH_SCENARIOS),
    ratios: ratioResults(datasets, SEARCH_SCENARIOS),
  });
  fs.mkdirSync(path.dirname(jsonPath), { recursive: true });
  let postgresUnreachable = false;
  for (const run of runs) {
    if (run.dialect === 'postgres' && postgresUnreachable) continue;
    const result = await withCleanups(cleanups, (scope) => measureDataset(scope, settings, tmp, run.dialect, run.listings));
    if ('skipped' in result) {
      progress(result.skipped);
      skipped.push(result.skipped);
      postgresUnreachable = true;
    } else {
      datasets.push(result);
      // Written after each dataset: a long run cut short keeps what it measured.
      fs.writeFileSync(jsonPath, `${JSON.stringify(reportSoFar(), null, 2)}\n`);
    }
  }
  const report = reportSoFar();
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
  const env = {
    HOST: '127.0.0.1',
    DATABASE_URL: config.kind === 'sqlite' ? `sqlite:${config.path}` : config.url,
    UPLOAD_DIR: uploadDir,
    DATA_DIR: tmp,
    SEED_DEMO: 'false',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    METRICS_TOKEN,
    ...(settings.searchEngine && { SEARCH_ENGINE: settings.searchEngine }),
  };
  await runToEnd(
    startNode(
      [path.join(ROOT, 'dist/main.js'), 'create-admin', '--email', ADMIN.email, '--password', ADMIN.password, '--username', ADMIN.username],
      tmp,
      env,
    ),
  );

  progress(`${label}: starting the API server`);
  const api = await startServer(cleanups, tmp, env);
  const engineAtStart = await readEngineFigures(api.base, METRICS_TOKEN);
  progress(
    `${label}: /ready after ${(api.start.readyMs / 1000).toFixed(2)} s` +
      (engineAtStart.available ? `, engine built in ${engineAtStart.buildSeconds ?? 'n/a'} s` : ` (${engineAtStart.reason})`),
  );

  // A sample of each rotation, answered once: the bare twin serves the body of median size.
  const rotations = SEARCH_SCENARIOS.map((scenario) => scenarioPaths(scenario, settings.requestsPerScenario));
  const samples: { bodies: string[]; matches: number[] }[] = [];
  for (const [index, scenario] of SEARCH_SCENARIOS.entries()) {
    const paths = rotations[index]!;
    const bodies: string[] = [];
    for (let k = 0; k < SAMPLED_REQUESTS; k++)
      bodies.push(await realBody(`${api.base}${paths[Math.floor((k * paths.length) / SAMPLED_REQUESTS)]}`, GET));
    samples.push({ bodies, matches: bodies.map(matchesOf) });
    progress(`${label}, ${scenario.name}: sampled, ${median(samples.at(-1)!.matches).toLocaleString('en-US')} matches (median)`);
  }
  const bareBodies = samples.map(
    (sample) => [...sample.bodies].sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b))[sample.bodies.length >> 1]!,
  );
  const bodiesFile = path.join(tmp, `bare-bodies-${dialect}-${listings}.json`);
  fs.writeFileSync(bodiesFile, JSON.stringify(bareBodies));
  const barePort = await freePort();
  const tsx = import.meta.resolve('tsx');
  const bare = startChild(cleanups, ['--import', tsx, path.join(ROOT, 'bench/bare-server.ts'), bodiesFile], tmp, {
    PORT: String(barePort),
  });
  const bareBase = `http://127.0.0.1:${barePort}`;
  await waitForOk(bare, `${bareBase}/bare/0`);

  const scenarios: SearchScenarioResult[] = [];
  for (const [index, scenario] of SEARCH_SCENARIOS.entries()) {
    const sample = samples[index]!;
    const measured = await measureScenario(
      { ...settings, idleUrl: `${api.base}/ready` },
      `${label}, ${scenario.name}`,
      `${bareBase}/bare/${index}`,
      api.base,
      rotations[index]!,
    );
    scenarios.push({
      key: scenario.key,
      name: scenario.name,
      path: scenario.path,
      distinctRequests: rotations[index]!.length,
      matches: sample.matches[0]!,
      sampledMatches: { median: median(sample.matches), none: sample.matches.filter((m) => m === 0).length, of: sample.matches.length },
      bodyBytes: Buffer.byteLength(sample.bodies[0]!),
      bareBodyBytes: Buffer.byteLength(bareBodies[index]!),
      ...measured,
    });
  }
  const rssMb = residentMemoryMb(api.child.pid as number);
  const engineAfterLoad = await readEngineFigures(api.base, METRICS_TOKEN);

  // A second process on the same database: its own start, then writes through the first found on it.
  progress(`${label}: starting a second API server on the same database`);
  const second = await startServer(cleanups, tmp, env);
  const token = await signIn(api.base, ADMIN.username, ADMIN.password);
  const freshness = await measureFreshness(api.base, second.base, token, settings.freshnessWrites);
  progress(
    `${label}: ${freshness.found}/${freshness.writes} writes found on the second process, median ` +
      `${freshness.medianMs === null ? 'n/a' : `${freshness.medianMs.toFixed(0)} ms`}`,
  );
  const engineOfSecond = await readEngineFigures(second.base, METRICS_TOKEN);

  return {
    dialect,
    listings,
    seeding,
    scenarios,
    plans,
    rssMb,
    starts: [api.start, second.start],
    engine: { atStart: engineAtStart, afterLoad: engineAfterLoad, secondProcess: engineOfSecond },
    freshness,
  };
}

/** The built API server on a free port, timed from spawn until /ready answers 200. */
async function startServer(
  cleanups: Cleanups,
  cwd: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; base: string; start: ServerStart }> {
  const port = await freePort();
  const started = performance.now();
  const child = startChild(cleanups, [path.join(ROOT, 'dist/main.js'), 'serve'], cwd, { ...env, PORT: String(port) });
  const base = `http://127.0.0.1:${port}`;
  await waitForOk(child, `${base}/ready`, READY_TIMEOUT_MS);
  return { child, base, start: { readyMs: performance.now() - started } };
}

/** Waits for a one-off command (the CLI's create-admin) and fails unless it exits 0. */
async function runToEnd(child: ChildProcess): Promise<void> {
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${child.spawnargs.slice(1, 3).join(' ')} exited ${code}`);
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
  const adminUrl = settings.postgresAdminUrl!;
  const scratch = await createScratchDatabase(adminUrl);
  if ('unreachable' in scratch) {
    return {
      skipped: `PostgreSQL skipped: cannot create a database through ${adminUrl} (${scratch.unreachable}); set BENCH_DATABASE_URL, or none`,
    };
  }
  cleanups.add(() => scratch.drop());
  return { kind: 'postgres', url: scratch.url };
}
