import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { freePort, residentMemoryMb, waitForOk } from './children.js';
import { type Cleanups, medianSample, positiveInteger, progress, startChild } from './harness.js';
import { CONNECTIONS, measure, type RequestShape, Rotation, type Sample, WARMUP_SECONDS, waitUntilIdle } from './measure.js';
import { type DataSummary, prepareData } from './prepare-data.js';
import { homePaths, resultsPaths, selectedSiteScenarios, type SiteScenario } from './site-scenarios.js';
import { formatTable, median } from './stats.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/**
 * No Accept-Encoding, as in the API suite (both servers send the bytes as they are, and compression is left out of
 * the ratio), except where a scenario's clients send one (crawlers: gzip); its twin then sends the same gzipped bytes.
 */
const getOf = (scenario: SiteScenario): RequestShape => ({
  method: 'GET',
  headers: scenario.acceptEncoding ? { 'accept-encoding': scenario.acceptEncoding } : {},
});
/** A shard of ~40,000 URLs takes a while under load. */
const TIMEOUT_SECONDS = 30;
/** Requests of each rotation answered before the measurements, spread over it: the bare twin serves the median-sized body. */
const SAMPLED_REQUESTS = 15;

/** An answer's bytes as they came over the wire (still compressed when `encoding` says so). */
interface Answer {
  status: number;
  type: string;
  encoding: string | undefined;
  bytes: Buffer;
}

interface SiteScenarioResult {
  key: SiteScenario['key'];
  name: string;
  rotates: string;
  targetRatio: number;
  /** Why it was not measured (its page kind is not on this branch yet), when it was not. */
  skipped?: string;
  distinctRequests?: number;
  /** Bytes of the bare twin's body (the median-sized of the sampled answers), as sent. */
  bodyBytes?: number;
  /** Their Content-Encoding, when the scenario's clients asked for one. */
  encoding?: string;
  bare?: Sample;
  real?: Sample;
  ratio?: number;
  met?: boolean;
  /** p50 at one connection: the time one request takes on an otherwise idle server. */
  bareOneP50Ms?: number;
  realOneP50Ms?: number;
  rounds?: { bare: Sample; real: Sample; bareOne: Sample; realOne: Sample }[];
}

interface SiteReport {
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
  /** One shard's first request, alone, as a crawler asks for it (gzip): what building a shard costs. */
  gzipShard?: { urls: number; identityBytes: number; gzipBytes: number; ms: number };
  rssMb: number;
}

/**
 * The website suite (BENCH_SUITE=site): the 100,000-listing dataset of the API suite (prepare-data.ts), the built
 * server on it with the site on, and a bare Fastify twin serving the very bytes the server answered. Each
 * scenario (those BENCH_SITE_SCENARIOS names, or all) rotates over its distinct requests (site-scenarios.ts) at 10
 * connections and then at 1, against its twin, BENCH_ROUNDS times; medians and the real/bare ratio go to stdout
 * and to BENCH_SITE_JSON.
 */
export async function runSiteSuite(cleanups: Cleanups): Promise<void> {
  const settings = {
    durationSeconds: positiveInteger('BENCH_DURATION', 10),
    rounds: positiveInteger('BENCH_ROUNDS', 3),
    requests: Math.max(1000, positiveInteger('BENCH_SITE_REQUESTS', 1000)),
    scenarios: selectedSiteScenarios(process.env.BENCH_SITE_SCENARIOS),
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
  // Before any request of a shard: its first one, which builds it.
  const measuresShards = settings.scenarios.some((scenario) => scenario.key === 'sitemap');
  const gzipShard = measuresShards && rotations.sitemap.length > 0 ? await timeFirstShard(api, rotations.sitemap[0]!) : undefined;
  const results: SiteScenarioResult[] = [];
  const bodies: { base64: string; type: string; encoding?: string }[] = [];
  for (const scenario of settings.scenarios) {
    const paths = rotations[scenario.key];
    const first = await fetchAnswer(`${api}${paths[0] ?? '/'}`, scenario.acceptEncoding);
    if (paths.length === 0 || first.status === 404) {
      const skipped = `GET ${paths[0] ?? scenario.key} answers 404: the ${scenario.name} is not on this branch yet`;
      progress(`site, ${scenario.name}: skipped (${skipped})`);
      results.push({ key: scenario.key, name: scenario.name, rotates: scenario.rotates, targetRatio: scenario.targetRatio, skipped });
      continue;
    }
    const sample: Answer[] = [];
    for (let k = 0; k < SAMPLED_REQUESTS; k++) {
      const path = paths[Math.floor((k * paths.length) / SAMPLED_REQUESTS)];
      const answer = await fetchAnswer(`${api}${path}`, scenario.acceptEncoding);
      if (answer.status !== 200)
        throw new Error(`${scenario.name}: a sampled request answered ${answer.status} ${answer.bytes.toString().slice(0, 200)}`);
      if (answer.encoding !== scenario.acceptEncoding)
        throw new Error(
          `${scenario.name}: ${path} came with Content-Encoding ${answer.encoding ?? 'none'}, asked ${scenario.acceptEncoding ?? 'none'}`,
        );
      sample.push(answer);
    }
    const twin = [...sample].sort((a, b) => a.bytes.length - b.bytes.length)[sample.length >> 1]!;
    bodies.push({ base64: twin.bytes.toString('base64'), type: twin.type, ...(twin.encoding && { encoding: twin.encoding }) });
    results.push({
      key: scenario.key,
      name: scenario.name,
      rotates: scenario.rotates,
      targetRatio: scenario.targetRatio,
      distinctRequests: new Set(paths).size,
      bodyBytes: twin.bytes.length,
      ...(twin.encoding && { encoding: twin.encoding }),
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
    const scenario = settings.scenarios.find((s) => s.key === result.key)!;
    const twinUrl = `${bareBase}/bare/${twinIndex++}`;
    const measured = await measureAgainstTwin(settings, result.name, getOf(scenario), twinUrl, api, rotations[result.key]);
    Object.assign(result, measured, { met: measured.ratio >= result.targetRatio });
  }

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
  const index = (await fetchAnswer(`${api}/sitemap.xml`)).bytes.toString();
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

/**
 * One answer as it comes: node:http rather than fetch, which would undo the compression the twin must send as it
 * came, and follows no redirect (a scenario whose sample is not all 200s is refused).
 */
function fetchAnswer(url: string, acceptEncoding?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            type: response.headers['content-type'] ?? 'text/plain',
            encoding: response.headers['content-encoding'],
            bytes: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

/** `rounds` times: the twin, then the server rotating over `paths`, at 10 connections and then at 1. */
async function measureAgainstTwin(
  settings: { durationSeconds: number; rounds: number },
  name: string,
  get: RequestShape,
  bareUrl: string,
  api: string,
  paths: readonly string[],
) {
  const rotation = new Rotation(paths);
  const options = { timeoutSeconds: TIMEOUT_SECONDS, idleUrl: `${api}/ready` };
  const rounds: NonNullable<SiteScenarioResult['rounds']> = [];
  for (let round = 1; round <= settings.rounds; round++) {
    const bare = await measure(bareUrl, settings.durationSeconds, get, options);
    const real = await measure(api, settings.durationSeconds, get, { ...options, rotation });
    const bareOne = await measure(bareUrl, settings.durationSeconds, get, { ...options, connections: 1 });
    const realOne = await measure(api, settings.durationSeconds, get, { ...options, rotation, connections: 1 });
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

/** The first request of a shard, alone, as a crawler sends it (Accept-Encoding: gzip): what making the shard costs. */
async function timeFirstShard(api: string, shardPath: string) {
  await waitUntilIdle(`${api}/ready`);
  const started = performance.now();
  const answer = await fetchAnswer(`${api}${shardPath}`, 'gzip');
  const ms = performance.now() - started;
  if (answer.status !== 200 || answer.encoding !== 'gzip') throw new Error(`${shardPath} answered ${answer.status}, not sent gzipped`);
  const identity = gunzipSync(answer.bytes);
  return { urls: identity.toString().split('<url>').length - 1, identityBytes: identity.length, gzipBytes: answer.bytes.length, ms };
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
      `${Math.round(s.bodyBytes! / 1024).toLocaleString('en-US')} kB${s.encoding ? ` ${s.encoding}` : ''}`,
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
      `one listing shard's first request, as a crawler sends it (gzip, alone): ${g.urls.toLocaleString('en-US')} URLs, ` +
        `${(g.identityBytes / 1e6).toFixed(1)} MB → ${(g.gzipBytes / 1e6).toFixed(2)} MB in ${g.ms.toFixed(0)} ms`,
    );
  }
  console.log(`server resident memory afterwards: ${report.rssMb.toFixed(1)} MB\nJSON: ${jsonPath}`);
}
