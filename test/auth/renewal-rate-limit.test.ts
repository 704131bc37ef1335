import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { DEFAULT_PASSWORD, newUser, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
const TOKEN = `${API}/auth/token`;

/** A client address of its own per test, so counters never mix (nothing is sent to it: it is a key). */
const clientIp = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

// Renewing a session is not a sign-in attempt (issue 40): the console renews on every page load, and an office
// shares one address. Sessions have their own budget; refused refresh tokens still use the address's.
describeEachDialect('rate limits of session renewals (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { RATE_LIMIT_ENABLED: 'true', REFRESH_RATE_LIMIT_PER_MINUTE: '40' });
  });
  afterAll(() => t.close());

  const post = (remoteAddress: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: TOKEN, payload, remoteAddress, headers });

  async function signIn(remoteAddress: string): Promise<{ username: string; cookie: string }> {
    const user = await newUser(t.database.db);
    const res = await post(remoteAddress, {
      grant_type: 'password',
      username: user.username,
      password: DEFAULT_PASSWORD,
      session: 'cookie',
    });
    expect(res.statusCode).toBe(200);
    return { username: user.username, cookie: cookieOf(res.headers['set-cookie']) };
  }

  /** A page load of the console: the refresh cookie renewed, the rotated one kept for the next. */
  async function reload(remoteAddress: string, cookie: string): Promise<{ status: number; cookie: string }> {
    const res = await post(remoteAddress, { grant_type: 'refresh_token', session: 'cookie' }, { cookie });
    return { status: res.statusCode, cookie: res.statusCode === 200 ? cookieOf(res.headers['set-cookie']) : cookie };
  }

  it('keeps 30 reloads in a minute from one address signed in, while the 11th wrong password is still refused', async () => {
    const remoteAddress = clientIp();
    let { cookie } = await signIn(remoteAddress);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const next = await reload(remoteAddress, cookie);
      statuses.push(next.status);
      cookie = next.cookie;
    }
    expect(statuses).toEqual(Array(30).fill(200));
    // The password grant keeps the sign-in budget of the address: the sign-in above and nine failures fill it.
    const wrong = () => post(remoteAddress, { grant_type: 'password', username: unique('nobody_'), password: 'wrong-password' });
    const failures: number[] = [];
    for (let i = 0; i < 10; i++) failures.push((await wrong()).statusCode);
    expect(failures).toEqual([...Array(9).fill(401), 429]);
    const limited = await wrong();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    // …and the session renews on, from the same address.
    expect((await reload(remoteAddress, cookie)).status).toBe(200);
  });

  it('gives each session its own budget, whatever the address', async () => {
    let { cookie } = await signIn(clientIp());
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) {
      const next = await reload(clientIp(), cookie);
      statuses.push(next.status);
      cookie = next.cookie;
    }
    expect(statuses).toEqual([...Array(40).fill(200), 429]);
    const limited = await post(clientIp(), { grant_type: 'refresh_token', session: 'cookie' }, { cookie });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const other = await signIn(clientIp());
    expect((await reload(clientIp(), other.cookie)).status, 'another session is not held back').toBe(200);
  });

  it('limits guessed refresh tokens per address, and a copied token still revokes its session', async () => {
    const remoteAddress = clientIp();
    const guesses: number[] = [];
    for (let i = 0; i < 11; i++)
      guesses.push((await post(remoteAddress, { grant_type: 'refresh_token', refresh_token: `guess-${i}` })).statusCode);
    expect(guesses).toEqual([...Array(10).fill(401), 429]);
    // Another address may still be refused with a 401, and the copy of a rotated token ends its session.
    const thief = clientIp();
    const signedIn = await post(thief, {
      grant_type: 'password',
      username: (await newUser(t.database.db)).username,
      password: DEFAULT_PASSWORD,
    });
    const first = signedIn.json().data.refresh_token as string;
    const rotated = await post(thief, { grant_type: 'refresh_token', refresh_token: first });
    expect(rotated.statusCode).toBe(200);
    const copy = await post(thief, { grant_type: 'refresh_token', refresh_token: first });
    expect(copy.statusCode).toBe(401);
    expect(copy.json().code).toBe('invalid_token');
    const owner = await post(thief, { grant_type: 'refresh_token', refresh_token: rotated.json().data.refresh_token });
    expect(owner.statusCode, 'the session was revoked with the copy').toBe(401);
  });

  it('leaves a missing refresh cookie (a first visit) out of every budget', async () => {
    const remoteAddress = clientIp();
    for (let i = 0; i < 12; i++) {
      const res = await post(remoteAddress, { grant_type: 'refresh_token', session: 'cookie' });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
  });
});

function cookieOf(header: string | string[] | undefined): string {
  const line = Array.isArray(header) ? header[0] : header;
  if (!line) throw new Error('no Set-Cookie in the answer');
  return line.split(';')[0]!;
}
