import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
const LOGIN = `${API}/auth/login`;
// A fresh unknown name per attempt, so that the per-account lock (5 failures) stays out of these tests.
const badLogin = () => ({ username: unique('nobody_'), password: 'wrong-password' });

/** A client address of its own per test, so counters never mix (nothing is sent to it: it is a key). */
const clientIp = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

describe('rate limits in memory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => t.close());

  it('answers 429 rate_limited with Retry-After past the per-IP budget', async () => {
    const remoteAddress = clientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await t.app.inject({ method: 'GET', url: `${API}/property-types`, remoteAddress })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await t.app.inject({ method: 'GET', url: `${API}/property-types`, remoteAddress });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ success: false, code: 'rate_limited' });
    expect(limited.json().message).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
    // Another client is unaffected.
    expect((await t.app.inject({ method: 'GET', url: `${API}/property-types`, remoteAddress: clientIp() })).statusCode).toBe(200);
  });

  it('gives the login route its own budget of 10 per minute', async () => {
    const remoteAddress = clientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await t.app.inject({ method: 'POST', url: LOGIN, payload: badLogin(), remoteAddress })).statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    // The same client still has its general budget.
    expect((await t.app.inject({ method: 'GET', url: `${API}/property-types`, remoteAddress })).statusCode).toBe(200);
  });

  it('shares the bucket between a route and its language variant', async () => {
    const remoteAddress = clientIp();
    for (let i = 0; i < 10; i++)
      await t.app.inject({ method: 'POST', url: i % 2 ? LOGIN : `/ar${LOGIN}`, payload: badLogin(), remoteAddress });
    const res = await t.app.inject({ method: 'POST', url: `/fr${LOGIN}`, payload: badLogin(), remoteAddress });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Trop de requêtes/);
  });

  it('does not limit health checks', async () => {
    const remoteAddress = clientIp();
    for (let i = 0; i < 8; i++) expect((await t.app.inject({ method: 'GET', url: '/health', remoteAddress })).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const remoteAddress = clientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const headers = { 'x-forwarded-for': `203.0.113.${i}` };
      statuses.push((await t.app.inject({ method: 'GET', url: `${API}/property-status`, remoteAddress, headers })).statusCode);
    }
    expect(statuses[5]).toBe(429);
  });
});

describe('rate limits behind a trusted proxy', () => {
  it('counts per forwarded client address', async () => {
    const t = await buildTestApp('sqlite', { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: 'true' });
    const remoteAddress = '127.0.0.1';
    const get = (client: string) =>
      t.app.inject({ method: 'GET', url: `${API}/property-status`, remoteAddress, headers: { 'x-forwarded-for': client } });
    expect([(await get('203.0.113.1')).statusCode, (await get('203.0.113.1')).statusCode, (await get('203.0.113.1')).statusCode]).toEqual([
      200, 200, 429,
    ]);
    expect((await get('203.0.113.2')).statusCode).toBe(200);
    await t.close();
  });
});

describe('RATE_LIMIT_ENABLED=false', () => {
  it('turns the request limits off', async () => {
    const t = await buildTestApp('sqlite', { RATE_LIMIT_ENABLED: 'false', RATE_LIMIT_PER_MINUTE: '1' });
    const remoteAddress = clientIp();
    for (let i = 0; i < 15; i++) {
      expect((await t.app.inject({ method: 'POST', url: LOGIN, payload: badLogin(), remoteAddress })).statusCode).toBe(401);
    }
    await t.close();
  });
});

describe.skipIf(!process.env.REDIS_URL)('rate limits shared through Redis', () => {
  let redisA: Redis;
  let redisB: Redis;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    redisA = new Redis(process.env.REDIS_URL as string);
    redisB = new Redis(process.env.REDIS_URL as string);
    const env = { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '4' };
    a = await buildTestApp('sqlite', env, { redis: redisA });
    b = await buildTestApp('sqlite', env, { redis: redisB });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    redisA.disconnect();
    redisB.disconnect();
  });

  it('counts one budget across two server processes', async () => {
    const remoteAddress = clientIp();
    const url = `${API}/property-types`;
    const statuses = [];
    for (const app of [a.app, b.app, a.app, b.app, a.app])
      statuses.push((await app.inject({ method: 'GET', url, remoteAddress })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const limited = await b.app.inject({ method: 'GET', url, remoteAddress });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
