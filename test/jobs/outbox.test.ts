import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxRow } from '../../src/db/schema/index.js';
import { OutboxWorker } from '../../src/jobs/outbox.js';
import { enqueue } from '../../src/db/outbox.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newUser, unique } from '../helpers/factories.js';

const HOUR = 3_600_000;

describeEachDialect('outbox (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  const channel = () => unique('test-');
  const worker = (senders: Record<string, (payload: unknown, row: OutboxRow) => Promise<unknown>>, maxAttempts = 3) =>
    new OutboxWorker(t.database.db, senders, t.services.log, { leaseMs: 60_000, maxAttempts });
  const rowsOf = (name: string) => t.database.db.selectFrom('outbox').selectAll().where('channel', '=', name).orderBy('id').execute();

  it('stores a message once per idempotency key', async () => {
    const name = channel();
    await enqueue(t.database.db, { channel: name, idempotencyKey: `${name}:1`, payload: { n: 1 } });
    await enqueue(t.database.db, { channel: name, idempotencyKey: `${name}:1`, payload: { n: 2 } });
    const rows = await rowsOf(name);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.payload)).toEqual({ n: 1 });
  });

  it('sends due messages in order and keeps what the sender returns', async () => {
    const name = channel();
    for (const n of [1, 2, 3]) await enqueue(t.database.db, { channel: name, idempotencyKey: `${name}:${n}`, payload: { n } });
    const seen: unknown[] = [];
    const sent = await worker({ [name]: async (payload) => (seen.push(payload), { kept: true }) }).runOnce();
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const rows = await rowsOf(name);
    expect(rows.map((r) => [r.status, r.attempts, r.payload])).toEqual([
      ['sent', 1, '{"kept":true}'],
      ['sent', 1, '{"kept":true}'],
      ['sent', 1, '{"kept":true}'],
    ]);
  });

  it('retries a failed send after a back-off, then gives up as dead', async () => {
    const name = channel();
    await enqueue(t.database.db, { channel: name, idempotencyKey: `${name}:1`, payload: {} });
    let calls = 0;
    const failing = worker({ [name]: async () => (calls++, Promise.reject(new Error('SMTP 451 try later'))) }, 2);
    const now = Date.now();
    await failing.runOnce(new Date(now));
    let [row] = await rowsOf(name);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'SMTP 451 try later' });
    expect(Date.parse(row!.available_at)).toBeGreaterThan(now + 25_000);
    await failing.runOnce(new Date(now)); // not due yet
    expect(calls).toBe(1);
    await failing.runOnce(new Date(now + HOUR));
    [row] = await rowsOf(name);
    expect(row).toMatchObject({ status: 'dead', attempts: 2 });
    await failing.runOnce(new Date(now + 10 * HOUR));
    expect(calls).toBe(2);
  });

  it('loses nothing when a worker dies mid-send: the message comes back after its lease', async () => {
    const name = channel();
    await enqueue(t.database.db, { channel: name, idempotencyKey: `${name}:1`, payload: { hello: 'world' } });
    // The first worker claims the message and then never finishes (its process "died").
    let claimed!: () => void;
    const claimedPromise = new Promise<void>((resolve) => (claimed = resolve));
    void worker({ [name]: () => (claimed(), new Promise(() => {})) }).runOnce();
    await claimedPromise;
    const delivered: unknown[] = [];
    const survivor = worker({ [name]: async (payload) => delivered.push(payload) });
    await survivor.runOnce(); // still leased by the dead worker: not sent twice at once
    expect(delivered).toEqual([]);
    await survivor.runOnce(new Date(Date.now() + 61_000));
    expect(delivered).toEqual([{ hello: 'world' }]);
    const [row] = await rowsOf(name);
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('two workers running at once send each message once', async () => {
    const name = channel();
    for (let n = 0; n < 12; n++) await enqueue(t.database.db, { channel: name, idempotencyKey: `${name}:${n}`, payload: { n } });
    const delivered: number[] = [];
    const sender = { [name]: async (payload: unknown) => void delivered.push((payload as { n: number }).n) };
    await Promise.all([worker(sender).runOnce(), worker(sender).runOnce(), worker(sender).runOnce()]);
    expect(delivered.sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
  });
});

describe('e-mail over SMTP', () => {
  let smtp: SMTPServer;
  let t: TestApp;
  const received: { envelopeTo: string[]; raw: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await buildTestApp('sqlite', { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Realty <no-reply@realty.test>' });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends the reset mail through the SMTP server with its idempotency key', async () => {
    const user = await newUser(t.database.db);
    await t.app.inject({ method: 'POST', url: '/realty-api/v1/auth/reset-password', payload: { email: user.email } });
    expect(await t.services.outbox.runOnce()).toBe(1);
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.envelopeTo).toEqual([user.email]);
    expect(mail!.raw).toMatch(/^Subject: Reset your password/m);
    expect(mail!.raw).toMatch(/^From: Realty <no-reply@realty\.test>/m);
    expect(mail!.raw).toMatch(/^X-Idempotency-Key:\s+password-reset:[0-9a-f]{64}/m);
    // The body is quoted-printable: long lines break with a trailing `=`, and `=` itself is written `=3D`.
    const body = mail!.raw.replace(/=\r?\n/g, '').replaceAll('=3D', '=');
    expect(body).toContain('/reset-password?token=');
  });

  it('keeps the message for a retry when the SMTP server is unreachable', async () => {
    const down = await buildTestApp('sqlite', { SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const user = await newUser(down.database.db);
      await down.app.inject({ method: 'POST', url: '/realty-api/v1/auth/reset-password', payload: { email: user.email } });
      expect(await down.services.outbox.runOnce()).toBe(0);
      const row = await down.database.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.last_error).toMatch(/ECONNREFUSED/);
    } finally {
      await down.close();
    }
  });
});
