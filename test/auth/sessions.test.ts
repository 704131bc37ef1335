import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema/index.js';
import { buildPeerApp, buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECTS, describeEachDialect } from '../helpers/database.js';
import { bearer, DEFAULT_PASSWORD, expiredAccessToken, newUser } from '../helpers/factories.js';
import { until } from '../helpers/until.js';

const TOKEN = '/realty-api/v1/auth/token';
const VALIDATE = '/realty-api/v1/auth/validate-token';
const LOGOUT = '/realty-api/v1/auth/logout';

interface TokenPair {
  token: string;
  refresh_token: string;
  expires_in: number;
  token_expires_at: string;
  user_id: number;
}

describeEachDialect('tokens, refresh rotation and logout (%s)', (dialect) => {
  let t: TestApp;
  let user: UserRow;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    user = await newUser(t.database.db, { role: 'seller' });
  });
  afterAll(() => t.close());

  async function passwordGrant(who: UserRow = user): Promise<TokenPair> {
    const res = await t.app.inject({
      method: 'POST',
      url: TOKEN,
      payload: { grant_type: 'password', username: who.username, password: DEFAULT_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as TokenPair;
  }

  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: TOKEN, payload: { grant_type: 'refresh_token', refresh_token: refreshToken } });
  const validate = (token: string) => t.app.inject({ method: 'POST', url: VALIDATE, headers: bearer(token) });

  describe('POST /auth/token', () => {
    it('password grant answers the token pair in the envelope', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: TOKEN,
        payload: { grant_type: 'password', username: user.email, password: DEFAULT_PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(Object.keys(body.data).sort()).toEqual(['expires_in', 'refresh_token', 'token', 'token_expires_at', 'user_id']);
      expect(body.data).toMatchObject({ user_id: user.id, expires_in: 3600 });
      expect((await validate(body.data.token)).statusCode).toBe(200);
    });

    it('password grant: wrong password 401, missing fields 400, unknown grant 400', async () => {
      const wrong = await t.app.inject({
        method: 'POST',
        url: TOKEN,
        payload: { grant_type: 'password', username: user.username, password: 'nope-nope' },
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().code).toBe('invalid_credentials');
      const missing = await t.app.inject({ method: 'POST', url: TOKEN, payload: { grant_type: 'password', username: user.username } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toEqual([{ field: 'password', message: 'is required' }]);
      const noRefresh = await t.app.inject({ method: 'POST', url: TOKEN, payload: { grant_type: 'refresh_token' } });
      expect(noRefresh.json().errors).toEqual([{ field: 'refresh_token', message: 'is required' }]);
      const grant = await t.app.inject({ method: 'POST', url: TOKEN, payload: { grant_type: 'client_credentials' } });
      expect(grant.statusCode).toBe(400);
      expect(grant.json().errors[0].field).toBe('grant_type');
    });

    it('refresh grant rotates: new tokens work, the used refresh token is spent', async () => {
      const first = await passwordGrant();
      const res = await refresh(first.refresh_token);
      expect(res.statusCode).toBe(200);
      const second = res.json().data as TokenPair;
      expect(second.user_id).toBe(user.id);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect((await validate(second.token)).statusCode).toBe(200);
      // Refresh tokens are stored hashed only.
      const stored = await t.database.db.selectFrom('sessions').select('refresh_token_hash').where('user_id', '=', user.id).execute();
      expect(stored.map((s) => s.refresh_token_hash)).not.toContain(second.refresh_token);
      // Chains keep working.
      const third = await refresh(second.refresh_token);
      expect(third.statusCode).toBe(200);
    });

    it('reusing a rotated refresh token revokes the whole session', async () => {
      const first = await passwordGrant();
      const second = (await refresh(first.refresh_token)).json().data as TokenPair;
      const replay = await refresh(first.refresh_token);
      expect(replay.statusCode).toBe(401);
      expect(replay.json().code).toBe('invalid_token');
      // The newest refresh token and every access token of that session are dead too.
      expect((await refresh(second.refresh_token)).statusCode).toBe(401);
      expect((await validate(second.token)).statusCode).toBe(401);
      expect((await validate(first.token)).statusCode).toBe(401);
      // Other sessions of the user are untouched.
      const other = await passwordGrant();
      expect((await validate(other.token)).statusCode).toBe(200);
    });

    it('two concurrent uses of one refresh token: one wins, and the session is then revoked', async () => {
      const first = await passwordGrant();
      const results = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token)]);
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 401]);
      const winner = results.find((r) => r.statusCode === 200)!.json().data as TokenPair;
      expect((await validate(winner.token)).statusCode).toBe(401);
    });

    it('refuses unknown, revoked-session and expired-session refresh tokens', async () => {
      expect((await refresh('not-a-real-refresh-token')).statusCode).toBe(401);
      const pair = await passwordGrant();
      await t.database.db
        .updateTable('sessions')
        .set({ expires_at: '2000-01-01T00:00:00.000Z' })
        .where('user_id', '=', user.id)
        .where('revoked_at', 'is', null)
        .execute();
      expect((await refresh(pair.refresh_token)).statusCode).toBe(401);
    });

    it('refuses a suspended account with 403', async () => {
      const suspended = await newUser(t.database.db);
      const pair = await passwordGrant(suspended);
      await t.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', suspended.id).execute();
      const res = await refresh(pair.refresh_token);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('account_suspended');
      const grant = await t.app.inject({
        method: 'POST',
        url: TOKEN,
        payload: { grant_type: 'password', username: suspended.username, password: DEFAULT_PASSWORD },
      });
      expect(grant.statusCode).toBe(403);
    });
  });

  describe('POST /auth/validate-token', () => {
    it('answers user_id, role and the expiry of the token', async () => {
      const pair = await passwordGrant();
      const res = await validate(pair.token);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ user_id: user.id, role: 'seller', token_expires_at: pair.token_expires_at });
    });

    it('answers 401 without, with a tampered and with an expired token', async () => {
      expect((await t.app.inject({ method: 'POST', url: VALIDATE })).json().code).toBe('unauthorized');
      const pair = await passwordGrant();
      const [header, payload] = pair.token.split('.');
      const forged = `${header}.${payload}.${Buffer.from('forged signature').toString('base64url')}`;
      expect((await validate(forged)).json().code).toBe('invalid_token');
      const sid = (await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).id;
      const expired = await expiredAccessToken(user.id, sid);
      const res = await validate(expired);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_expired');
    });
  });

  describe('POST /auth/logout', () => {
    it('ends the session at once: its access and refresh tokens fail, other sessions stay', async () => {
      const pair = await passwordGrant();
      const other = await passwordGrant();
      expect((await validate(pair.token)).statusCode).toBe(200); // warm any session cache
      const res = await t.app.inject({ method: 'POST', url: LOGOUT, headers: bearer(pair.token) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'You have been signed out.' });
      expect((await validate(pair.token)).statusCode).toBe(401);
      expect((await refresh(pair.refresh_token)).statusCode).toBe(401);
      expect((await validate(other.token)).statusCode).toBe(200);
    });

    it('also ends the session of a refresh token the caller names, if it is theirs', async () => {
      const pair = await passwordGrant();
      const mine = await passwordGrant();
      const stranger = await newUser(t.database.db);
      const theirs = await passwordGrant(stranger);
      const res = await t.app.inject({
        method: 'POST',
        url: LOGOUT,
        headers: bearer(pair.token),
        payload: { refresh_token: mine.refresh_token },
      });
      expect(res.statusCode).toBe(200);
      expect((await validate(mine.token)).statusCode).toBe(401);
      const ignored = await t.app.inject({
        method: 'POST',
        url: LOGOUT,
        headers: bearer(mine.token),
        payload: { refresh_token: theirs.refresh_token },
      });
      expect(ignored.statusCode).toBe(401); // mine is already dead
      const own = await passwordGrant();
      await t.app.inject({ method: 'POST', url: LOGOUT, headers: bearer(own.token), payload: { refresh_token: theirs.refresh_token } });
      expect((await validate(theirs.token)).statusCode).toBe(200);
    });

    it('validates its body and needs a token', async () => {
      const pair = await passwordGrant();
      const bad = await t.app.inject({ method: 'POST', url: LOGOUT, headers: bearer(pair.token), payload: { everything: true } });
      expect(bad.statusCode).toBe(400);
      expect((await t.app.inject({ method: 'POST', url: LOGOUT })).statusCode).toBe(401);
      const empty = await t.app.inject({ method: 'POST', url: LOGOUT, headers: bearer(pair.token), payload: {} });
      expect(empty.statusCode).toBe(200);
    });

    it('reaches another server process on the same database at once', async () => {
      const peer = await buildPeerApp(t);
      try {
        const pair = await passwordGrant();
        const onPeer = () => peer.app.inject({ method: 'POST', url: VALIDATE, headers: bearer(pair.token) });
        expect((await onPeer()).statusCode).toBe(200);
        expect((await onPeer()).statusCode).toBe(200); // served from the peer's cache where it has one
        await t.app.inject({ method: 'POST', url: LOGOUT, headers: bearer(pair.token) });
        expect((await onPeer()).statusCode).toBe(401);
      } finally {
        await peer.close();
      }
    });
  });
});

describe.runIf(process.env.REDIS_URL)('session revocation through Redis across processes', () => {
  let t: TestApp;
  let peer: Awaited<ReturnType<typeof buildPeerApp>>;
  let redisA: Redis;
  let redisB: Redis;

  beforeAll(async () => {
    redisA = new Redis(process.env.REDIS_URL as string);
    redisB = new Redis(process.env.REDIS_URL as string);
    t = await buildTestApp(DIALECTS.at(-1)!, {}, { redis: redisA });
    peer = await buildPeerApp(t, { redis: redisB });
    // Both revocation subscriptions are live once a published message reaches them.
    await until(async () => (await redisA.pubsub('NUMSUB', 'realty-api:sessions:revoked'))[1] === 2);
  });
  afterAll(async () => {
    await peer.close();
    await t.close();
    redisA.disconnect();
    redisB.disconnect();
  });

  it('serves cached sessions without the database and drops them when a revocation is announced', async () => {
    const user = await newUser(t.database.db);
    const login = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: TOKEN,
          payload: { grant_type: 'password', username: user.username, password: DEFAULT_PASSWORD },
        })
      ).json().data as TokenPair;
    const pair = await login();
    const onPeer = () => peer.app.inject({ method: 'POST', url: VALIDATE, headers: bearer(pair.token) });
    expect((await onPeer()).statusCode).toBe(200);

    // A revocation written behind the application's back is not seen: the peer trusts its cache.
    await t.database.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', user.id).execute();
    expect((await onPeer()).statusCode).toBe(200);

    // Any announced revocation empties every process's cache; the peer then reads the truth.
    const other = await login();
    await t.app.inject({ method: 'POST', url: LOGOUT, headers: bearer(other.token) });
    await until(async () => (await onPeer()).statusCode === 401);
    expect((await onPeer()).statusCode).toBe(401);
  });
});
