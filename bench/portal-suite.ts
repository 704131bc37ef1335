import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { freePort, waitForOk } from './children.js';
import { type Cleanups, measureRounds, medianSample, positiveInteger, progress, startChild, withCleanups } from './harness.js';
import { CONNECTIONS, measure, type RequestShape, type Sample, WARMUP_SECONDS } from './measure.js';
import { datasetDatabase, seedDataset } from './search-data.js';
import { benchDatabaseUrl } from './search-settings.js';
import { formatTable, percentile } from './stats.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const ADMIN = { email: 'bench-admin@example.test', password: 'bench password 123' };
/** Pulls in flight while /health is timed: the load of the issue that reported the feeds' cost. */
const PULLING_CONNECTIONS = 60;
/** No Accept-Encoding, as in the API suite: both servers send the bytes as they are. */
const GET: RequestShape = { method: 'GET', headers: {} };

interface PortalResult {
  dialect: 'sqlite' | 'postgres';
  listings: number;
  published: number;
  bodyBytes: number;
  /** A pull without a validator (200), against the bare twin serving the same bytes. */
  pull: { bare: Sample; real: Sample; ratio: number };
  /** A pull revalidating the ETag of the last one (304), when the server sends an ETag. */
  revalidate?: Sample;
  /** GET /health one request at a time, alone and beside PULLING_CONNECTIONS connections pulling the feed. */
  health: { idle: Sample; beside: Sample; pullsPerSecond: number };
}

/**
 * The portal suite (BENCH_SUITE=portal): a portal's repeated pull of GET /feeds/{token} (Kyero XML) on a database
 * of BENCH_PORTAL_LISTINGS demo listings (default 300; the published ones are in the feed), against a bare
 * Fastify twin serving the same bytes, BENCH_ROUNDS times at 10 connections; the revalidating pull (If-None-Match,
 * 304) when the server sends an ETag; and GET /health timed one request at a time, alone and while 60 connections
 * pull the feed. SQLite and, unless BENCH_DATABASE_URL=none, PostgreSQL; results in BENCH_PORTAL_JSON.
 */
export async function runPortalSuite(outer: Cleanups): Promise<void> {
  const settings = {
    durationSeconds: positiveInteger('BENCH_DURATION', 10),
    rounds: positiveInteger('BENCH_ROUNDS', 3),
    listings: positiveInteger('BENCH_PORTAL_LISTINGS', 300),
    jsonPath: path.resolve(process.env.BENCH_PORTAL_JSON || path.join(ROOT, 'bench/results/portal-latest.json')),
  };
  const adminUrl = benchDatabaseUrl();
  const loadAtStart = os.loadavg()[0]!;
  const results: PortalResult[] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (dialect === 'postgres' && adminUrl === 'none') continue;
    const result = await withCleanups(outer, async (scope) => {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-bench-portal-'));
      scope.add(() => fs.rmSync(tmp, { recursive: true, force: true }));
      const config = await datasetDatabase(scope, tmp, dialect, adminUrl);
      if ('skipped' in config) return config;
      progress(`portal ${dialect}: ${settings.listings} demo listings`);
      const seeded = await seedDataset(config, path.join(tmp, 'uploads'), { count: settings.listings });
      const api = await startServer(scope, tmp, config.kind === 'sqlite' ? `sqlite:${config.path}` : config.url);
      const feedUrl = await newFeedUrl(api);
      const first = await fetch(feedUrl);
      const body = await first.text();
      if (first.status !== 200) throw new Error(`the feed answered ${first.status} ${body.slice(0, 200)}`);
      const bare = await startBareTwin(scope, tmp, body, first.headers.get('content-type') ?? 'application/xml');

      const rounds = await measureRounds(settings, `portal ${dialect}, repeated pull`, bare, feedUrl, GET);
      const pull = { bare: medianSample(rounds.bare), real: medianSample(rounds.real) };
      const etag = first.headers.get('etag');
      let revalidate: Sample | undefined;
      if (etag) {
        const shape: RequestShape = { method: 'GET', headers: { 'if-none-match': etag } };
        const check = await fetch(feedUrl, { headers: shape.headers });
        if (check.status !== 304) throw new Error(`a revalidating pull answered ${check.status}`);
        revalidate = medianSample(await repeat(settings.rounds, () => measure(feedUrl, settings.durationSeconds, shape, { status: 304 })));
      }
      const health = await healthBesidePulls(settings, api, feedUrl);
      progress(
        `portal ${dialect}: pull ${pull.real.p50Ms.toFixed(2)}/${pull.real.p99Ms.toFixed(2)} ms (bare ${pull.bare.p50Ms.toFixed(2)}/` +
          `${pull.bare.p99Ms.toFixed(2)}), /health beside ${PULLING_CONNECTIONS} pulls ${health.beside.p50Ms.toFixed(2)}/${health.beside.p99Ms.toFixed(2)} ms`,
      );
      return {
        dialect,
        listings: seeded.listings,
        published: seeded.published,
        bodyBytes: Buffer.byteLength(body),
        pull: { ...pull, ratio: pull.real.requestsPerSecond / pull.bare.requestsPerSecond },
        ...(revalidate && { revalidate }),
        health,
      };
    });
    if ('skipped' in result) {
      progress(result.skipped);
      continue;
    }
    results.push(result);
  }
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: settings.durationSeconds,
    rounds: settings.rounds,
    results,
  };
  fs.mkdirSync(path.dirname(settings.jsonPath), { recursive: true });
  fs.writeFileSync(settings.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  printReport(report.results, report.loadAverage, settings.jsonPath);
}

/** The built server on the dataset, rate limits off (a portal's own limit too), with an administrator to sign in as. */
async function startServer(cleanups: Cleanups, tmp: string, databaseUrl: string): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Children run in the temporary directory: main.ts reads ./.env, which must not change what is measured.
  const child = startChild(cleanups, [path.join(ROOT, 'dist/main.js'), 'serve'], tmp, {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATABASE_URL: databaseUrl,
    UPLOAD_DIR: path.join(tmp, 'uploads'),
    DATA_DIR: tmp,
    SEED_DEMO: 'false',
    SITE_ENABLED: 'false',
    RATE_LIMIT_ENABLED: 'false',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
  });
  await waitForOk(child, `${base}/ready`, 120_000);
  return base;
}

/** Signs in as the administrator and makes a Kyero feed token; answers the feed's URL. */
async function newFeedUrl(api: string): Promise<string> {
  const post = async (route: string, body: object, token?: string) => {
    const response = await fetch(`${api}/realty-api/v1${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${route} answered ${response.status} ${text}`);
    return (JSON.parse(text) as { data: Record<string, string> }).data;
  };
  const { token } = await post('/auth/login', { username: ADMIN.email, password: ADMIN.password });
  return (await post('/exports/tokens', { name: 'Bench portal', format: 'kyero' }, token)).url!;
}

async function startBareTwin(cleanups: Cleanups, tmp: string, body: string, type: string): Promise<string> {
  const bodiesFile = path.join(tmp, 'portal-bare-bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify([{ body, type }]));
  const port = await freePort();
  const bare = startChild(cleanups, ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'bench/bare-server.ts'), bodiesFile], tmp, {
    PORT: String(port),
  });
  const url = `http://127.0.0.1:${port}/bare/0`;
  await waitForOk(bare, url);
  return url;
}

/**
 * /health asked one request at a time, alone, then while PULLING_CONNECTIONS connections pull the feed without
 * pause. Timed here rather than with autocannon: under the pulls an answer can take longer than a measurement.
 */
async function healthBesidePulls(
  settings: { durationSeconds: number; rounds: number },
  api: string,
  feedUrl: string,
): Promise<PortalResult['health']> {
  const health = `${api}/health`;
  const idle = medianSample(await repeat(settings.rounds, () => timeSequentially(health, settings.durationSeconds)));
  let pulls = 0;
  const beside = medianSample(
    await repeat(settings.rounds, async () => {
      const load = autocannon({
        url: feedUrl,
        connections: PULLING_CONNECTIONS,
        duration: settings.durationSeconds + WARMUP_SECONDS,
        timeout: 60,
      });
      try {
        await sleep(WARMUP_SECONDS * 1000);
        return await timeSequentially(health, settings.durationSeconds);
      } finally {
        const result = await load;
        pulls = Math.max(pulls, result.requests.average);
      }
    }),
  );
  return { idle, beside, pullsPerSecond: pulls };
}

/** Requests `url` one after another for `seconds` (the last one is waited for), each timed. */
async function timeSequentially(url: string, seconds: number): Promise<Sample> {
  const latencies: number[] = [];
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    const sent = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    latencies.push(performance.now() - sent);
  }
  const sorted = Float64Array.from(latencies).sort();
  return {
    requestsPerSecond: latencies.length / ((performance.now() - started) / 1000),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}

async function repeat<T>(times: number, run: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let k = 0; k < times; k++) out.push(await run());
  return out;
}

function printReport(results: readonly PortalResult[], load: { start: number; end: number }, jsonPath: string): void {
  const ms = (sample: Sample) => `${sample.p50Ms.toFixed(2)} / ${sample.p99Ms.toFixed(2)}`;
  const rows = results.flatMap((result) => [
    [`${result.dialect} pull, bare twin`, ms(result.pull.bare), Math.round(result.pull.bare.requestsPerSecond).toString(), ''],
    [
      `${result.dialect} pull`,
      ms(result.pull.real),
      Math.round(result.pull.real.requestsPerSecond).toString(),
      result.pull.ratio.toFixed(3),
    ],
    ...(result.revalidate
      ? [
          [
            `${result.dialect} revalidating pull (304)`,
            ms(result.revalidate),
            Math.round(result.revalidate.requestsPerSecond).toString(),
            '',
          ],
        ]
      : []),
    [
      `${result.dialect} /health alone (one at a time)`,
      ms(result.health.idle),
      Math.round(result.health.idle.requestsPerSecond).toString(),
      '',
    ],
    [
      `${result.dialect} /health beside ${PULLING_CONNECTIONS} pulling (${Math.round(result.health.pullsPerSecond)} pulls/s)`,
      ms(result.health.beside),
      Math.round(result.health.beside.requestsPerSecond).toString(),
      '',
    ],
  ]);
  console.log(
    [
      '',
      `Portal feeds (${results.map((r) => `${r.dialect}: ${r.published} published of ${r.listings}, ${r.bodyBytes} bytes`).join('; ')}), ` +
        `load average ${load.start.toFixed(2)} → ${load.end.toFixed(2)}`,
      formatTable(['scenario', 'p50 / p99 ms', 'req/s', 'real/bare'], rows),
      `(${jsonPath})`,
    ].join('\n'),
  );
}
