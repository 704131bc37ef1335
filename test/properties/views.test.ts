import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import { buildPeerApp, buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newListing, newUser, tokenFor } from '../helpers/factories.js';

const API = '/realty-api/v1';
const HOUR_MS = 3_600_000;

describeEachDialect('listing views (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    seller = await newUser(db, { role: 'seller' });
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const listing = (status: ListingState = 'publish') => newListing(db, { status, author_id: seller.id });
  /** GET /properties/{id} from a client address (loopback addresses only: nothing leaves app.inject). */
  const view = (id: number, { address = '127.0.0.2', auth = {} as Record<string, string> } = {}) =>
    t.app.inject({ method: 'GET', url: `${API}/properties/${id}`, remoteAddress: address, headers: auth });
  /** `views` as an anonymous client at `address` sees it. */
  const shownViews = async (id: number, address: string) => {
    const res = await view(id, { address });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.views as number;
  };
  const storedViews = async (id: number) =>
    (await db.selectFrom('listings').select('views').where('id', '=', id).executeTakeFirstOrThrow()).views;

  it('counts once per client and hour: anonymous clients by address, signed-in ones by user', async () => {
    const id = await listing();
    const [alice, bob] = [await newUser(db), await newUser(db)];
    const [aliceAuth, bobAuth] = [bearer(await tokenFor(t.app, alice)), bearer(await tokenFor(t.app, bob))];
    const visits = [
      { address: '127.0.0.2' },
      { address: '127.0.0.2' },
      { address: '127.0.0.3' },
      { address: '127.0.0.2', auth: aliceAuth },
      // The same user from another address is the same client.
      { address: '127.0.0.4', auth: aliceAuth },
      { address: '127.0.0.2', auth: bobAuth },
    ];
    for (const visit of visits) {
      const res = await view(id, visit);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.views).toBe(0);
    }

    // Nothing is written before the flush, and the cached record still says 0.
    expect(await storedViews(id)).toBe(0);
    expect(await shownViews(id, '127.0.0.2')).toBe(0);

    await t.services.views.flush();
    // 127.0.0.2 and 127.0.0.3 anonymously, Alice and Bob.
    expect(await storedViews(id)).toBe(4);
    // The write renewed the listing records' stamp: the next read is rebuilt, not the cached 0.
    expect(await shownViews(id, '127.0.0.2')).toBe(4);
    const signedIn = await view(id, { auth: aliceAuth });
    expect(signedIn.json().data.views).toBe(4);

    // Nothing new since: a second flush writes nothing.
    await t.services.views.flush();
    expect(await storedViews(id)).toBe(4);
  });

  it('counts the same client again after an hour', async () => {
    const id = await listing();
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    await view(id, { address: '127.0.0.5' });
    vi.setSystemTime(start + HOUR_MS - 1000);
    await view(id, { address: '127.0.0.5' });
    await t.services.views.flush();
    expect(await storedViews(id)).toBe(1);
    vi.setSystemTime(start + HOUR_MS);
    await view(id, { address: '127.0.0.5' });
    await t.services.views.flush();
    expect(await storedViews(id)).toBe(2);
  });

  it('counts each listing for itself', async () => {
    const [first, second] = [await listing(), await listing()];
    await view(first, { address: '127.0.0.6' });
    await view(second, { address: '127.0.0.6' });
    await view(second, { address: '127.0.0.7' });
    await t.services.views.flush();
    expect([await storedViews(first), await storedViews(second)]).toEqual([1, 2]);
  });

  it('does not count a request answered 404', async () => {
    const id = await listing('pending');
    const res = await view(id, { address: '127.0.0.8' });
    expect(res.statusCode).toBe(404);
    await t.services.views.flush();
    expect(await storedViews(id)).toBe(0);
    // Its owner's view counts.
    expect((await view(id, { auth: bearer(await tokenFor(t.app, seller)) })).statusCode).toBe(200);
    await t.services.views.flush();
    expect(await storedViews(id)).toBe(1);
  });
});

describe.skipIf(!process.env.REDIS_URL)('listing views shared through Redis', () => {
  let first: TestApp;
  let second: Awaited<ReturnType<typeof buildPeerApp>>;
  const clients: Redis[] = [];

  beforeAll(async () => {
    const redis = () => {
      const client = new Redis(process.env.REDIS_URL as string);
      clients.push(client);
      return client;
    };
    first = await buildTestApp('sqlite', {}, { redis: redis() });
    second = await buildPeerApp(first, { redis: redis() });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
    for (const client of clients) client.disconnect();
  });

  it('counts a client once per hour whichever process serves it', async () => {
    const seller = await newUser(first.database.db, { role: 'seller' });
    const id = await newListing(first.database.db, { author_id: seller.id });
    // A fresh address per run: the Redis keys outlive the test database.
    const address = `127.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}.9`;
    for (const app of [first.app, second.app, first.app, second.app]) {
      expect((await app.inject({ method: 'GET', url: `${API}/properties/${id}`, remoteAddress: address })).statusCode).toBe(200);
    }
    await first.services.views.flush();
    await second.services.views.flush();
    const row = await first.database.db.selectFrom('listings').select('views').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.views).toBe(1);
  });
});
