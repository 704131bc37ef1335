import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, residentMemoryMb, waitForOk } from './children.js';
import { type Cleanups, medianSample, positiveInteger, progress, startChild } from './harness.js';
import { CONNECTIONS, measure, type RequestShape, Rotation, type Sample, WARMUP_SECONDS, waitUntilIdle } from './measure.js';
import { type DataSummary, prepareData } from './prepare-data.js';
import { homePaths, resultsPaths, SITE_SCENARIOS, type SiteScenario } from './site-scenarios.js';
import { formatTable, median } from './stats.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/** No Accept-Encoding, as in the API suite: both servers send the bytes as they are, and compression is left out of the ratio. */
const GET: RequestShape = { method: 'GET', headers: {} };
/** A shard of ~40,000 URLs takes a while under load. */
const TIMEOUT_SECONDS = 30;
/** Requests of each rotation answered before the measurements, spread over it: the bare twin serves the median-sized body. */
const SAMPLED_REQUESTS = 15;

interface Answer {
  status: number;
  type: string;
  body: string;
}

export interface SiteScenarioResult {
  key: SiteScenario['key'];
  name: string;
  rotates: string;
  targetRatio: number;
  /** Why it was not measured (its page kind is not on this branch yet), when it was not. */
  skipped?: string;
  distinctRequests?: number;
  /** Bytes of the bare twin's body (the median-sized of the sampled answers). */
  bodyBytes?: number;
  bare?: Sample;
  real?: Sample;
  ratio?: number;
  met?: boolean;
  /** p50 at one connection: the time one request takes on an otherwise idle server. */
  bareOneP50Ms?: number;
  realOneP50Ms?: number;
  rounds?: { bare: Sample; real: Sample; bareOne: Sample; realOne: Sample }[];
}

export interface SiteReport {
  date: string;
  node: string;
  cpus: number;
  loadAverage: { start: number; end: number };
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  rounds: number;
  data: DataSummary;
  scenarios: SiteScenarioResult[];
  /** One shard fetched alone as a crawler asks for it (gzip), for what compression on the fly costs. */
  gzipShard?: { urls: number; identityBytes: number; gzipBytes: number; ms: number };
  rssMb: number;
}

/**
 * The website suite (BENCH_SUITE=site): the 100,000-listing dataset of the API suite (prepare-data.ts), the built
 * server on it with the site on, and a bare Fastify twin serving the very bytes the server answered. Each
 * scenario rotates over its distinct requests (site-scenarios.ts) at 10 connections and then at 1, against its
 * twin, BENCH_ROUNDS times; medians and the real/bare ratio go to stdout and to BENCH_SITE_JSON.
 */
export async function runSiteSuite(cleanups: Cleanups): Promise<void> {
  const settings = {
    durationSeconds: positiveInteger('BENCH_DURATION', 10),
    rounds: positiveInteger('BENCH_ROUNDS', 3),
    requests: Math.max(1000, positiveInteger('BENCH_SITE_REQUESTS', 1000)),
    jsonPath: path.resolve(process.env.BENCH_SITE_JSON || path.join(ROOT, 'bench/results/site-latest.json')),
  };
  const loadAtStart = os.loadavg()[0]!;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-site-bench-'));
  cleanups.add(() => fs.rmSync(tmp, { recursive: true, force: true }));

  progress('site: preparing data');
  const data = await prepareData(path.join(tmp, 'realty.db'), path.join(tmp, 'uploads'));
  progress(`site: ${data.listings.toLocaleString('en-US')} listings written in ${data.listingSeconds.toFixed(1)} s`);
  const api = await startSiteServer(cleanups, tmp);

  const rotations = await rotationsOf(api, settings.requests);
  const results: SiteScenarioResult[] = [];
  const bodies: { body: string; type: string }[] = [];
  for (const scenario of SITE_SCENARIOS) {
    const paths = rotations[scenario.key];
    const first = await fetchAnswer(`${api}${paths[0] ?? '/'}`);
    if (paths.length === 0 || first.status === 404) {
      const skipped = `GET ${paths[0] ?? scenario.key} answers 404: the ${scenario.name} is not on this branch yet`;
      progress(`site, ${scenario.name}: skipped (${skipped})`);
      results.push({ key: scenario.key, name: scenario.name, rotates: scenario.rotates, targetRatio: scenario.targetRatio, skipped });
      continue;
    }
    const sample: Answer[] = [];
    for (let k = 0; k < SAMPLED_REQUESTS; k++) {
      const answer = await fetchAnswer(`${api}${paths[Math.floor((k * paths.length) / SAMPLED_REQUESTS)]}`);
      if (answer.status !== 200)
        throw new Error(`${scenario.name}: a sampled request answered ${answer.status} ${answer.body.slice(0, 200)}`);
      sample.push(answer);
    }
    const twin = [...sample].sort((a, b) => Buffer.byteLength(a.body) - Buffer.byteLength(b.body))[sample.length >> 1]!;
    bodies.push({ body: twin.body, type: twin.type });
    results.push({
      key: scenario.key,
      name: scenario.name,
      rotates: scenario.rotates,
      targetRatio: scenario.targetRatio,
      distinctRequests: new Set(paths).size,
      bodyBytes: Buffer.byteLength(twin.body),
    });
  }

  const bodiesFile = path.join(tmp, 'site-bare-bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  const barePort = await freePort();
  const bare = startChild(cleanups, ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'bench/bare-server.ts'), bodiesFile], tmp, {
    PORT: String(barePort),
  });
  const bareBase = `http://127.0.0.1:${barePort}`;
  if (bodies.length > 0) await waitForOk(bare, `${bareBase}/bare/0`);

  let twinIndex = 0;
  for (const result of results) {
    if (result.skipped) continue;
    const measured = await measureAgainstTwin(settings, result.name, `${bareBase}/bare/${twinIndex++}`, api, rotations[result.key]);
    Object.assign(result, measured, { met: measured.ratio >= result.targetRatio });
  }

  const gzipShard = rotations.sitemap.length > 0 ? await timeGzipShard(api, rotations.sitemap[0]!) : undefined;
  const report: SiteReport = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: settings.durationSeconds,
    rounds: settings.rounds,
    data,
    scenarios: results,
    ...(gzipShard && { gzipShard }),
    rssMb: residentMemoryMb(Number(fs.readFileSync(path.join(tmp, 'server.pid'), 'utf8'))),
  };
  fs.mkdirSync(path.dirname(settings.jsonPath), { recursive: true });
  fs.writeFileSync(settings.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  printSiteReport(report, settings.jsonPath);
}

/** The built server on the dataset, with the site on (the default), rate limits off; its pid is written to `tmp`. */
async function startSiteServer(cleanups: Cleanups, tmp: string): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Children run in the temporary directory: main.ts reads ./.env, which must not change what is measured.
  const child = startChild(cleanups, [path.join(ROOT, 'dist/main.js'), 'serve'], tmp, {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATABASE_URL: `sqlite:${path.join(tmp, 'realty.db')}`,
    UPLOAD_DIR: path.join(tmp, 'uploads'),
    DATA_DIR: tmp,
    SEED_DEMO: 'false',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  });
  await waitForOk(child, `${base}/ready`, 120_000);
  fs.writeFileSync(path.join(tmp, 'server.pid'), String(child.pid));
  return base;
}

/** Each scenario's distinct requests, made from the data the server answers through its API and its sitemap. */
async function rotationsOf(api: string, count: number): Promise<Record<SiteScenario['key'], string[]>> {
  // A list's items sit under its plural key (docs/api.md 0.2): `properties`, `cities`, …
  const list = async <T>(route: string): Promise<T[]> => {
    const { data } = (await (await fetch(`${api}/realty-api/v1${route}`)).json()) as { data: Record<string, unknown> };
    return (Object.values(data).find(Array.isArray) ?? []) as T[];
  };
  // Listings spread over the whole dataset: every fifth page of 100, newest first.
  const listing: string[] = [];
  for (let page = 1; listing.length < count; page += 5) {
    const records = await list<{ url: string }>(`/properties?per_page=100&page=${page}`);
    if (records.length === 0) break;
    for (const record of records) listing.push(new URL(record.url).pathname);
  }
  const slugs = async (route: string) => (await list<{ slug: string }>(`${route}?hide_empty=true&number=100`)).map((t) => t.slug);
  const searches = resultsPaths(
    { cities: await slugs('/property-cities'), types: await slugs('/property-types'), statuses: await slugs('/property-status') },
    count,
  );
  // A search naming a landing facet in its query answers 301 to its one URL (docs/site.md, "One URL per search"):
  // the rotation asks for the URLs the site serves, as its own links and a crawler do.
  const results = await Promise.all(searches.map(async (search) => servedPathOf(api, search)));
  const index = (await fetchAnswer(`${api}/sitemap.xml`)).body;
  const sitemap = [...index.matchAll(/<loc>([^<]*\/listings-\d+\.xml)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  return { home: homePaths(count), listing: listing.slice(0, count), results, sitemap };
}

/** The path the site answers 200 for: `search` itself, or where its one permanent redirect leads. */
async function servedPathOf(api: string, search: string): Promise<string> {
  const response = await fetch(`${api}${search}`, { method: 'HEAD', redirect: 'manual' });
  if (response.status !== 301) return search;
  const target = new URL(response.headers.get('location')!, api);
  return target.pathname + target.search;
}

/** One answer as it comes, redirects included: a scenario whose sample is not all 200s is refused. */
async function fetchAnswer(url: string): Promise<Answer> {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, type: response.headers.get('content-type') ?? 'text/plain', body: await response.text() };
}

/** `rounds` times: the twin, then the server rotating over `paths`, at 10 connections and then at 1. */
async function measureAgainstTwin(
  settings: { durationSeconds: number; rounds: number },
  name: string,
  bareUrl: string,
  api: string,
  paths: readonly string[],
) {
  const rotation = new Rotation(paths);
  const options = { timeoutSeconds: TIMEOUT_SECONDS, idleUrl: `${api}/ready` };
  const rounds: NonNullable<SiteScenarioResult['rounds']> = [];
  for (let round = 1; round <= settings.rounds; round++) {
    const bare = await measure(bareUrl, settings.durationSeconds, GET, options);
    const real = await measure(api, settings.durationSeconds, GET, { ...options, rotation });
    const bareOne = await measure(bareUrl, settings.durationSeconds, GET, { ...options, connections: 1 });
    const realOne = await measure(api, settings.durationSeconds, GET, { ...options, rotation, connections: 1 });
    rounds.push({ bare, real, bareOne, realOne });
    progress(
      `site, ${name}, round ${round}/${settings.rounds}: bare ${perSecond(bare.requestsPerSecond)} req/s, real ${perSecond(real.requestsPerSecond)} req/s; ` +
        `1 connection p50 bare ${bareOne.p50Ms.toFixed(2)} ms, real ${realOne.p50Ms.toFixed(2)} ms`,
    );
  }
  await waitUntilIdle(`${api}/ready`);
  const bare = medianSample(rounds.map((r) => r.bare));
  const real = medianSample(rounds.map((r) => r.real));
  return {
    bare,
    real,
    ratio: real.requestsPerSecond / bare.requestsPerSecond,
    bareOneP50Ms: median(rounds.map((r) => r.bareOne.p50Ms)),
    realOneP50Ms: median(rounds.map((r) => r.realOne.p50Ms)),
    rounds,
  };
}

/** One shard as a crawler fetches it (Accept-Encoding: gzip), alone: the compression on the fly is in this time. */
async function timeGzipShard(api: string, shardPath: string) {
  const identity = await fetchAnswer(`${api}${shardPath}`);
  await waitUntilIdle(`${api}/ready`);
  const started = performance.now();
  // node:http rather than fetch, which would undo the compression it is timing.
  const gzipBytes = await new Promise<number>((resolve, reject) => {
    http
      .get(`${api}${shardPath}`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        if (response.headers['content-encoding'] !== 'gzip') reject(new Error(`${shardPath} was not sent gzipped`));
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve(bytes));
      })
      .on('error', reject);
  });
  const ms = performance.now() - started;
  return { urls: identity.body.split('<url>').length - 1, identityBytes: Buffer.byteLength(identity.body), gzipBytes, ms };
}

const perSecond = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number | undefined) => (value === undefined ? '' : value.toFixed(2));

function printSiteReport(report: SiteReport, jsonPath: string): void {
  const header = [
    'scenario',
    'distinct',
    'body',
    'bare req/s',
    'p50 ms',
    'p99 ms',
    'real req/s',
    'p50 ms',
    'p99 ms',
    '1-conn p50',
    'real/bare',
    'target',
    'result',
  ];
  const rows = report.scenarios
    .filter((s) => !s.skipped)
    .map((s) => [
      s.name,
      String(s.distinctRequests),
      `${Math.round(s.bodyBytes! / 1024).toLocaleString('en-US')} kB`,
      perSecond(s.bare!.requestsPerSecond),
      ms(s.bare!.p50Ms),
      ms(s.bare!.p99Ms),
      perSecond(s.real!.requestsPerSecond),
      ms(s.real!.p50Ms),
      ms(s.real!.p99Ms),
      `${ms(s.realOneP50Ms)} ms`,
      `${(s.ratio! * 100).toFixed(1)} %`,
      `≥ ${s.targetRatio * 100} %`,
      s.met ? 'ok' : 'MISSED',
    ]);
  console.log(
    `\nWebsite pages, ${report.data.listings.toLocaleString('en-US')} listings (${report.data.published.toLocaleString('en-US')} published), ` +
      `${report.connections} connections, median of ${report.rounds} × ${report.durationSeconds} s, Node ${report.node}, ${report.cpus} cores, ` +
      `load ${report.loadAverage.start.toFixed(2)} → ${report.loadAverage.end.toFixed(2)}\n`,
  );
  console.log(formatTable(header, rows));
  for (const s of report.scenarios) if (s.skipped) console.log(`${s.name}: skipped — ${s.skipped}`);
  if (report.gzipShard) {
    const g = report.gzipShard;
    console.log(
      `one listing shard as a crawler takes it (gzip, alone): ${g.urls.toLocaleString('en-US')} URLs, ` +
        `${(g.identityBytes / 1e6).toFixed(1)} MB → ${(g.gzipBytes / 1e6).toFixed(2)} MB in ${g.ms.toFixed(0)} ms`,
    );
  }
  console.log(`server resident memory afterwards: ${report.rssMb.toFixed(1)} MB\nJSON: ${jsonPath}`);
}
