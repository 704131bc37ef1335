import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DB, NOTIFICATION_TYPES } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { errorBody, pagination } from '../helpers/expectations.js';
import { bearer, newUser, signIn, tokenFor } from '../helpers/factories.js';

const API = '/realty-api/v1';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
type Auth = { authorization: string };

describeEachDialect('notifications: routes (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    admin = bearer(await tokenFor(t.app, await newUser(db, { role: 'administrator' })));
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth?: Auth, payload?: unknown) =>
    t.app.inject({
      method,
      url: `${API}${url}`,
      ...(auth ? { headers: auth } : {}),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const send = async (userId: number, fields: Record<string, unknown> = {}) => {
    const res = await call('POST', '/notifications', admin, { title: 'Hello', message: 'World', user_id: userId, ...fields });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { created: number; queued: boolean };
  };
  const idsOf = (res: { json(): { data: { notifications: { id: number }[] } } }) => res.json().data.notifications.map((n) => n.id);

  it('answers 401 on every route without a token', async () => {
    for (const [method, url] of [
      ['GET', '/notifications'],
      ['POST', '/notifications'],
      ['GET', '/notifications/unread-count'],
      ['POST', '/notifications/1/read'],
      ['POST', '/notifications/mark-all-read'],
      ['DELETE', '/notifications/1'],
      ['GET', '/notifications/preferences'],
      ['PUT', '/notifications/preferences'],
      ['POST', '/notifications/register-device'],
      ['POST', '/notifications/unregister-device'],
    ] as const) {
      const res = await call(method, url, undefined, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual(errorBody('unauthorized'));
    }
  });

  it('lists the caller’s own notifications newest first with filters, paging and the total unread count', async () => {
    const user = await newUser(db);
    const other = await newUser(db);
    const auth = await signIn(t.app, user);
    const empty = await call('GET', '/notifications', auth);
    expect(empty.json()).toEqual({ success: true, data: { notifications: [], pagination: pagination(0, 1, 10), unread_count: 0 } });

    await send(user.id, { title: 'First', data: { property_id: 7 } });
    await send(user.id, { title: 'Second', type: 'payment_received' });
    await send(user.id, { title: 'Third' });
    await send(other.id, { title: 'Not yours' });

    const all = await call('GET', '/notifications', auth);
    expect(all.statusCode).toBe(200);
    const list = all.json().data;
    expect(list.notifications.map((n: { title: string }) => n.title)).toEqual(['Third', 'Second', 'First']);
    expect(list.notifications[2]).toEqual({
      id: expect.any(Number),
      type: 'system',
      title: 'First',
      message: 'World',
      data: { property_id: 7 },
      is_read: false,
      created_at: expect.stringMatching(TIMESTAMP),
    });
    expect(list.pagination).toEqual(pagination(3, 1, 10));
    expect(list.unread_count).toBe(3);

    const [third, , first] = list.notifications.map((n: { id: number }) => n.id);
    expect((await call('POST', `/notifications/${first}/read`, auth)).json()).toEqual({
      success: true,
      data: { id: first, is_read: true, unread_count: 2 },
    });
    // Idempotent.
    expect((await call('POST', `/notifications/${first}/read`, auth)).json().data.unread_count).toBe(2);

    expect(idsOf(await call('GET', '/notifications?status=read', auth))).toEqual([first]);
    const unread = await call('GET', '/notifications?status=unread&per_page=1', auth);
    expect(idsOf(unread)).toEqual([third]);
    expect(unread.json().data.pagination).toEqual(pagination(2, 1, 1));
    const typed = await call('GET', '/notifications?type=payment_received', auth);
    expect(typed.json().data.notifications.map((n: { title: string }) => n.title)).toEqual(['Second']);
    // unread_count is the caller's total whatever the filters.
    expect(typed.json().data.unread_count).toBe(2);
    const pastEnd = await call('GET', '/notifications?page=5&per_page=2', auth);
    expect(pastEnd.json().data).toEqual({ notifications: [], pagination: pagination(3, 5, 2), unread_count: 2 });

    expect((await call('GET', '/notifications/unread-count', auth)).json()).toEqual({ success: true, data: { unread_count: 2 } });
    expect((await call('POST', '/notifications/mark-all-read', auth)).json()).toEqual({
      success: true,
      data: { marked: 2, unread_count: 0 },
    });
    expect((await call('GET', '/notifications/unread-count', await signIn(t.app, other))).json().data.unread_count).toBe(1);

    const deleted = await call('DELETE', `/notifications/${third}`, auth);
    expect(deleted.json()).toEqual({ success: true, data: { id: third, deleted: true, unread_count: 0 } });
    expect(idsOf(await call('GET', '/notifications', auth))).not.toContain(third);
  });

  it('hides other users’ notifications: read and delete answer 404 and change nothing', async () => {
    const owner = await newUser(db);
    const intruder = await signIn(t.app, await newUser(db));
    await send(owner.id);
    const [id] = idsOf(await call('GET', '/notifications', await signIn(t.app, owner)));
    expect((await call('POST', `/notifications/${id}/read`, intruder)).json()).toEqual(errorBody('not_found'));
    expect((await call('DELETE', `/notifications/${id}`, intruder)).statusCode).toBe(404);
    expect((await call('POST', '/notifications/999999999/read', intruder)).statusCode).toBe(404);
    const row = await db.selectFrom('notifications').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
    expect(row.is_read).toBe(0);
  });

  it('validates parameters: unknown query fields, bad status and type, ids', async () => {
    const auth = await signIn(t.app, await newUser(db));
    for (const url of [
      '/notifications?status=new',
      '/notifications?type=nope',
      '/notifications?per_page=101',
      '/notifications?foo=1',
      '/notifications/unread-count?x=1',
    ]) {
      const res = await call('GET', url, auth);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ ...errorBody('validation_failed'), errors: expect.any(Array) });
    }
    expect((await call('POST', '/notifications/abc/read', auth)).statusCode).toBe(400);
    expect((await call('DELETE', '/notifications/0', auth)).statusCode).toBe(400);
  });

  it('lets only administrators create, with exactly one target and bounded fields', async () => {
    const user = await newUser(db);
    const manager = await signIn(t.app, await newUser(db, { role: 'manager' }));
    expect((await call('POST', '/notifications', manager, { title: 'x', message: 'y', user_id: user.id })).json()).toEqual(
      errorBody('forbidden'),
    );
    expect((await call('POST', '/notifications', await signIn(t.app, user), { title: 'x', message: 'y', all: true })).statusCode).toBe(403);

    const invalid = async (body: Record<string, unknown>, field: string) => {
      const res = await call('POST', '/notifications', admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    await invalid({ title: 'x', message: 'y' }, 'user_id');
    await invalid({ title: 'x', message: 'y', user_id: user.id, all: true }, 'user_id');
    await invalid({ title: 'x', message: 'y', user_id: user.id, role: 'buyer' }, 'user_id');
    await invalid({ title: 'x', message: 'y', all: false }, 'all');
    await invalid({ title: 'x', message: 'y', role: 'wizard' }, 'role');
    await invalid({ title: '', message: 'y', user_id: user.id }, 'title');
    await invalid({ title: '<b></b>', message: 'y', user_id: user.id }, 'title');
    await invalid({ title: 'x'.repeat(201), message: 'y', user_id: user.id }, 'title');
    await invalid({ title: 'x', message: 'y', user_id: user.id, type: 'spam' }, 'type');
    await invalid({ title: 'x', message: 'y', user_id: user.id, data: { big: 'x'.repeat(5000) } }, 'data');
    await invalid({ title: 'x', message: 'y', user_id: user.id, is_read: true }, 'is_read');
    expect((await call('POST', '/notifications', admin, { title: 'x', message: 'y', user_id: 999_999_999 })).json()).toEqual(
      errorBody('not_found'),
    );

    expect(await send(user.id, { title: '<script>alert(1)</script>Hi <b>there</b>', type: 'new_review' })).toEqual({
      created: 1,
      queued: false,
    });
    const row = await db.selectFrom('notifications').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    // Plain text, as every title (docs/api.md 12): tags go, their text stays, harmless.
    expect(row.title).toBe('alert(1)Hi there');
    expect(row.type).toBe('new_review');
  });

  it('queues a broadcast to a role and fans it out in the background, once per user', async () => {
    const role = 'owner' as const;
    const owners = [await newUser(db, { role }), await newUser(db, { role }), await newUser(db, { role })];
    const buyer = await newUser(db, { role: 'buyer' });
    const expected = Number(
      (
        await db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('role', '=', role)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const res = await call('POST', '/notifications', admin, { title: 'Maintenance', message: 'Tonight', role, data: { window: '22:00' } });
    expect(res.statusCode, res.body).toBe(201);
    const queued = res.json().data;
    expect(queued).toEqual({ created: expected, queued: true, broadcast_id: expect.any(Number) });
    // Nothing is written by the request itself.
    const source = `broadcast:${queued.broadcast_id}`;
    const written = () => db.selectFrom('notifications').select(['user_id', 'title', 'data']).where('source', '=', source).execute();
    expect(await written()).toEqual([]);

    expect(await t.services.broadcasts.fanOut()).toBeUndefined();
    const rows = await written();
    expect(rows).toHaveLength(expected);
    for (const owner of owners) expect(rows).toContainEqual({ user_id: owner.id, title: 'Maintenance', data: '{"window":"22:00"}' });
    expect(rows.map((r) => r.user_id)).not.toContain(buyer.id);
    const broadcast = await db.selectFrom('broadcasts').selectAll().where('id', '=', queued.broadcast_id).executeTakeFirstOrThrow();
    expect(broadcast.status).toBe('done');
    expect(broadcast.finished_at).not.toBeNull();
    // A second run (a crash and restart) adds nothing.
    await db.updateTable('broadcasts').set({ status: 'queued', last_user_id: 0 }).where('id', '=', queued.broadcast_id).execute();
    await t.services.broadcasts.fanOut();
    expect(await written()).toHaveLength(expected);
    // `system` broadcasts are not e-mailed by default.
    expect(await db.selectFrom('outbox').select('id').where('idempotency_key', 'like', `notification:%:${source}:email`).execute()).toEqual(
      [],
    );
  });

  it('broadcasts to everyone', async () => {
    const users = Number(
      (
        await db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const res = await call('POST', '/notifications', admin, { title: 'All', message: 'Everyone', all: true });
    const { broadcast_id: id, created } = res.json().data;
    expect(created).toBe(users);
    await t.services.broadcasts.fanOut();
    const count = await db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source', '=', `broadcast:${id}`)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(users);
  });

  it('answers every type’s preferences with defaults, and changes only the switches named', async () => {
    const user = await newUser(db);
    const auth = await signIn(t.app, user);
    const initial = (await call('GET', '/notifications/preferences', auth)).json().data.preferences;
    expect(Object.keys(initial).sort()).toEqual([...NOTIFICATION_TYPES].sort());
    expect(initial.new_review).toEqual({ in_app: true, email: true, push: true });
    expect(initial.system).toEqual({ in_app: true, email: false, push: true });

    const res = await call('PUT', '/notifications/preferences', auth, {
      preferences: { new_review: { email: false }, system: { in_app: false } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().data.preferences;
    expect(updated.new_review).toEqual({ in_app: true, email: false, push: true });
    expect(updated.system).toEqual({ in_app: false, email: false, push: true });
    expect(updated.new_lead).toEqual(initial.new_lead);
    // Another PUT keeps what the first one set.
    const again = (await call('PUT', '/notifications/preferences', auth, { preferences: { new_review: { push: false } } })).json().data
      .preferences;
    expect(again.new_review).toEqual({ in_app: true, email: false, push: false });

    // In-app off: the administrator's notification of that type is not written.
    expect(await send(user.id)).toEqual({ created: 0, queued: false });
    expect((await call('GET', '/notifications', auth)).json().data.notifications).toEqual([]);

    for (const body of [
      {},
      { preferences: {} },
      { preferences: { nope: { email: true } } },
      { preferences: { system: {} } },
      { preferences: { system: { sms: true } } },
      { preferences: { system: { email: 'yes' } } },
    ]) {
      expect((await call('PUT', '/notifications/preferences', auth, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('registers and unregisters push devices; a token follows the user who registered it last', async () => {
    const first = await newUser(db);
    const second = await newUser(db);
    const token = `fcm-${first.id}:APA91b_test-token`;
    const register = (auth: Auth, platform = 'android') => call('POST', '/notifications/register-device', auth, { platform, token });
    const firstAuth = await signIn(t.app, first);
    const secondAuth = await signIn(t.app, second);
    expect((await register(firstAuth)).json()).toEqual({ success: true, data: { platform: 'android', registered: true } });
    expect((await register(firstAuth)).statusCode).toBe(200);
    const owner = () => db.selectFrom('devices').select(['user_id', 'platform']).where('token', '=', token).execute();
    expect(await owner()).toEqual([{ user_id: first.id, platform: 'android' }]);
    await register(secondAuth, 'ios');
    expect(await owner()).toEqual([{ user_id: second.id, platform: 'ios' }]);

    // The former owner cannot remove it (and is not told whose it is).
    expect((await call('POST', '/notifications/unregister-device', firstAuth, { token })).json()).toEqual({
      success: true,
      data: { unregistered: true },
    });
    expect(await owner()).toHaveLength(1);
    await call('POST', '/notifications/unregister-device', secondAuth, { token });
    expect(await owner()).toEqual([]);

    for (const body of [
      { platform: 'windows', token },
      { platform: 'ios' },
      { platform: 'ios', token: '' },
      { platform: 'ios', token: 'has space' },
      { platform: 'ios', token: 'x'.repeat(4097) },
      { platform: 'ios', token, user_id: 1 },
    ]) {
      expect((await call('POST', '/notifications/register-device', firstAuth, body)).statusCode, JSON.stringify(body).slice(0, 80)).toBe(
        400,
      );
    }
  });

  it('queues no push messages while FCM is not configured, even for users with devices', async () => {
    const user = await newUser(db);
    await call('POST', '/notifications/register-device', await signIn(t.app, user), { platform: 'web', token: `web-${user.id}` });
    await send(user.id, { type: 'new_review' });
    const keys = await db.selectFrom('outbox').select(['channel']).where('idempotency_key', 'like', `notification:${user.id}:%`).execute();
    expect(keys).toEqual([{ channel: 'notification_email' }]);
  });
});
