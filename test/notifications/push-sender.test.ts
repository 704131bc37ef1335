import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { FcmClient } from '../../src/adapters/push/fcm.js';
import type { DevicePlatform } from '../../src/db/schema/index.js';
import { OutboxWorker } from '../../src/jobs/outbox.js';
import { enqueue } from '../../src/db/outbox.js';
import { pushSender } from '../../src/modules/notifications/delivery/push-sender.service.js';
import { type DeliveryPayload, PUSH_CHANNEL } from '../../src/modules/notifications/delivery/notifier.service.js';
import { deleteDeviceTokensOf } from '../../src/modules/notifications/delivery/devices.repository.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { type FakeFcm, startFakeFcm } from '../helpers/fake-fcm.js';
import { newUser, unique } from '../helpers/factories.js';

const HOUR = 3_600_000;

describeEachDialect('push notifications through the outbox (%s)', (dialect) => {
  let database: TestDatabase;
  let fcm: FakeFcm;

  beforeAll(async () => {
    [database, fcm] = await Promise.all([createTestDatabase(dialect), startFakeFcm()]);
  });
  afterAll(async () => {
    await fcm?.close();
    await database?.dispose();
  });
  beforeEach(() => fcm.reset());

  const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
  const worker = (maxAttempts = 3) =>
    new OutboxWorker(database.db, { [PUSH_CHANNEL]: pushSender(database.db, new FcmClient(fcm.config())) }, log, { maxAttempts });

  async function addDevice(userId: number, token = unique('fcm-token-'), platform: DevicePlatform = 'android'): Promise<string> {
    const at = new Date().toISOString();
    await database.db.insertInto('devices').values({ user_id: userId, platform, token, created_at: at, updated_at: at }).execute();
    return token;
  }

  async function enqueuePush(userId: number, overrides: Partial<DeliveryPayload> = {}): Promise<string> {
    const idempotencyKey = unique('push:');
    const payload: DeliveryPayload = {
      user_id: userId,
      type: 'property_approved',
      title: 'Listing approved',
      message: 'Your listing "Sea view" is live',
      data: { property_id: 42, slug: 'sea-view', tags: ['a'] },
      notification_id: 7,
      ...overrides,
    };
    await enqueue(database.db, { channel: PUSH_CHANNEL, idempotencyKey, payload });
    return idempotencyKey;
  }

  const rowOf = (key: string) => database.db.selectFrom('outbox').selectAll().where('idempotency_key', '=', key).executeTakeFirstOrThrow();
  const tokensOf = async (userId: number) =>
    (await database.db.selectFrom('devices').select('token').where('user_id', '=', userId).orderBy('id').execute()).map((r) => r.token);

  it('delivers to every device of the user, and keeps neither tokens nor text once sent', async () => {
    const user = await newUser(database.db);
    const other = await newUser(database.db);
    const phone = await addDevice(user.id, undefined, 'ios');
    const tablet = await addDevice(user.id);
    const stranger = await addDevice(other.id);
    const key = await enqueuePush(user.id);

    expect(await worker().runOnce()).toBe(1);
    expect(fcm.messages.map((m) => m.token).sort()).toEqual([phone, tablet].sort());
    expect(fcm.messages.map((m) => m.token)).not.toContain(stranger);
    for (const received of fcm.messages) {
      expect(received.notification).toEqual({ title: 'Listing approved', body: 'Your listing "Sea view" is live' });
      expect(received.data).toEqual({
        property_id: '42',
        slug: 'sea-view',
        tags: '["a"]',
        type: 'property_approved',
        notification_id: '7',
        idempotency_key: key,
      });
    }
    const row = await rowOf(key);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(JSON.parse(row.payload)).toEqual({ user_id: user.id, type: 'property_approved', devices: 2 });
    expect(row.payload).not.toContain(phone);
  });

  it('sends a notification without an id, and a user without devices is done at once', async () => {
    const user = await newUser(database.db);
    const device = await addDevice(user.id);
    const key = await enqueuePush(user.id, { notification_id: null, type: 'system', data: {} });
    const lonely = await newUser(database.db);
    const nobody = await enqueuePush(lonely.id);

    expect(await worker().runOnce()).toBe(2);
    expect(fcm.messages).toEqual([expect.objectContaining({ token: device, data: { type: 'system', idempotency_key: key } })]);
    expect(JSON.parse((await rowOf(nobody)).payload)).toEqual({ user_id: lonely.id, type: 'property_approved', devices: 0 });
  });

  it('removes the devices FCM calls unregistered and delivers to the rest', async () => {
    const user = await newUser(database.db);
    const gone = await addDevice(user.id);
    const invalid = await addDevice(user.id, undefined, 'web');
    const alive = await addDevice(user.id);
    fcm.unregister(gone);
    fcm.rejectAsInvalid(invalid);
    const key = await enqueuePush(user.id);

    expect(await worker().runOnce()).toBe(1);
    expect(fcm.messages.map((m) => m.token)).toEqual([alive]);
    expect(await tokensOf(user.id)).toEqual([alive]);
    expect(JSON.parse((await rowOf(key)).payload)).toMatchObject({ devices: 1 });
  });

  it('leaves an unregistered token alone once another user has registered it', async () => {
    const first = await newUser(database.db);
    const second = await newUser(database.db);
    const token = await addDevice(first.id);
    await database.db.updateTable('devices').set({ user_id: second.id }).where('token', '=', token).execute();
    expect(await deleteDeviceTokensOf(database.db, first.id, [token])).toBe(0);
    expect(await tokensOf(second.id)).toEqual([token]);
    expect(await deleteDeviceTokensOf(database.db, second.id, [token])).toBe(1);
  });

  it('retries a 503 after a back-off, then delivers with the same idempotency key', async () => {
    const user = await newUser(database.db);
    const devices = [await addDevice(user.id), await addDevice(user.id)];
    const key = await enqueuePush(user.id);
    fcm.failNext(1, 503);
    const push = worker();

    const now = Date.now();
    expect(await push.runOnce(new Date(now))).toBe(0);
    let row = await rowOf(key);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.last_error).toMatch(/^push to 1 of 2 devices failed: FCM send failed: HTTP 503 UNAVAILABLE/);
    for (const token of devices) expect(row.last_error).not.toContain(token);
    expect(Date.parse(row.available_at)).toBeGreaterThan(now + 25_000);
    const sentBefore = fcm.sendRequests();
    expect(await push.runOnce(new Date(now))).toBe(0); // not due yet
    expect(fcm.sendRequests()).toBe(sentBefore);

    expect(await push.runOnce(new Date(now + HOUR))).toBe(1);
    row = await rowOf(key);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(JSON.parse(row.payload)).toEqual({ user_id: user.id, type: 'property_approved', devices: 2 });
    // At least once: the device that got the first attempt gets it again, with the key that lets it drop the repeat.
    expect(new Set(fcm.messages.map((m) => m.token))).toEqual(new Set(devices));
    expect(fcm.messages.length).toBe(3);
    expect(new Set(fcm.messages.map((m) => m.data.idempotency_key))).toEqual(new Set([key]));
  });

  it('marks the message dead after the last attempt, keeping the devices', async () => {
    const user = await newUser(database.db);
    const device = await addDevice(user.id);
    const key = await enqueuePush(user.id);
    fcm.failNext(100, 503);
    const push = worker(2);

    const now = Date.now();
    await push.runOnce(new Date(now));
    expect(await rowOf(key)).toMatchObject({ status: 'pending', attempts: 1 });
    await push.runOnce(new Date(now + HOUR));
    const row = await rowOf(key);
    expect(row).toMatchObject({ status: 'dead', attempts: 2 });
    expect(row.last_error).toMatch(/HTTP 503/);
    const attempts = fcm.sendRequests();
    await push.runOnce(new Date(now + 10 * HOUR));
    expect(fcm.sendRequests()).toBe(attempts);
    expect(fcm.messages).toEqual([]);
    expect(await tokensOf(user.id)).toEqual([device]);
  });
});
