import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import type { DialectName } from '../../src/db/dialect/index.js';
import type { DB, OutboxRow } from '../../src/db/schema/index.js';
import { OutboxWorker } from '../../src/jobs/outbox.js';
import { enqueueMany } from '../../src/db/outbox.js';
import { nowIso } from '../../src/lib/time.js';
import { EMAIL_CHANNEL } from '../../src/modules/notifications/delivery/notifier.service.js';
import { createTestDatabase, describeEachDialect } from '../helpers/database.js';
import { newUser, unique } from '../helpers/factories.js';
import { startProgram } from '../helpers/programs.js';
import type { CrashWorkerOptions } from './outbox-crash-worker.js';

/**
 * docs/api.md 8: "a crash between the commit and the send loses nothing". A real worker process is killed with
 * SIGKILL mid-batch (or right after a notification's commit), then a fresh worker takes over once the dead
 * one's leases run out. Delivery is at least once: the only repeats are messages the killed worker had claimed.
 */

const LEASE_MS = 60_000;
const BATCH = 8;
const TIMEOUT = 45_000;
const log = pino({ level: 'silent' });

interface CrashDatabase {
  db: Kysely<DB>;
  /** How the child process reaches the same database. */
  ref: CrashWorkerOptions['database'];
  dir: string;
  dispose(): Promise<void>;
}

/** A migrated database two processes can share: a SQLite file (not :memory:), or a PostgreSQL database. */
async function crashDatabase(dialect: DialectName): Promise<CrashDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-outbox-crash-'));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    const file = path.join(dir, 'realty.sqlite');
    const database = createDatabase({ kind: 'sqlite', path: file });
    await migrateToLatest(database.db);
    return { db: database.db, ref: { kind: 'sqlite', path: file }, dir, dispose: async () => (await database.destroy(), removeDir()) };
  }
  const database = await createTestDatabase('postgres');
  return {
    db: database.db,
    ref: { kind: 'postgres', url: database.url! },
    dir,
    dispose: async () => (await database.dispose(), removeDir()),
  };
}

/** Starts the worker process; its stdout lines are what `waitForLine` reads. */
function startWorker(options: CrashWorkerOptions): ChildProcess & { output: () => string } {
  const child = startProgram('outbox-crash-worker.mjs', [JSON.stringify(options)], { env: process.env });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return Object.assign(child, { output: () => out });
}

function waitForLine(child: ChildProcess & { output: () => string }, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(child.output());
      if (!match) return false;
      cleanup();
      resolve(match);
      return true;
    };
    const onExit = (code: number | null) => (cleanup(), reject(new Error(`worker exited (${code}) before ${pattern}:\n${child.output()}`)));
    const timer = setTimeout(() => (cleanup(), reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${child.output()}`))), timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', onExit);
    };
    if (check()) return;
    child.stdout?.on('data', check);
    child.on('exit', onExit);
  });
}

/** SIGKILL: no handler, no `finally`, no flush runs in the worker. */
async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null)
    throw new Error(`worker had already exited: ${child.exitCode ?? child.signalCode}`);
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
}

const linesOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

function countsOf(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/** A worker of this process whose senders record the keys they deliver. */
function survivorWorker(db: Kysely<DB>, channels: readonly string[], delivered: string[]): OutboxWorker {
  const sender = async (_payload: unknown, message: OutboxRow) => (delivered.push(message.idempotency_key), {});
  return new OutboxWorker(db, Object.fromEntries(channels.map((channel) => [channel, sender])), log, {
    leaseMs: LEASE_MS,
    batchSize: BATCH,
  });
}

/** Runs the worker until nothing is due at `at()` (evaluated per batch). */
async function drain(worker: OutboxWorker, at: () => Date): Promise<void> {
  for (let round = 0; round < 100; round++) if ((await worker.runOnce(at())) === 0) return;
  throw new Error('the outbox did not drain');
}

/** Past every lease the killed worker can have taken. */
const pastTheLease = () => new Date(Date.now() + LEASE_MS + 1);

describeEachDialect('outbox worker killed mid-batch (%s)', (dialect) => {
  let cdb: CrashDatabase;
  let db: Kysely<DB>;
  const children: ChildProcess[] = [];

  // One database for the file, as everywhere; each test leaves every message it made sent.
  beforeAll(async () => {
    cdb = await crashDatabase(dialect);
    db = cdb.db;
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  afterAll(() => cdb.dispose());

  const spawnWorker = (options: Omit<CrashWorkerOptions, 'database' | 'leaseMs' | 'batchSize'>) => {
    const child = startWorker({ database: cdb.ref, leaseMs: LEASE_MS, batchSize: BATCH, ...options });
    children.push(child);
    return child;
  };
  const rowsOf = (channel: string) => db.selectFrom('outbox').selectAll().where('channel', '=', channel).orderBy('id').execute();

  it(
    'loses nothing when the worker is killed inside a send: every message is sent, repeats only among its claimed batch',
    async () => {
      const channel = unique('crash-');
      const total = 40;
      const allKeys = Array.from({ length: total }, (_, n) => `${channel}:${n}`);
      await enqueueMany(
        db,
        allKeys.map((key, n) => ({ channel, idempotencyKey: key, payload: { n } })),
      );
      const keysFile = path.join(cdb.dir, `${channel}.keys`);
      // 13 deliveries: a whole batch of 8, then 5 of the second; the 6th of that batch reaches the receiver
      // but the process hangs before marking it sent (the acknowledgement is lost), and is killed there.
      const child = spawnWorker({ channels: [channel], keysFile, stallAfter: 13, stalledSendArrives: true });
      const stalledKey = (await waitForLine(child, /^stalled (\S+)$/m))[1]!;
      await killHard(child);

      const afterKill = await rowsOf(channel);
      const now = nowIso();
      const leased = afterKill.filter((row) => row.status === 'pending' && row.available_at > now);
      expect(afterKill.filter((row) => row.status === 'sent')).toHaveLength(13);
      expect(leased.map((row) => row.idempotency_key)).toContain(stalledKey);
      expect(leased.length).toBeGreaterThan(0);
      expect(leased.length).toBeLessThanOrEqual(BATCH);
      expect(leased.every((row) => row.attempts === 1)).toBe(true);
      const byKilled = linesOf(keysFile);
      expect(byKilled).toHaveLength(14);
      expect(new Set(byKilled).size).toBe(14);

      const bySurvivor: string[] = [];
      const survivor = survivorWorker(db, [channel], bySurvivor);
      // While the dead worker's leases last, its claims stay untouched: the rest is sent at once.
      await drain(survivor, () => new Date());
      const leasedKeys = new Set(leased.map((row) => row.idempotency_key));
      expect(bySurvivor.filter((key) => leasedKeys.has(key))).toEqual([]);
      expect(bySurvivor).toHaveLength(total - 13 - leased.length);
      // Once they run out, the claimed ones are sent too.
      await drain(survivor, pastTheLease);
      expect(await survivor.runOnce(pastTheLease())).toBe(0);

      const rows = await rowsOf(channel);
      expect(rows.filter((row) => row.status !== 'sent')).toEqual([]);
      expect(rows.filter((row) => leasedKeys.has(row.idempotency_key)).map((row) => row.attempts)).toEqual(leased.map(() => 2));
      const counts = countsOf([...byKilled, ...bySurvivor]);
      for (const key of allKeys) expect(counts.get(key) ?? 0, key).toBeGreaterThanOrEqual(1);
      expect([...counts.keys()].sort()).toEqual([...allKeys].sort());
      const repeated = [...counts].filter(([, count]) => count > 1);
      for (const [key, count] of repeated) {
        expect(leasedKeys.has(key), key).toBe(true);
        expect(count, key).toBe(2);
      }
      // Exactly the one whose acknowledgement died with the process.
      expect(repeated.map(([key]) => key)).toEqual([stalledKey]);
    },
    TIMEOUT,
  );

  it.each([
    { when: 'before any worker runs', stopAfterCommit: true },
    { when: 'while the first send hangs', stopAfterCommit: false },
  ])(
    'sends the notification e-mails committed just before the process was killed ($when)',
    async ({ stopAfterCommit }) => {
      const users = await Promise.all(Array.from({ length: 5 }, () => newUser(db)));
      const keysFile = path.join(cdb.dir, `${unique('announce-')}.keys`);
      const child = spawnWorker({
        channels: [EMAIL_CHANNEL],
        keysFile,
        stallAfter: 0,
        stalledSendArrives: false,
        stopAfterCommit,
        announce: { userIds: users.map((user) => user.id), type: 'property_approved' },
      });
      await waitForLine(child, /^committed 5$/m);
      if (!stopAfterCommit) await waitForLine(child, /^stalled /m);
      await killHard(child);

      // The commit holds: the in-app notifications and their e-mails in the outbox, none sent.
      const userIds = users.map((user) => user.id).sort((a, b) => a - b);
      const notifications = await db.selectFrom('notifications').select(['user_id', 'source']).where('user_id', 'in', userIds).execute();
      expect(notifications.map((row) => row.user_id).sort((a, b) => a - b)).toEqual(userIds);
      const ours = (row: OutboxRow) => userIds.some((id) => row.idempotency_key.startsWith(`notification:${id}:`));
      const outbox = (await rowsOf(EMAIL_CHANNEL)).filter(ours);
      expect(outbox).toHaveLength(5);
      expect(outbox.every((row) => row.status === 'pending')).toBe(true);
      expect(outbox.map((row) => row.attempts)).toEqual(outbox.map(() => (stopAfterCommit ? 0 : 1)));
      expect(linesOf(keysFile)).toEqual([]);
      const expectedKeys = notifications.map((row) => `notification:${row.user_id}:${row.source}:email`).sort();
      expect(outbox.map((row) => row.idempotency_key).sort()).toEqual(expectedKeys);

      const delivered: string[] = [];
      const survivor = survivorWorker(db, [EMAIL_CHANNEL], delivered);
      // Claimed by the dead worker: invisible until the lease runs out. Never claimed: due at once.
      await drain(survivor, () => new Date());
      expect(delivered).toHaveLength(stopAfterCommit ? 5 : 0);
      await drain(survivor, pastTheLease);
      expect(delivered.sort()).toEqual(expectedKeys);
      expect((await rowsOf(EMAIL_CHANNEL)).filter(ours).map((row) => row.status)).toEqual(outbox.map(() => 'sent'));
    },
    TIMEOUT,
  );
});
