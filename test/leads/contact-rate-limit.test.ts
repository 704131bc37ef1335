import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildPeerApp, buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newUser } from '../helpers/factories.js';
import { aForm, newAgency, newAgent, newContactListing, postContact } from './lead-fixtures.js';

/** A client address of its own per test, so counters never mix (nothing is sent to it: it is a key). */
const clientIp = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

/** Contact routes of one listing, agent and agency with their recipients. */
async function contactPaths(db: Kysely<DB>): Promise<{ property: string; agent: string; agency: string }> {
  const author = await newUser(db, { role: 'seller' });
  const listing = await newContactListing(db, author.id);
  const agent = await newAgent(db, await newUser(db, { role: 'agent' }));
  const agency = await newAgency(db, await newUser(db, { role: 'agency' }));
  return { property: `/properties/${listing}/contact`, agent: `/agents/${agent}/contact`, agency: `/agencies/${agency}/contact` };
}

describeEachDialect('contact form rate limit (%s)', (dialect) => {
  let t: TestApp;
  let paths: Awaited<ReturnType<typeof contactPaths>>;

  beforeAll(async () => {
    // The general budget is set high so that only the contact forms' own budget (5 a minute) is met.
    t = await buildTestApp(dialect, { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '1000' });
    paths = await contactPaths(t.database.db);
  });
  afterAll(() => t.close());

  const leadCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers the 6th contact within a minute from one IP with 429 and Retry-After, storing nothing', async () => {
    const remoteAddress = clientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await postContact(t.app, paths.property, aForm(), {}, remoteAddress)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const before = await leadCount();
    const limited = await postContact(t.app, paths.property, aForm(), {}, remoteAddress);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ success: false, code: 'rate_limited', request_id: expect.any(String) });
    expect(await leadCount()).toBe(before);
    // Another client is unaffected.
    expect((await postContact(t.app, paths.property, aForm(), {}, clientIp())).statusCode).toBe(201);
  });

  it('gives each contact route its own bucket', async () => {
    const remoteAddress = clientIp();
    for (let i = 0; i < 5; i++) expect((await postContact(t.app, paths.agent, aForm(), {}, remoteAddress)).statusCode).toBe(201);
    expect((await postContact(t.app, paths.agent, aForm(), {}, remoteAddress)).statusCode).toBe(429);
    expect((await postContact(t.app, paths.agency, aForm(), {}, remoteAddress)).statusCode).toBe(201);
    expect((await postContact(t.app, paths.property, aForm(), {}, remoteAddress)).statusCode).toBe(201);
  });

  it('counts refused forms too, so that probing costs the same budget', async () => {
    const remoteAddress = clientIp();
    for (let i = 0; i < 5; i++) expect((await postContact(t.app, paths.agency, { name: 'x' }, {}, remoteAddress)).statusCode).toBe(400);
    expect((await postContact(t.app, paths.agency, aForm(), {}, remoteAddress)).statusCode).toBe(429);
  });
});

describe.skipIf(!process.env.REDIS_URL)('contact form rate limit shared through Redis', () => {
  let redisA: Redis;
  let redisB: Redis;
  let a: TestApp;
  let b: Awaited<ReturnType<typeof buildPeerApp>>;
  let paths: Awaited<ReturnType<typeof contactPaths>>;

  beforeAll(async () => {
    redisA = new Redis(process.env.REDIS_URL as string);
    redisB = new Redis(process.env.REDIS_URL as string);
    a = await buildTestApp('sqlite', { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '1000' }, { redis: redisA });
    b = await buildPeerApp(a, { redis: redisB });
    paths = await contactPaths(a.database.db);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    redisA.disconnect();
    redisB.disconnect();
  });

  it('counts one budget per route across two server processes', async () => {
    const remoteAddress = clientIp();
    const statuses: number[] = [];
    for (const app of [a.app, b.app, a.app, b.app, a.app, b.app])
      statuses.push((await postContact(app, paths.property, aForm(), {}, remoteAddress)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect((await postContact(b.app, paths.agent, aForm(), {}, remoteAddress)).statusCode).toBe(201);
  });
});
