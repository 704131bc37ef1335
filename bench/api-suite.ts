import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, residentMemoryMb, waitForOk } from './children.js';
import { type Cleanups, measureRounds, medianSample, positiveInteger, progress, realBody, startChild } from './harness.js';
import { CONNECTIONS, type RequestShape, WARMUP_SECONDS } from './measure.js';
import { prepareData } from './prepare-data.js';
import { printReport, type Report, type ScenarioResult } from './report.js';
import { MEMORY_TARGET_MB, SCENARIOS, type Scenario } from './scenarios.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The API suite: prepares a temporary SQLite database, starts the built API server and a bare Fastify server
 * as child processes, and measures every scenario of scenarios.ts against both with autocannon (run here, in
 * the parent). Prints medians and the real/bare throughput ratio to stdout and writes them as JSON.
 *
 * Environment: BENCH_DURATION (seconds per measurement, default 10), BENCH_ROUNDS (bare/real pairs per
 * scenario, default 3), BENCH_JSON (output file, default bench/results/latest.json).
 */
export async function runApiSuite(cleanups: Cleanups): Promise<void> {
  const settings = {
    durationSeconds: positiveInteger('BENCH_DURATION', 10),
    rounds: positiveInteger('BENCH_ROUNDS', 3),
    jsonPath: path.resolve(process.env.BENCH_JSON || path.join(ROOT, 'bench/results/latest.json')),
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-bench-'));
  cleanups.add(() => fs.rmSync(tmp, { recursive: true, force: true }));

  progress('preparing data');
  const databasePath = path.join(tmp, 'realty.db');
  const uploadDir = path.join(tmp, 'uploads');
  const data = await prepareData(databasePath, uploadDir);
  progress(`${data.listings.toLocaleString('en-US')} listings written in ${data.listingSeconds.toFixed(1)} s`);
  const paths = SCENARIOS.map((scenario) =>
    scenario.path
      .replaceAll('{published_listing_id}', String(data.publishedListingId))
      .replaceAll('{reviewed_listing_id}', String(data.reviewedListingId)),
  );

  // Children run in the temporary directory: main.ts reads ./.env, which must not change what is measured.
  const apiPort = await freePort();
  const api = startChild(cleanups, [path.join(ROOT, 'dist/main.js'), 'serve'], tmp, {
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${databasePath}`,
    UPLOAD_DIR: uploadDir,
    DATA_DIR: tmp,
    SEED_DEMO: 'false',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  });
  const apiBase = `http://127.0.0.1:${apiPort}`;
  await waitForOk(api, `${apiBase}/ready`);

  const token = SCENARIOS.some((scenario) => scenario.signedIn) ? await registerBenchUser(apiBase) : undefined;
  const shapes = SCENARIOS.map((scenario) => requestShape(scenario, token));
  const bodies = await Promise.all(paths.map((scenarioPath, index) => realBody(`${apiBase}${scenarioPath}`, shapes[index]!)));
  const bodiesFile = path.join(tmp, 'bare-bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  const barePort = await freePort();
  const tsx = import.meta.resolve('tsx');
  const bare = startChild(cleanups, ['--import', tsx, path.join(ROOT, 'bench/bare-server.ts'), bodiesFile], tmp, {
    PORT: String(barePort),
  });
  const bareBase = `http://127.0.0.1:${barePort}`;
  await waitForOk(bare, `${bareBase}/bare/0`);

  const results: ScenarioResult[] = [];
  for (const [index, scenario] of SCENARIOS.entries()) {
    const shape = shapes[index]!;
    const rounds = await measureRounds(settings, scenario.name, `${bareBase}/bare/${index}`, `${apiBase}${paths[index]}`, shape);
    const bare = medianSample(rounds.bare);
    const real = medianSample(rounds.real);
    const ratio = real.requestsPerSecond / bare.requestsPerSecond;
    const bodyBytes = Buffer.byteLength(bodies[index] ?? '');
    results.push({ ...scenario, bodyBytes, bare, real, ratio, met: ratio >= scenario.targetRatio, rounds });
  }

  const rssMb = residentMemoryMb(api.pid as number);
  const report: Report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: settings.durationSeconds,
    rounds: settings.rounds,
    data,
    scenarios: results,
    memory: { rssMb, targetMb: MEMORY_TARGET_MB, met: rssMb < MEMORY_TARGET_MB },
  };
  fs.mkdirSync(path.dirname(settings.jsonPath), { recursive: true });
  fs.writeFileSync(settings.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  printReport(report, settings.jsonPath);
}

/** A user of the benchmark's own, registered through the API; its access token signs the `signedIn` scenarios. */
async function registerBenchUser(apiBase: string): Promise<string> {
  const response = await fetch(`${apiBase}/realty-api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench_user', email: 'bench@example.test', password: 'bench password 123' }),
  });
  if (response.status !== 201) throw new Error(`registering the bench user answered ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

/** The same method and headers go to the real route and its bare twin. */
function requestShape(scenario: Scenario, token: string | undefined): RequestShape {
  return { method: scenario.method ?? 'GET', headers: scenario.signedIn && token ? { authorization: `Bearer ${token}` } : {} };
}
