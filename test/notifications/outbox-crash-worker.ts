/**
 * The process outbox-crash.test.ts kills with SIGKILL. Not a test itself: vitest runs `*.test.ts` only.
 *
 *   node --import tsx test/notifications/outbox-crash-worker.ts '<CrashWorkerOptions as JSON>'
 *
 * (the test starts it compiled by test/helpers/global-setup.ts). It opens the test's database (a SQLite
 * file, or the test's own PostgreSQL database), optionally commits notifications first (the
 * administrator's path), then runs an OutboxWorker whose sender appends each message's idempotency key
 * to `keysFile` (append + fsync, so that what was "delivered" survives the kill). After `stallAfter`
 * deliveries, the next send never returns. Progress goes to stdout one line at a time (`committed <n>`,
 * `stalled <key>`) for the parent to wait on.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { pino } from 'pino';
import { createDatabase } from '../../src/db/database.js';
import type { NotificationType } from '../../src/db/schema/index.js';
import { OutboxWorker } from '../../src/jobs/outbox.js';

export interface CrashWorkerOptions {
  /** SQLite: the database file. PostgreSQL: the test's own database. */
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
  /** The channels the worker has a sender for. */
  channels: string[];
  keysFile: string;
  /** Deliveries that complete before the send that never returns; null: none stalls. */
  stallAfter: number | null;
  /** Whether the stalled send reaches the receiver (its key is recorded) before it hangs: the ack is lost. */
  stalledSendArrives: boolean;
  leaseMs: number;
  batchSize: number;
  /** Writes one administrator notification to each user first, as POST /notifications does. */
  announce?: { userIds: number[]; type: NotificationType };
  /** After the notifications are committed, stop there: no worker runs at all. */
  stopAfterCommit?: boolean;
}

const options = JSON.parse(process.argv[2] ?? '') as CrashWorkerOptions;
const say = (line: string) => fs.writeSync(1, `${line}\n`);
const never = () => new Promise<never>(() => {});

const database = createDatabase(options.database);
const db = database.db;

if (options.announce) {
  // What POST /notifications does for one user (NotificationsService.create), without loading the whole
  // module (its HTML sanitizer weighs seconds on the start-up): the in-app row and the e-mail in the outbox,
  // in one transaction per notification.
  const { Notifier } = await import('../../src/modules/notifications/delivery/notifier.service.js');
  const notifier = new Notifier({ push: false });
  const { type } = options.announce;
  for (const userId of options.announce.userIds) {
    await db
      .transaction()
      .execute((trx) =>
        notifier.announce(trx, [
          { userId, type, source: `admin:${randomUUID()}`, text: { title: 'Crash test', message: `Hello ${userId}` }, data: {} },
        ]),
      );
  }
  say(`committed ${options.announce.userIds.length}`);
  if (options.stopAfterCommit) await never();
}

const keys = fs.openSync(options.keysFile, 'a');
const record = (key: string) => {
  fs.writeSync(keys, `${key}\n`);
  fs.fsyncSync(keys);
};
let delivered = 0;
const sender = async (_payload: unknown, message: { idempotency_key: string }): Promise<unknown> => {
  if (options.stallAfter !== null && delivered >= options.stallAfter) {
    if (options.stalledSendArrives) record(message.idempotency_key);
    say(`stalled ${message.idempotency_key}`);
    return never();
  }
  record(message.idempotency_key);
  delivered++;
  return {};
};
const worker = new OutboxWorker(db, Object.fromEntries(options.channels.map((channel) => [channel, sender])), pino({ level: 'silent' }), {
  leaseMs: options.leaseMs,
  batchSize: options.batchSize,
});
for (;;) {
  if ((await worker.runOnce()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
}
