import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, createServices, type Services } from '../../src/app.js';
import type { Kysely } from 'kysely';
import type { DB, UserRow, NotificationRow } from '../../src/db/schema/index.js';
import { NotificationHub } from '../../src/modules/notifications/delivery/notification-hub.service.js';
import type { NotificationRecord } from '../../src/modules/notifications/notifications.schemas.js';
import { buildTestApp, TEST_JWT_SECRET, type TestApp, testConfig } from '../helpers/app.js';
import { createTestDatabase, DIALECTS, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { accessTokenExpiringIn, bearer, newSignedInUser, newUser, tokenFor } from '../helpers/factories.js';
import { until } from '../helpers/until.js';

const BASE = '/realty-api/v1/notifications';
const STREAM = `${BASE}/stream`;

interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** A Server-Sent Events reader over node:http (inject waits for the end of a response, which never comes). */
class SseClient {
  readonly events: SseEvent[] = [];
  body = '';
  ended = false;
  private buffer = '';

  private constructor(
    private readonly request: http.ClientRequest,
    readonly response: http.IncomingMessage,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.body += chunk;
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        this.events.push(parseBlock(this.buffer.slice(0, end)));
        this.buffer = this.buffer.slice(end + 2);
      }
    });
    response.on('end', () => (this.ended = true));
    response.on('close', () => (this.ended = true));
  }

  /** Without `agent`, a connection of its own that closes with the response (`Connection: close`). */
  static open(
    app: FastifyInstance,
    headers: Record<string, string> = {},
    path = STREAM,
    agent: http.Agent | false = false,
  ): Promise<SseClient> {
    const { port } = app.server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path, headers, agent }, (response) => resolve(new SseClient(request, response)));
      request.on('error', reject);
    });
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /** The notification events received so far. */
  notifications(): NotificationRecord[] {
    return this.events.filter((e) => e.event === 'notification').map((e) => JSON.parse(e.data!) as NotificationRecord);
  }

  /** Resolves once the stream is live: the `retry` field is written after the hub subscription. */
  async live(): Promise<this> {
    await until(() => this.events.some((e) => e.retry !== undefined));
    return this;
  }

  close(): void {
    this.request.destroy();
  }
}

function parseBlock(block: string): SseEvent {
  const event: SseEvent = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) event.comment = line.slice(1).trim();
    else {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon) as keyof SseEvent;
      event[field] = line.slice(colon + 1).replace(/^ /, '');
    }
  }
  return event;
}

/** The administrator's notification to one user, through the API; answers the new notification's id. */
async function notify(app: FastifyInstance, db: Kysely<DB>, adminToken: string, user: UserRow, title = 'Hello'): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: BASE,
    headers: bearer(adminToken),
    payload: { title, message: `${title}!`, user_id: user.id },
  });
  expect(res.statusCode).toBe(201);
  const newest = await db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', user.id)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return newest.id;
}

describeEachDialect('GET /notifications/stream (%s)', (dialect) => {
  let t: TestApp;
  let admin: UserRow;
  let adminToken: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    admin = await newUser(t.database.db, { role: 'administrator' });
    adminToken = await tokenFor(t.app, admin);
  });
  afterAll(() => t.close());

  const notifyUser = (user: UserRow, title?: string) => notify(t.app, t.database.db, adminToken, user, title);
  /**
   * One more notification to `user`, waited for on `stream`: a stream delivers in the order notifications were
   * made, so once it is there whatever was to come before it has come (no pause guessed long enough). Its id.
   */
  const marked = async (stream: { notifications(): { id: number }[] }, user: UserRow) => {
    const marker = await notifyUser(user, 'Marker');
    await until(() => stream.notifications().some((n) => n.id === marker));
    return marker;
  };

  it('answers 401 without a token, and 400 for a malformed Last-Event-ID', async () => {
    const anonymous = await SseClient.open(t.app);
    await until(() => anonymous.ended);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body).code).toBe('unauthorized');

    const { auth: headers } = await newSignedInUser(t);
    const badHeader = await t.app.inject({ url: STREAM, headers: { ...headers, 'last-event-id': 'abc' } });
    expect(badHeader.statusCode).toBe(400);
    expect(badHeader.json().errors[0].field).toBe('last-event-id');
    const badQuery = await t.app.inject({ url: `${STREAM}?last_event_id=-1`, headers });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().errors[0].field).toBe('last_event_id');
  });

  it('sends a new notification as an event whose id is the notification id, uncompressed, with the usual headers', async () => {
    const { user, auth: headers } = await newSignedInUser(t);
    const stream = await (
      await SseClient.open(t.app, { ...headers, 'accept-encoding': 'gzip, br', 'x-request-id': 'stream-test-1' })
    ).live();
    expect(stream.status).toBe(200);
    expect(stream.response.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-request-id': 'stream-test-1',
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': '*',
    });
    expect(stream.response.headers['content-encoding']).toBeUndefined();
    expect(stream.events[0]).toEqual({ retry: '5000' });

    const id = await notifyUser(user, 'Approved');
    await until(() => stream.notifications().length === 1);
    const event = stream.events.find((e) => e.event === 'notification');
    expect(event?.id).toBe(String(id));
    expect(stream.notifications()[0]).toMatchObject({
      id,
      type: 'system',
      title: 'Approved',
      message: 'Approved!',
      data: {},
      is_read: false,
    });
    // The record is the one GET /notifications answers.
    const listed = await t.app.inject({ url: BASE, headers });
    expect(stream.notifications()[0]).toEqual(listed.json().data.notifications[0]);
    stream.close();
  });

  it('does not send another user’s notifications', async () => {
    const { user, auth: headers } = await newSignedInUser(t);
    const other = await newUser(t.database.db);
    const stream = await (await SseClient.open(t.app, headers)).live();
    await notifyUser(other, 'Not yours');
    // 'Yours' comes after 'Not yours': once it is there, the other would have come before it.
    const mine = await notifyUser(user, 'Yours');
    await until(() => stream.notifications().some((n) => n.id === mine));
    expect(stream.notifications().map((n) => n.id)).toEqual([mine]);
    stream.close();
  });

  it('replays exactly the notifications after Last-Event-ID, oldest first, then the live ones', async () => {
    const { user, auth: headers } = await newSignedInUser(t);
    const [first, second, third] = [await notifyUser(user, 'One'), await notifyUser(user, 'Two'), await notifyUser(user, 'Three')];
    const stream = await (await SseClient.open(t.app, { ...headers, 'last-event-id': String(first) })).live();
    await until(() => stream.notifications().length === 2);
    const fourth = await notifyUser(user, 'Four');
    const marker = await marked(stream, user);
    expect(stream.notifications().map((n) => n.id)).toEqual([second, third, fourth, marker]);
    expect(stream.events.filter((e) => e.event === 'notification').map((e) => e.id)).toEqual([second, third, fourth, marker].map(String));
    stream.close();

    // The query parameter serves the first connection; the header wins when both are sent. A replay ends with
    // the newest notification (the marker): once it is there, the replay is whole.
    const byQuery = await (await SseClient.open(t.app, headers, `${STREAM}?last_event_id=${second}`)).live();
    await until(() => byQuery.notifications().some((n) => n.id === marker));
    expect(byQuery.notifications().map((n) => n.id)).toEqual([third, fourth, marker]);
    byQuery.close();
    const both = await (
      await SseClient.open(t.app, { ...headers, 'last-event-id': String(third) }, `${STREAM}?last_event_id=${first}`)
    ).live();
    await until(() => both.notifications().some((n) => n.id === marker));
    expect(both.notifications().map((n) => n.id)).toEqual([fourth, marker]);
    both.close();
  });

  it('pages through a long replay', async () => {
    const { user, auth: headers } = await newSignedInUser(t);
    const now = new Date().toISOString();
    const rows = Array.from({ length: 230 }, (_, i) => ({
      user_id: user.id,
      type: 'system' as const,
      title: `n${i}`,
      message: 'm',
      data: '{}',
      source: `test:${i}`,
      created_at: now,
    }));
    await t.database.db.insertInto('notifications').values(rows).execute();
    const ids = (await t.database.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).orderBy('id').execute()).map(
      (r) => r.id,
    );
    const stream = await (await SseClient.open(t.app, { ...headers, 'last-event-id': String(ids[4]) })).live();
    await until(() => stream.notifications().length === 225);
    const marker = await marked(stream, user);
    expect(stream.notifications().map((n) => n.id)).toEqual([...ids.slice(5), marker]);
    stream.close();
  });

  it('loses and repeats nothing created while the replay reads the database', async () => {
    const { user, auth: headers } = await newSignedInUser(t);
    const start = await notifyUser(user, 'Seen');
    const created: number[] = [];
    const notifications = t.services.notifications;
    const read = notifications.after.bind(notifications);
    // During the first read: one notification committed before the query (so in the replay and published
    // live), and one after it (published live only).
    const spy = vi.spyOn(notifications, 'after').mockImplementationOnce(async (userId, afterId, limit) => {
      created.push(await notifyUser(user, 'During'));
      const page = await read(userId, afterId, limit);
      created.push(await notifyUser(user, 'After the read'));
      return page;
    });
    try {
      const stream = await (await SseClient.open(t.app, { ...headers, 'last-event-id': String(start) })).live();
      await until(() => stream.notifications().length >= 2);
      const marker = await marked(stream, user);
      expect(stream.notifications().map((n) => n.id)).toEqual([...created, marker]);
      stream.close();
    } finally {
      spy.mockRestore();
    }
  });

  it('allows five open streams per user; the sixth is a 429 with Retry-After, and a closed one frees its place', async () => {
    const { user, auth: headers } = await newSignedInUser(t);
    const streams = await Promise.all(Array.from({ length: 5 }, async () => (await SseClient.open(t.app, headers)).live()));
    const sixth = await SseClient.open(t.app, headers);
    await until(() => sixth.ended);
    expect(sixth.status).toBe(429);
    expect(sixth.response.headers['retry-after']).toBe('30');
    expect(JSON.parse(sixth.body).code).toBe('rate_limited');
    // Another user is not affected.
    const other = await newSignedInUser(t);
    const theirs = await (await SseClient.open(t.app, other.auth)).live();
    expect(theirs.status).toBe(200);

    streams[0]!.close();
    await until(() => t.services.notificationHub.listenerCount(user.id) === 4);
    const again = await (await SseClient.open(t.app, headers)).live();
    expect(again.status).toBe(200);
    for (const stream of [...streams, theirs, again]) stream.close();
    await until(() => t.services.notificationHub.listenerCount(user.id) === 0);
    await until(() => t.services.notificationHub.listenerCount(other.user.id) === 0);
  });

  it('releases the place of a client that left while its token was checked', async () => {
    const { user, auth: headers } = await newSignedInUser(t);
    const auth = t.services.auth;
    const authenticate = auth.authenticate.bind(auth);
    // The token's check ends only once the server has seen the client's socket close.
    const closed = new Promise<void>((resolve) =>
      t.app.server.once('request', (_request: http.IncomingMessage, response: http.ServerResponse) => response.once('close', resolve)),
    );
    const checking = vi.spyOn(auth, 'authenticate').mockImplementationOnce(async (token) => {
      await closed;
      return authenticate(token);
    });
    const subscribing = vi.spyOn(t.services.notificationHub, 'subscribe');
    try {
      const { port } = t.app.server.address() as AddressInfo;
      const request = http.get({ host: '127.0.0.1', port, path: STREAM, headers, agent: false });
      request.on('error', () => {});
      await until(() => checking.mock.calls.length === 1);
      request.destroy();
      // The handler subscribes, then sees the client gone and lets go at once, in the same turn.
      await until(() => subscribing.mock.calls.length === 1);
      expect(t.services.notificationHub.listenerCount(user.id)).toBe(0);
    } finally {
      checking.mockRestore();
      subscribing.mockRestore();
    }
    const streams = await Promise.all(Array.from({ length: 5 }, async () => (await SseClient.open(t.app, headers)).live()));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    for (const stream of streams) stream.close();
  });

  describe('with a one-second heartbeat', () => {
    let h: TestApp;
    let closed = false;

    beforeAll(async () => {
      h = await buildTestApp(dialect, { NOTIFICATION_STREAM_HEARTBEAT_SECONDS: '1' });
      await h.app.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => {
      if (!closed) await h.close();
    });

    it('sends heartbeat comments while nothing happens', async () => {
      const user = await newUser(h.database.db);
      const stream = await (await SseClient.open(h.app, bearer(await tokenFor(h.app, user)))).live();
      await until(() => stream.events.filter((e) => e.comment === 'heartbeat').length >= 2, 3500);
      expect(stream.body).toContain(': heartbeat\n\n');
      stream.close();
    });

    it('ends a stream when the access token that opened it expires', async () => {
      const user = await newUser(h.database.db);
      await tokenFor(h.app, user);
      const sid = (await h.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).id;
      const stream = await (await SseClient.open(h.app, bearer(await accessTokenExpiringIn(user.id, sid, 2)))).live();
      expect(stream.status).toBe(200);
      await until(() => stream.ended, 4000);
      expect(h.services.notificationHub.listenerCount(user.id)).toBe(0);
    });

    it('ends every open stream when the app closes, without waiting for them', async () => {
      const user = await newUser(h.database.db);
      const headers = bearer(await tokenFor(h.app, user));
      // Keep-alive connections, as browsers hold them: ending the response alone would leave them open.
      const agent = new http.Agent({ keepAlive: true });
      const streams = await Promise.all([1, 2].map(async () => (await SseClient.open(h.app, headers, STREAM, agent)).live()));
      closed = true;
      // The streams would stay open as long as their tokens last: a close that waited for them never ends.
      let timer: NodeJS.Timeout | undefined;
      const stillWaiting = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('app.close() is still waiting for the open streams')), 10_000);
      });
      await Promise.race([h.close(), stillWaiting]).finally(() => clearTimeout(timer));
      await until(() => streams.every((s) => s.ended));
      expect(h.services.notificationHub.listenerCount()).toBe(0);
      agent.destroy();
    });
  });
});

describe('NotificationHub', () => {
  const row = (userId: number, id: number): NotificationRow => ({
    id,
    user_id: userId,
    type: 'system',
    title: 't',
    message: 'm',
    data: '{}',
    is_read: 0,
    source: `s${id}`,
    created_at: new Date().toISOString(),
  });
  const silentLog = () => ({ warn: vi.fn(), error: vi.fn(), info: vi.fn(), debug: vi.fn() }) as unknown as FastifyBaseLogger;

  it('delivers in this process to the listeners of the notification’s user, until they unsubscribe', () => {
    const hub = new NotificationHub(silentLog());
    const received: number[] = [];
    const unsubscribe = hub.subscribe(7, (n) => received.push(n.id));
    hub.subscribe(8, () => received.push(-1));
    hub.publish([row(7, 1)]);
    unsubscribe();
    hub.publish([row(7, 2)]);
    expect(received).toEqual([1]);
    expect(hub.listenerCount(7)).toBe(0);
    hub.close();
  });

  it('neither throws nor delivers when Redis is unreachable, and logs the failure', async () => {
    const log = silentLog();
    const redis = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    const hub = new NotificationHub(log, { redis, channel: `test:${randomBytes(4).toString('hex')}` });
    const received: number[] = [];
    hub.subscribe(7, (n) => received.push(n.id));
    expect(() => hub.publish([row(7, 1)])).not.toThrow();
    await until(() => vi.mocked(log.warn).mock.calls.length > 0);
    expect(received).toEqual([]);
    hub.close();
    redis.disconnect();
  });
});

describe.runIf(process.env.REDIS_URL)('GET /notifications/stream across processes through Redis', () => {
  // Names of this run's own in Redis: other test files publish on the default ones in parallel.
  const prefix = `realty-api:test:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const channel = `${prefix}notifications`;
  let database: TestDatabase;
  let a: Instance;
  let b: Instance;

  interface Instance {
    app: FastifyInstance;
    services: Services;
    redis: Redis;
    close(): Promise<void>;
  }

  /** A server process of its own (services, caches, Redis connection) on the shared database. */
  async function instance(): Promise<Instance> {
    const config = testConfig({ REDIS_KEY_PREFIX: prefix });
    const redis = new Redis(process.env.REDIS_URL as string);
    const deps = { config, database, jwtSecret: TEST_JWT_SECRET, redis };
    const services = createServices(deps);
    const app = await buildApp(deps, services);
    await app.listen({ host: '127.0.0.1', port: 0 });
    return {
      app,
      services,
      redis,
      close: async () => {
        await app.close();
        await services.shutdown();
        redis.disconnect();
      },
    };
  }

  beforeAll(async () => {
    database = await createTestDatabase(DIALECTS.at(-1)!);
    a = await instance();
    b = await instance();
    await until(async () => (await a.redis.pubsub('NUMSUB', channel))[1] === 2);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.dispose();
  });

  it('delivers a notification created on one instance to streams on both, exactly once', async () => {
    const admin = await newUser(database.db, { role: 'administrator' });
    const user = await newUser(database.db);
    const adminToken = await tokenFor(a.app, admin);
    const headers = bearer(await tokenFor(b.app, user));
    const onB = await (await SseClient.open(b.app, headers)).live();
    const onA = await (await SseClient.open(a.app, headers)).live();

    const res = await a.app.inject({
      method: 'POST',
      url: BASE,
      headers: bearer(adminToken),
      payload: { title: 'Across', message: 'processes', user_id: user.id },
    });
    expect(res.statusCode).toBe(201);
    const { id } = await database.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    // A second notification, waited for on both: a copy of the first would have come before it.
    const marker = await notify(a.app, database.db, adminToken, user, 'Marker');
    await until(() => [onA, onB].every((stream) => stream.notifications().some((n) => n.id === marker)));
    for (const stream of [onA, onB]) {
      expect(stream.notifications()).toEqual([
        expect.objectContaining({ id, title: 'Across', message: 'processes' }),
        expect.objectContaining({ id: marker, title: 'Marker' }),
      ]);
      expect(stream.notifications()[0]).not.toHaveProperty('user_id');
      stream.close();
    }
  });

  it('ends the streams of an instance whose subscription was interrupted, so that they resume from the database', async () => {
    const user = await newUser(database.db);
    const stream = await (await SseClient.open(b.app, bearer(await tokenFor(b.app, user)))).live();
    // NOTE: the hub's subscriber connection is private; dropping it simulates a Redis connection loss.
    (b.services.notificationHub as unknown as { subscriber: Redis }).subscriber.disconnect(true);
    await until(() => stream.ended, 5000);
    await until(async () => (await a.redis.pubsub('NUMSUB', channel))[1] === 2, 5000);
  });
});
