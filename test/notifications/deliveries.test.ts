import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, OutboxRow, OutboxState } from '../../src/db/schema/index.js';
import { OutboxWorker } from '../../src/jobs/outbox.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { errorBody, pagination } from '../helpers/expectations.js';
import { newSignedInUser, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
const DELIVERY_FIELDS = ['attempts', 'available_at', 'channel', 'created_at', 'id', 'idempotency_key', 'last_error', 'sent_at', 'status'];
/** What a payload may hold and the list must never show (an e-mail with a reset link). */
const SECRET = 'reset-password?token=do-not-leak-0123456789';
const DAY = 86_400_000;

type Auth = Record<string, string>;

/** An outbox message stored directly in the given state; `pending` ones back off for a day (not due). */
async function newDelivery(db: Kysely<DB>, channel: string, status: OutboxState, overrides: Partial<OutboxRow> = {}): Promise<OutboxRow> {
  const now = Date.now();
  return db
    .insertInto('outbox')
    .values({
      channel,
      idempotency_key: unique(`${channel}:`),
      payload: JSON.stringify({ to: 'someone@example.test', text: `Reset: https://realty.test/${SECRET}` }),
      status,
      attempts: status === 'dead' ? 8 : status === 'sent' ? 1 : 2,
      available_at: new Date(status === 'pending' ? now + DAY : now).toISOString(),
      last_error: status === 'sent' ? null : 'SMTP 550 mailbox unavailable',
      created_at: new Date(now).toISOString(),
      sent_at: status === 'sent' ? new Date(now).toISOString() : null,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

describeEachDialect('the administrator’s outbox deliveries (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  let manager: Auth;
  let buyer: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    [{ auth: admin }, { auth: manager }, { auth: buyer }] = await Promise.all([
      newSignedInUser(t, { role: 'administrator' }),
      newSignedInUser(t, { role: 'manager' }),
      newSignedInUser(t, { role: 'buyer' }),
    ]);
  });
  afterAll(() => t.close());

  const list = (auth: Auth | undefined, query = '') =>
    t.app.inject({ method: 'GET', url: `${API}/notifications/deliveries${query}`, headers: auth ?? {} });
  const retry = (auth: Auth | undefined, id: number | string, options: { query?: string; payload?: object } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/notifications/deliveries/${id}/retry${options.query ?? ''}`,
      headers: auth ?? {},
      ...(options.payload ? { payload: options.payload } : {}),
    });
  const listed = async (query: string) => {
    const res = await list(admin, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { deliveries: Record<string, unknown>[]; pagination: unknown };
  };
  const rowOf = (id: number) => db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('answers 401 without a token and 403 to anyone but an administrator', async () => {
    const dead = await newDelivery(db, unique('auth-'), 'dead');
    expect((await list(undefined)).statusCode).toBe(401);
    expect((await retry(undefined, dead.id)).statusCode).toBe(401);
    for (const auth of [manager, buyer]) {
      const listing = await list(auth);
      expect(listing.statusCode).toBe(403);
      expect(listing.json()).toMatchObject(errorBody('forbidden'));
      expect((await retry(auth, dead.id)).statusCode).toBe(403);
    }
    expect((await rowOf(dead.id)).status).toBe('dead');
  });

  it('lists the dead messages by default, newest first, with their last error and never their payload', async () => {
    const channel = unique('mail-');
    const first = await newDelivery(db, channel, 'dead', { last_error: 'SMTP 550 no such user' });
    const second = await newDelivery(db, channel, 'dead', { last_error: 'connect ECONNREFUSED 127.0.0.1:25' });
    await newDelivery(db, channel, 'pending');
    await newDelivery(db, channel, 'sent');

    const res = await list(admin, `?channel=${channel}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain('payload');
    const { deliveries, pagination: pages } = res.json().data;
    expect(pages).toEqual(pagination(2, 1, 10));
    expect(deliveries.map((d: { id: number }) => d.id)).toEqual([second.id, first.id]);
    for (const delivery of deliveries) expect(Object.keys(delivery).sort()).toEqual(DELIVERY_FIELDS);
    expect(deliveries[0]).toEqual({
      id: second.id,
      channel,
      status: 'dead',
      attempts: 8,
      last_error: 'connect ECONNREFUSED 127.0.0.1:25',
      idempotency_key: second.idempotency_key,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      available_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      sent_at: null,
    });
    expect(deliveries[1]).toMatchObject({ id: first.id, last_error: 'SMTP 550 no such user' });

    // Without a channel: every channel's dead messages, ours among them, and nothing else.
    const all = await listed('?per_page=100');
    expect(all.deliveries.every((d) => d.status === 'dead')).toBe(true);
    expect(all.deliveries.map((d) => d.id)).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  it('filters by status and channel', async () => {
    const channel = unique('push-');
    const other = unique('push-');
    const dead = await newDelivery(db, channel, 'dead');
    const pending = await newDelivery(db, channel, 'pending');
    const sent = await newDelivery(db, channel, 'sent');
    await newDelivery(db, other, 'dead');

    const ids = async (query: string) => (await listed(query)).deliveries.map((d) => d.id);
    expect(await ids(`?status=dead&channel=${channel}`)).toEqual([dead.id]);
    expect(await ids(`?status=pending&channel=${channel}`)).toEqual([pending.id]);
    const sentPage = await listed(`?status=sent&channel=${channel}`);
    expect(sentPage.deliveries).toEqual([
      expect.objectContaining({ id: sent.id, status: 'sent', last_error: null, sent_at: expect.any(String) }),
    ]);
    const none = await listed(`?channel=${unique('none-')}`);
    expect(none).toEqual({ deliveries: [], pagination: pagination(0, 1, 10) });
  });

  it('pages like every list', async () => {
    const channel = unique('page-');
    const rows = [];
    for (let n = 0; n < 5; n++) rows.push(await newDelivery(db, channel, 'dead'));
    const newestFirst = rows.map((row) => row.id).reverse();
    const page2 = await listed(`?channel=${channel}&per_page=2&page=2`);
    expect(page2.deliveries.map((d) => d.id)).toEqual(newestFirst.slice(2, 4));
    expect(page2.pagination).toEqual(pagination(5, 2, 2));
    const aliased = await listed(`?channel=${channel}&per_page=2&paged=3`);
    expect(aliased.deliveries.map((d) => d.id)).toEqual(newestFirst.slice(4));
    const past = await listed(`?channel=${channel}&per_page=2&page=9`);
    expect(past).toEqual({ deliveries: [], pagination: pagination(5, 9, 2) });
    const tooMany = await list(admin, `?channel=${channel}&per_page=101`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject(errorBody('validation_failed'));
  });

  it('retries a dead message: pending, no attempts, due now; the worker then sends it', async () => {
    const channel = unique('retry-');
    const dead = await newDelivery(db, channel, 'dead', { available_at: new Date(Date.now() + DAY).toISOString() });
    const before = Date.now();

    const res = await retry(admin, dead.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(SECRET);
    const delivery = res.json().data;
    expect(delivery).toMatchObject({
      id: dead.id,
      channel,
      status: 'pending',
      attempts: 0,
      idempotency_key: dead.idempotency_key,
      sent_at: null,
    });
    expect(Object.keys(delivery).sort()).toEqual(DELIVERY_FIELDS);
    expect(Date.parse(delivery.available_at)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(delivery.available_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(await listed(`?channel=${channel}`)).toMatchObject({ deliveries: [] });
    expect((await listed(`?status=pending&channel=${channel}`)).deliveries.map((d) => d.id)).toEqual([dead.id]);

    const delivered: string[] = [];
    const worker = new OutboxWorker(db, { [channel]: async (_payload, row) => void delivered.push(row.idempotency_key) }, t.services.log);
    expect(await worker.runOnce()).toBe(1);
    expect(delivered).toEqual([dead.idempotency_key]);
    expect(await rowOf(dead.id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect((await listed(`?status=sent&channel=${channel}`)).deliveries).toEqual([
      expect.objectContaining({ id: dead.id, status: 'sent', sent_at: expect.any(String) }),
    ]);
  });

  it('refuses to retry a message that is not dead (409 invalid_transition) and an unknown one (404)', async () => {
    const channel = unique('state-');
    const sent = await newDelivery(db, channel, 'sent');
    const pending = await newDelivery(db, channel, 'pending');

    const again = await retry(admin, sent.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject(errorBody('invalid_transition'));
    expect(again.json().message).toContain('sent');
    const french = await retry(admin, sent.id, { query: '?lang=fr' });
    expect(french.statusCode).toBe(409);
    expect(french.json().message).toMatch(/^Ce message est à l’état sent/);
    expect((await retry(admin, pending.id)).statusCode).toBe(409);
    expect(await rowOf(sent.id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await rowOf(pending.id)).toMatchObject({ status: 'pending', attempts: 2 });

    const unknown = await retry(admin, 2_000_000_000);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject(errorBody('not_found'));

    // Two retries of one dead message: one moves it, the other finds it pending.
    const dead = await newDelivery(db, channel, 'dead');
    const codes = (await Promise.all([retry(admin, dead.id), retry(admin, dead.id)])).map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409]);
  });

  it('refuses unknown query parameters, bad values and body fields with 400', async () => {
    const dead = await newDelivery(db, unique('bad-'), 'dead');
    const bad = [
      await list(admin, '?foo=1'),
      await list(admin, '?status=failed'),
      await list(admin, `?channel=${'x'.repeat(65)}`),
      await list(admin, '?channel='),
      await list(admin, '?page=0'),
      await retry(admin, dead.id, { query: '?foo=1' }),
      await retry(admin, dead.id, { payload: { attempts: 0 } }),
      await retry(admin, 0),
      await retry(admin, 'abc'),
    ];
    for (const res of bad) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject(errorBody('validation_failed'));
    }
    expect((await rowOf(dead.id)).status).toBe('dead');
    // `lang` is accepted everywhere, and an empty body is the same as none.
    expect((await list(admin, '?lang=ar')).statusCode).toBe(200);
    expect((await retry(admin, dead.id, { payload: {} })).statusCode).toBe(200);
  });
});

// A database of its own, so that "every dead message" counts only this block's messages.
describeEachDialect('retrying every dead delivery at once (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  let manager: Auth;
  let buyer: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    [{ auth: admin }, { auth: manager }, { auth: buyer }] = await Promise.all([
      newSignedInUser(t, { role: 'administrator' }),
      newSignedInUser(t, { role: 'manager' }),
      newSignedInUser(t, { role: 'buyer' }),
    ]);
  });
  afterAll(() => t.close());

  const retryAll = (auth: Auth | undefined, options: { query?: string; payload?: unknown } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/notifications/deliveries/retry${options.query ?? ''}`,
      headers: auth ?? {},
      ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
    });
  const retried = async (payload?: object) => {
    const res = await retryAll(admin, payload ? { payload } : {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { retried: expect.any(Number) } });
    return res.json().data.retried as number;
  };
  const rowOf = (id: number) => db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const deadCount = async () =>
    Number(
      (
        await db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('status', '=', 'dead')
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers 401 without a token and 403 to a manager or a buyer, moving nothing', async () => {
    const dead = await newDelivery(db, unique('auth-all-'), 'dead');
    expect((await retryAll(undefined)).statusCode).toBe(401);
    for (const auth of [manager, buyer]) {
      const res = await retryAll(auth, { payload: { channel: dead.channel } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject(errorBody('forbidden'));
    }
    expect(await rowOf(dead.id)).toMatchObject({ status: 'dead', attempts: 8 });
  });

  it('refuses unknown fields, a bad channel and unknown query parameters with 400, moving nothing', async () => {
    const dead = await newDelivery(db, unique('bad-all-'), 'dead');
    const bad = [
      await retryAll(admin, { payload: { status: 'pending' } }),
      await retryAll(admin, { payload: { channel: dead.channel, ids: [dead.id] } }),
      await retryAll(admin, { payload: { channel: '' } }),
      await retryAll(admin, { payload: { channel: 'x'.repeat(65) } }),
      await retryAll(admin, { payload: { channel: 5 } }),
      await retryAll(admin, { payload: { channel: [dead.channel] } }),
      await retryAll(admin, { query: '?foo=1' }),
      await retryAll(admin, { query: `?channel=${dead.channel}` }),
    ];
    for (const res of bad) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject(errorBody('validation_failed'));
    }
    const unknownField = bad[0]!.json();
    expect(unknownField.errors).toEqual([expect.objectContaining({ field: expect.stringContaining('status') })]);
    expect(await rowOf(dead.id)).toMatchObject({ status: 'dead', attempts: 8 });
  });

  it('retries only the dead messages of the channel asked, as the single retry does, and counts them', async () => {
    const channel = unique('mail-all-');
    const other = unique('push-all-');
    const dead = [
      await newDelivery(db, channel, 'dead', { available_at: new Date(Date.now() + DAY).toISOString() }),
      await newDelivery(db, channel, 'dead'),
      await newDelivery(db, channel, 'dead'),
    ];
    const pending = await newDelivery(db, channel, 'pending');
    const sent = await newDelivery(db, channel, 'sent');
    const otherDead = await newDelivery(db, other, 'dead');
    const before = Date.now();

    expect(await retried({ channel })).toBe(3);
    for (const row of dead) {
      const now = await rowOf(row.id);
      expect(now).toMatchObject({ status: 'pending', attempts: 0, idempotency_key: row.idempotency_key, sent_at: null });
      expect(Date.parse(now.available_at)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(now.available_at)).toBeGreaterThanOrEqual(before - 1000);
    }
    // Not dead, or another channel's: as they were.
    expect(await rowOf(pending.id)).toEqual(pending);
    expect(await rowOf(sent.id)).toEqual(sent);
    expect(await rowOf(otherDead.id)).toEqual(otherDead);

    // Nothing of that channel is dead any more; the list agrees.
    expect(await retried({ channel })).toBe(0);
    const list = await t.app.inject({ method: 'GET', url: `${API}/notifications/deliveries?channel=${channel}`, headers: admin });
    expect(list.json().data.deliveries).toEqual([]);
    expect(await retried({ channel: unique('none-') })).toBe(0);

    // Two at once: each message moves once.
    const racing = unique('race-');
    for (let n = 0; n < 4; n++) await newDelivery(db, racing, 'dead');
    const answers = await Promise.all([
      retryAll(admin, { payload: { channel: racing } }),
      retryAll(admin, { payload: { channel: racing } }),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
    expect(answers.reduce((sum, res) => sum + (res.json().data.retried as number), 0)).toBe(4);
  });

  it('without a channel retries every dead message, with no body, `{}` or `lang` alike', async () => {
    const channels = [unique('a-'), unique('b-')];
    const dead = [await newDelivery(db, channels[0]!, 'dead'), await newDelivery(db, channels[1]!, 'dead')];
    const pending = await newDelivery(db, channels[0]!, 'pending');
    const total = await deadCount();
    expect(total).toBeGreaterThanOrEqual(2);

    const res = await retryAll(admin, { query: '?lang=ar' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ retried: total });
    expect(await deadCount()).toBe(0);
    for (const row of dead) expect(await rowOf(row.id)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await rowOf(pending.id)).toEqual(pending);

    expect(await retried({})).toBe(0);
    await newDelivery(db, channels[1]!, 'dead');
    expect(await retried()).toBe(1);
  });

  it('hands the retried messages to the worker, which sends them on its next run', async () => {
    const channel = unique('worker-all-');
    const dead = [];
    for (let n = 0; n < 3; n++)
      dead.push(await newDelivery(db, channel, 'dead', { available_at: new Date(Date.now() + DAY).toISOString() }));
    const stillDead = await newDelivery(db, unique('left-'), 'dead');
    expect(await retried({ channel })).toBe(3);

    const delivered: string[] = [];
    const worker = new OutboxWorker(db, { [channel]: async (_payload, row) => void delivered.push(row.idempotency_key) }, t.services.log, {
      batchSize: 100,
    });
    expect(await worker.runOnce()).toBe(3);
    expect(delivered.sort()).toEqual(dead.map((row) => row.idempotency_key).sort());
    for (const row of dead) expect(await rowOf(row.id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(await rowOf(stillDead.id)).toMatchObject({ status: 'dead', attempts: 8 });
  });
});
