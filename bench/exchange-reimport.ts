import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatabaseConfig } from '../src/config.js';
import { freePort, stopChild, waitForOk } from './children.js';
import { databaseUrlOf, MAIN } from './exchange-cli.js';
import { writeFeed } from './exchange-feed.js';
import { type Cleanups, startChild } from './harness.js';
import { withDatabase } from './search-data.js';
import { median, percentile } from './stats.js';

/** The target: the slowest `/health` while the re-import runs. */
export const HEALTH_MAX_TARGET_MS = 100;
const DEFAULT_ROWS = 20_000;
/** The pause between one `/health` answer and the next request: a load balancer's check, many times a second. */
const HEALTH_GAP_MS = 20;
/** `/health` polled on the idle server before the import: the same client's floor, measured in the same run. */
const IDLE_SAMPLE_MS = 3_000;
const RUN_POLL_MS = 500;
/** Generous: `serve` builds its search index of the whole database before it is ready. */
const READY_TIMEOUT_MS = 180_000;
const API = '/realty-api/v1';

export interface ReimportRound {
  rows: number;
  /** From the run's start to its end, as its record says (the job's wait for its tick left out). */
  importSeconds: number;
  updated: number;
  /** `/health` on the idle server, then while the import ran (requests sent between the run's start and end). */
  idleHealthMedianMs: number;
  idleHealthMaxMs: number;
  healthSamples: number;
  healthMedianMs: number;
  healthP99Ms: number;
  healthMaxMs: number;
}

/** BENCH_EXCHANGE_REIMPORT: rows of the re-import scenario (default 20,000, at most the feed's size); 0 leaves it out. */
export function reimportSize(listings: number): number {
  const raw = process.env.BENCH_EXCHANGE_REIMPORT;
  if (raw === undefined || raw === '') return Math.min(DEFAULT_ROWS, listings);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > listings)
    throw new Error(`BENCH_EXCHANGE_REIMPORT must be a whole number from 0 to the feed's ${listings} (got "${raw}")`);
  return value;
}

/**
 * The re-import scenario (issue 38), on a database the exchange suite filled with its feed (source `bench`): the
 * feed's first `rows` listings again with every title changed, uploaded to `POST /imports` of a `realty-api serve`
 * and run by its `feed-imports` job, so that every record is an update made by the process that serves. Meanwhile
 * one client asks `GET /health` over and over (HEALTH_GAP_MS between an answer and the next request): an import
 * that holds the event loop shows as the wait of those requests. The same client first polls the idle server,
 * as the floor of what it measures.
 */
export async function measureReimport(
  scope: Cleanups,
  options: { config: DatabaseConfig; tmp: string; rows: number },
): Promise<ReimportRound> {
  const { config, tmp, rows } = options;
  const feed = path.join(tmp, 'reimport.csv');
  writeFeed(feed, rows, { titleSuffix: ' (renovated)' });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serve = startChild(scope, [MAIN, 'serve'], tmp, {
    HOME: tmp,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrlOf(config),
    DATA_DIR: tmp,
    UPLOAD_DIR: path.join(tmp, 'reimport-uploads'),
    SEED_DEMO: 'false',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  });
  await waitForOk(serve, `${base}/ready`, READY_TIMEOUT_MS);
  const token = await signIn(base);

  const idle = await pollHealth(base, () => false, IDLE_SAMPLE_MS);
  let finished = false;
  const polling = pollHealth(base, () => finished);
  const id = await upload(base, token, feed);
  let run: RunRecord;
  try {
    for (;;) {
      await sleep(RUN_POLL_MS);
      run = await runRecord(base, token, id);
      if (run.state === 'done' || run.state === 'failed') break;
    }
  } finally {
    finished = true;
  }
  const samples = await polling;
  await stopChild(serve);
  if (run.state !== 'done' || run.counts.updated !== rows)
    throw new Error(
      `the re-import should update ${rows} listings: ${JSON.stringify({ state: run.state, counts: run.counts, error: run.error })}`,
    );
  const { started, ended } = await withDatabase(config, async ({ db }) => {
    const row = await db.selectFrom('import_runs').select(['started_at', 'finished_at']).where('id', '=', id).executeTakeFirstOrThrow();
    return { started: Date.parse(row.started_at!), ended: Date.parse(row.finished_at!) };
  });
  const during = Float64Array.from(
    samples.filter((sample) => sample.sentAt >= started && sample.sentAt < ended),
    (sample) => sample.ms,
  ).sort();
  if (during.length === 0) throw new Error('no /health request was sent while the re-import ran');
  const idleMs = Float64Array.from(idle, (sample) => sample.ms).sort();
  return {
    rows,
    importSeconds: (ended - started) / 1000,
    updated: run.counts.updated,
    idleHealthMedianMs: median([...idleMs]),
    idleHealthMaxMs: idleMs.at(-1)!,
    healthSamples: during.length,
    healthMedianMs: median([...during]),
    healthP99Ms: percentile(during, 99),
    healthMaxMs: during.at(-1)!,
  };
}

interface RunRecord {
  state: string;
  counts: { updated: number };
  error: string | null;
}

/** `GET /health` one request at a time until `done()` (or for `forMs`): each answer's time and when it was asked (epoch ms). */
async function pollHealth(base: string, done: () => boolean, forMs = Infinity): Promise<{ sentAt: number; ms: number }[]> {
  const samples: { sentAt: number; ms: number }[] = [];
  const until = performance.now() + forMs;
  while (!done() && performance.now() < until) {
    const sentAt = Date.now();
    const started = performance.now();
    const response = await fetch(`${base}/health`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`/health answered ${response.status}`);
    samples.push({ sentAt, ms: performance.now() - started });
    await sleep(HEALTH_GAP_MS);
  }
  return samples;
}

/** The bench administrator (made by the exchange suite with `create-admin`), signed in: a bearer token. */
async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}${API}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench-admin@example.test', password: 'bench-password' }),
  });
  if (!response.ok) throw new Error(`bench admin login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

/** The feed as an upload of the exchange suite's source: the run's id. */
async function upload(base: string, token: string, feed: string): Promise<number> {
  const form = new FormData();
  form.set('format', 'csv');
  form.set('source', 'bench');
  form.set('file', new Blob([fs.readFileSync(feed)], { type: 'text/csv' }), 'reimport.csv');
  const response = await fetch(`${base}${API}/imports`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (response.status !== 202) throw new Error(`POST /imports answered ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: { id: number } }).data.id;
}

async function runRecord(base: string, token: string, id: number): Promise<RunRecord> {
  const response = await fetch(`${base}${API}/imports/${id}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET /imports/${id} answered ${response.status}`);
  return ((await response.json()) as { data: RunRecord }).data;
}
