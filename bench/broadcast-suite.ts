import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp, createServices } from '../src/app.js';
import { type DatabaseConfig, loadConfig } from '../src/config.js';
import { createDatabase, type Database, migrateToLatest } from '../src/db/database.js';
import { type Cleanups, positiveInteger, progress, writeDatasetsReport } from './harness.js';
import { measureOnEachDatabase } from './search-data.js';
import { benchDatabaseUrl } from './search-settings.js';
import { formatTable, median } from './stats.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';
/** The targets: the request queues within 1 s, and every user has the notification within 30 s. */
const QUEUE_TARGET_MS = 1_000;
const DELIVERY_TARGET_MS = 30_000;
const USERS_PER_INSERT = 2_000;

interface BroadcastRound {
  queueMs: number;
  deliveredMs: number;
}

interface BroadcastDataset {
  dialect: 'sqlite' | 'postgres';
  users: number;
  /** One INSERT … SELECT of the same rows, the floor of any fan-out. */
  floorMs: number;
  rounds: BroadcastRound[];
}

/**
 * The broadcast suite (`BENCH_SUITE=broadcast`): an administrator's notification to everyone, with
 * BENCH_BROADCAST_USERS users (default 100,000) on a SQLite file and, unless BENCH_DATABASE_URL=none, a
 * PostgreSQL database of its own. Each of BENCH_BROADCAST_ROUNDS rounds (default 3) times `POST
 * /notifications {all: true}` through the application (the queueing) and then how long the scheduler, started
 * as `serve` starts it, takes until every user has the notification in the database (the in-app delivery).
 * Beside it, in the same run, the floor: one `INSERT … SELECT` writing the same rows. Results:
 * bench/results/broadcast-latest.json (BENCH_BROADCAST_JSON).
 */
export async function runBroadcastSuite(cleanups: Cleanups): Promise<void> {
  const users = positiveInteger('BENCH_BROADCAST_USERS', 100_000);
  const rounds = positiveInteger('BENCH_BROADCAST_ROUNDS', 3);
  const adminUrl = benchDatabaseUrl();
  const jsonPath = path.resolve(process.env.BENCH_BROADCAST_JSON || path.join(ROOT, 'bench/results/broadcast-latest.json'));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-broadcast-bench-'));
  cleanups.add(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const loadAtStart = os.loadavg()[0]!;
  const datasets = await measureOnEachDatabase(cleanups, tmp, adminUrl, (dialect, config) =>
    measureDataset(dialect, config, users, rounds),
  );
  writeDatasetsReport(jsonPath, loadAtStart, datasets);
  printReport(datasets, jsonPath);
}

async function measureDataset(
  dialect: BroadcastDataset['dialect'],
  config: DatabaseConfig,
  users: number,
  rounds: number,
): Promise<BroadcastDataset> {
  const database = createDatabase(config);
  try {
    await migrateToLatest(database.db);
    progress(`${dialect}: seeding ${users.toLocaleString('en-US')} users`);
    await seedUsers(database, users);
    const floorMs = await measureFloor(database);
    const appConfig = loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_ENABLED: 'false',
      DATABASE_URL: config.kind === 'sqlite' ? `sqlite:${config.path}` : config.url,
      JWT_SECRET,
    });
    const deps = { config: appConfig, database, jwtSecret: JWT_SECRET };
    const services = createServices(deps);
    const app = await buildApp(deps, services);
    try {
      const admin = await services.users.ensureAdministrator('bench-admin@example.test', 'bench-admin-password');
      const token = await signIn(app, admin.user.username);
      services.scheduler.start();
      const results: BroadcastRound[] = [];
      for (let round = 1; round <= rounds; round++) {
        results.push(await broadcastOnce(app, database, token, round));
        progress(
          `${dialect}: round ${round}: queued in ${results.at(-1)!.queueMs.toFixed(1)} ms, delivered in ${results.at(-1)!.deliveredMs.toFixed(0)} ms`,
        );
        await database.db.deleteFrom('notifications').execute();
      }
      return { dialect, users, floorMs, rounds: results };
    } finally {
      await app.close();
      await services.shutdown();
    }
  } finally {
    await database.destroy();
  }
}

async function broadcastOnce(
  app: Awaited<ReturnType<typeof buildApp>>,
  database: Database,
  token: string,
  round: number,
): Promise<BroadcastRound> {
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: '/realty-api/v1/notifications',
    headers: { authorization: `Bearer ${token}` },
    payload: { title: `Maintenance ${round}`, message: 'The service pauses tonight from 22:00 to 22:15.', all: true },
  });
  const queueMs = performance.now() - started;
  if (response.statusCode !== 201) throw new Error(`broadcast refused: ${response.body}`);
  const { created, broadcast_id: id } = response.json().data as { created: number; broadcast_id: number };
  for (;;) {
    const row = await database.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('source', '=', `broadcast:${id}`)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= created) return { queueMs, deliveredMs: performance.now() - started };
    if (performance.now() - started > 10 * DELIVERY_TARGET_MS)
      throw new Error(`broadcast ${id}: ${row.n} of ${created} after ${10 * DELIVERY_TARGET_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function seedUsers(database: Database, count: number): Promise<void> {
  const now = new Date().toISOString();
  for (let first = 0; first < count; first += USERS_PER_INSERT) {
    const size = Math.min(USERS_PER_INSERT, count - first);
    await database.db
      .insertInto('users')
      .values(
        Array.from({ length: size }, (_, i) => ({
          username: `bench_user_${first + i}`,
          email: `bench_user_${first + i}@example.test`,
          password_hash: null,
          role: (['buyer', 'owner', 'agent', 'seller'] as const)[(first + i) % 4]!,
          display_name: `Bench user ${first + i}`,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

/** The same rows as a broadcast to everyone, written by one statement, then removed. */
async function measureFloor(database: Database): Promise<number> {
  const started = performance.now();
  await sql`insert into notifications (user_id, type, title, message, data, source, created_at)
    select id, 'system', 'Floor', 'The same rows in one statement.', '{}', 'floor', ${new Date().toISOString()} from users`.execute(
    database.db,
  );
  const floorMs = performance.now() - started;
  await database.db.deleteFrom('notifications').execute();
  return floorMs;
}

async function signIn(app: Awaited<ReturnType<typeof buildApp>>, username: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/realty-api/v1/auth/login',
    payload: { username, password: 'bench-admin-password' },
  });
  if (response.statusCode !== 200) throw new Error(`bench admin login failed: ${response.body}`);
  return response.json().data.token as string;
}

function printReport(datasets: readonly BroadcastDataset[], jsonPath: string): void {
  const rows = datasets.map((d) => {
    const queue = median(d.rounds.map((r) => r.queueMs));
    const delivered = median(d.rounds.map((r) => r.deliveredMs));
    return [
      `${d.dialect}, ${d.users.toLocaleString('en-US')} users`,
      `${queue.toFixed(1)} ms ${queue < QUEUE_TARGET_MS ? '(met)' : '(MISSED)'}`,
      `${(delivered / 1000).toFixed(2)} s ${delivered < DELIVERY_TARGET_MS ? '(met)' : '(MISSED)'}`,
      `${(d.floorMs / 1000).toFixed(2)} s`,
      `${(delivered / d.floorMs).toFixed(1)}×`,
    ];
  });
  console.log(
    `\nBroadcast to everyone, median of ${datasets[0]?.rounds.length ?? 0} rounds (targets: queued < 1 s, delivered in-app < 30 s)`,
  );
  console.log(formatTable(['dataset', 'queued (request)', 'delivered in-app', 'floor: one INSERT…SELECT', 'delivered / floor'], rows));
  console.log(`results: ${path.relative(process.cwd(), jsonPath)}`);
}
