import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp, createServices } from '../src/app.js';
import { type DatabaseConfig, loadConfig } from '../src/config.js';
import { changeLogHead } from '../src/db/change-log.js';
import { createDatabase } from '../src/db/database.js';
import { type Cleanups, positiveInteger, progress, writeDatasetsReport } from './harness.js';
import { measureOnEachDatabase, seedDataset } from './search-data.js';
import { benchDatabaseUrl } from './search-settings.js';
import { formatTable, percentile } from './stats.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';
/** The goal: at least 2,000 deliveries a second with a p99 lag of 2 s at most. */
const RATE_TARGET = 2_000;
const P99_TARGET_MS = 2_000;
/** No delivery for this long ends the round as a failure. */
const STALL_MS = 60_000;
/** Listings updated per transaction, as an import's batches would. */
const UPDATES_PER_TRANSACTION = 500;

interface WebhookDataset {
  dialect: 'sqlite' | 'postgres';
  updates: number;
  endpoints: number;
  deliveries: number;
  /** From the first update's commit to the last delivery's arrival. */
  seconds: number;
  deliveriesPerSecond: number;
  /** Commit of the update to its arrival at the receiver, over every delivery. */
  lagMs: { p50: number; p99: number; max: number };
}

/**
 * The webhooks suite (`BENCH_SUITE=webhooks`): BENCH_WEBHOOK_UPDATES listing updates (default 100,000: that many
 * demo listings, each updated once, in transactions of 500) fanned out to BENCH_WEBHOOK_ENDPOINTS endpoints
 * (default 10) on a local receiver, on a SQLite file and, unless BENCH_DATABASE_URL=none, a PostgreSQL database
 * of its own. The scheduler runs as `serve` starts it; the receiver answers 200 at once and notes when each
 * delivery arrived. Reported: deliveries per second from the first commit to the last arrival, and the lag from
 * each update's commit to its delivery's arrival (p50, p99). Results: bench/results/webhooks-latest.json
 * (BENCH_WEBHOOK_JSON).
 */
export async function runWebhooksSuite(cleanups: Cleanups): Promise<void> {
  const updates = positiveInteger('BENCH_WEBHOOK_UPDATES', 100_000);
  const endpoints = positiveInteger('BENCH_WEBHOOK_ENDPOINTS', 10);
  const adminUrl = benchDatabaseUrl();
  const jsonPath = path.resolve(process.env.BENCH_WEBHOOK_JSON || path.join(ROOT, 'bench/results/webhooks-latest.json'));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-webhooks-bench-'));
  cleanups.add(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const loadAtStart = os.loadavg()[0]!;
  const datasets = await measureOnEachDatabase(cleanups, tmp, adminUrl, async (dialect, config) => {
    progress(`${dialect}: seeding ${updates.toLocaleString('en-US')} listings`);
    await seedDataset(config, path.join(tmp, 'uploads'), { count: updates });
    return measureDataset(dialect, config, updates, endpoints);
  });
  writeDatasetsReport(jsonPath, loadAtStart, datasets);
  printReport(datasets, jsonPath);
}

async function measureDataset(
  dialect: WebhookDataset['dialect'],
  config: DatabaseConfig,
  updates: number,
  endpointCount: number,
): Promise<WebhookDataset> {
  const receiver = await startReceiver();
  const database = createDatabase(config);
  const appConfig = loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    DATABASE_URL: config.kind === 'sqlite' ? `sqlite:${config.path}` : config.url,
    JWT_SECRET,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    // The search index is not what is measured: SQL search needs no build before /ready.
    SEARCH_ENGINE: 'sql',
  });
  const deps = { config: appConfig, database, jwtSecret: JWT_SECRET };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  try {
    const admin = await services.users.ensureAdministrator('bench-admin@example.test', 'bench-admin-password');
    const login = await app.inject({
      method: 'POST',
      url: '/realty-api/v1/auth/login',
      payload: { username: admin.user.username, password: 'bench-admin-password' },
    });
    const headers = { authorization: `Bearer ${login.json().data.token as string}` };
    for (let i = 0; i < endpointCount; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/realty-api/v1/webhooks',
        headers,
        payload: { url: `${receiver.base}/hook/${i}`, events: ['listing.updated'] },
      });
      if (res.statusCode !== 201) throw new Error(`endpoint refused: ${res.body}`);
    }
    // The follower's first run sets its position at the head: the seeded listings are not events.
    await services.webhookEvents.runOnce(new Date());
    services.scheduler.start();

    const ids = (await database.db.selectFrom('listings').select('id').orderBy('id').execute()).map((row) => row.id);
    const commits: { head: number; at: number }[] = [];
    const started = Date.now();
    for (let first = 0; first < ids.length; first += UPDATES_PER_TRANSACTION) {
      const batch = ids.slice(first, first + UPDATES_PER_TRANSACTION);
      await database.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('listings')
          .set({ price: sql`coalesce(price, 0) + 1`, updated_at: new Date().toISOString() })
          .where('id', 'in', batch)
          .execute();
      });
      commits.push({ head: await changeLogHead(database.db), at: Date.now() });
    }
    progress(`${dialect}: ${ids.length.toLocaleString('en-US')} updates committed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const expected = ids.length * endpointCount;
    let last = -1;
    let lastProgress = Date.now();
    while (receiver.arrivals.length < expected) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (receiver.arrivals.length !== last) lastProgress = Date.now();
      else if (Date.now() - lastProgress > STALL_MS)
        throw new Error(`${dialect}: ${receiver.arrivals.length} of ${expected} deliveries, none for ${STALL_MS} ms`);
      last = receiver.arrivals.length;
      progress(`${dialect}: ${receiver.arrivals.length.toLocaleString('en-US')} of ${expected.toLocaleString('en-US')} delivered`);
    }
    const finished = Math.max(...receiver.arrivals.map((arrival) => arrival.at));
    // The commit that numbered a change: the first batch whose head reached its sequence.
    const commitOf = (sequence: number) => commits.find((commit) => commit.head >= sequence)!.at;
    const lags = Float64Array.from(receiver.arrivals.map((arrival) => arrival.at - commitOf(arrival.sequence))).sort();
    const seconds = (finished - started) / 1000;
    return {
      dialect,
      updates: ids.length,
      endpoints: endpointCount,
      deliveries: receiver.arrivals.length,
      seconds,
      deliveriesPerSecond: receiver.arrivals.length / seconds,
      lagMs: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags[lags.length - 1]! },
    };
  } finally {
    await app.close();
    await services.shutdown();
    await database.destroy();
    await receiver.close();
  }
}

/** A receiver that answers 200 at once and notes each delivery's sequence number and arrival time. */
async function startReceiver() {
  const arrivals: { sequence: number; at: number }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sequence: number };
      arrivals.push({ sequence: body.sequence, at: Date.now() });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, arrivals, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function printReport(datasets: readonly WebhookDataset[], jsonPath: string): void {
  const rows = datasets.map((d) => [
    `${d.dialect}, ${d.updates.toLocaleString('en-US')} updates × ${d.endpoints} endpoints`,
    `${Math.round(d.deliveriesPerSecond).toLocaleString('en-US')}/s ${d.deliveriesPerSecond >= RATE_TARGET ? '(met)' : '(MISSED)'}`,
    `${(d.lagMs.p50 / 1000).toFixed(2)} s`,
    `${(d.lagMs.p99 / 1000).toFixed(2)} s ${d.lagMs.p99 <= P99_TARGET_MS ? '(met)' : '(MISSED)'}`,
    `${d.seconds.toFixed(1)} s`,
  ]);
  console.log('\nWebhook deliveries to a local receiver (targets: ≥ 2,000 deliveries/s, p99 lag ≤ 2 s)');
  console.log(formatTable(['dataset', 'deliveries', 'lag p50', 'lag p99', 'first commit → last arrival'], rows));
  console.log(`\nwritten to ${path.relative(process.cwd(), jsonPath)}`);
}
