import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookieHeader, cookieValueOf, setCookieFor, setCookieHeaders } from '../helpers/cookies.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, DEFAULT_PASSWORD, newUser, unique } from '../helpers/factories.js';
import { type FakeGoogle, startFakeGoogle } from '../helpers/fake-providers.js';

const API = '/realty-api/v1';
const LOGIN = `${API}/auth/login`;
const REGISTER = `${API}/auth/register`;
const TOKEN = `${API}/auth/token`;
const VALIDATE = `${API}/auth/validate-token`;
const LOGOUT = `${API}/auth/logout`;
const GOOGLE_LOGIN = `${API}/social/google/login`;

const COOKIE = 'realty_refresh';
const THIRTY_DAYS = 30 * 86_400;
/** The attributes of the refresh cookie with the default configuration (http PUBLIC_URL, no API_PREFIX). */
const ATTRIBUTES = `Path=${TOKEN}; Max-Age=${THIRTY_DAYS}; HttpOnly; SameSite=Strict`;
const CLEARING = `${COOKIE}=; Path=${TOKEN}; Max-Age=0; HttpOnly; SameSite=Strict`;
/** What our refresh tokens look like: 32 random bytes in base64url. */
const REFRESH_TOKEN = /^[A-Za-z0-9_-]{43}$/;

interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  json(): { data: Record<string, unknown>; code?: string };
}

describeEachDialect('cookie mode of the token routes (%s)', (dialect) => {
  let t: TestApp;
  let google: FakeGoogle;
  let user: UserRow;

  beforeAll(async () => {
    google = await startFakeGoogle();
    t = await buildTestApp(dialect, { GOOGLE_CLIENT_IDS: google.clientId, GOOGLE_JWKS_URL: google.jwksUrl });
    user = await newUser(t.database.db, { role: 'seller' });
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers }) as Promise<Answer>;
  const validate = (token: string) => t.app.inject({ method: 'POST', url: VALIDATE, headers: bearer(token) });
  const refreshWithCookie = (value: string) => post(TOKEN, { grant_type: 'refresh_token', session: 'cookie' }, cookieHeader(COOKIE, value));

  /** The refresh cookie an answer sets, checked to the letter; its value. */
  function refreshCookieOf(res: Answer): string {
    const setCookie = setCookieFor(res, COOKIE);
    expect(setCookie).toBeDefined();
    const value = cookieValueOf(setCookie!);
    expect(value).toMatch(REFRESH_TOKEN);
    expect(setCookie).toBe(`${COOKIE}=${value}; ${ATTRIBUTES}`);
    expect(setCookieHeaders(res)).toHaveLength(1);
    expect(res.headers['cache-control']).toBe('no-store');
    return value;
  }

  /** A cookie-mode sign-in of `who`: the access token and the cookie's value. */
  async function cookieLogin(who: UserRow = user): Promise<{ token: string; cookie: string }> {
    const res = await post(LOGIN, { username: who.username, password: DEFAULT_PASSWORD, session: 'cookie' });
    expect(res.statusCode).toBe(200);
    return { token: res.json().data.token as string, cookie: refreshCookieOf(res) };
  }

  describe('signing in', () => {
    it('login sets the refresh cookie with its exact attributes and leaves refresh_token out of the answer', async () => {
      const res = await post(LOGIN, { username: user.username, password: DEFAULT_PASSWORD, session: 'cookie' });
      expect(res.statusCode).toBe(200);
      const cookie = refreshCookieOf(res);
      const { data } = res.json();
      expect(data).not.toHaveProperty('refresh_token');
      expect(JSON.stringify(res.json())).not.toContain(cookie);
      expect(data).toMatchObject({ user_id: user.id, username: user.username, expires_in: 3600 });
      expect((await validate(data.token as string)).statusCode).toBe(200);
      // The cookie is the session's refresh token.
      expect((await refreshWithCookie(cookie)).statusCode).toBe(200);
    });

    it('the password grant of /auth/token does the same', async () => {
      const res = await post(TOKEN, { grant_type: 'password', username: user.email, password: DEFAULT_PASSWORD, session: 'cookie' });
      expect(res.statusCode).toBe(200);
      refreshCookieOf(res);
      expect(Object.keys(res.json().data).sort()).toEqual(['expires_in', 'token', 'token_expires_at', 'user_id']);
    });

    it('registration does the same', async () => {
      const username = unique('cookie_');
      const res = await post(REGISTER, { username, email: `${username}@example.test`, password: DEFAULT_PASSWORD, session: 'cookie' });
      expect(res.statusCode).toBe(201);
      const cookie = refreshCookieOf(res);
      expect(res.json().data).not.toHaveProperty('refresh_token');
      expect((await refreshWithCookie(cookie)).statusCode).toBe(200);
    });

    it('a social sign-in does the same', async () => {
      const idToken = await google.signIdToken({ claims: { sub: unique('sub-'), email: `${unique('g_')}@gmail.test` } });
      const res = await post(GOOGLE_LOGIN, { id_token: idToken, session: 'cookie' });
      expect(res.statusCode).toBe(200);
      const cookie = refreshCookieOf(res);
      expect(res.json().data).not.toHaveProperty('refresh_token');
      expect(res.json().data.social_provider).toBe('google');
      expect((await refreshWithCookie(cookie)).statusCode).toBe(200);
    });

    it('body mode is unchanged: no cookie, refresh_token in the answer, whether session is left out or "body"', async () => {
      const username = unique('body_');
      const idToken = await google.signIdToken({ claims: { sub: unique('sub-'), email: `${unique('g_')}@gmail.test` } });
      const answers = await Promise.all([
        post(LOGIN, { username: user.username, password: DEFAULT_PASSWORD }),
        post(LOGIN, { username: user.username, password: DEFAULT_PASSWORD, session: 'body' }),
        post(TOKEN, { grant_type: 'password', username: user.username, password: DEFAULT_PASSWORD }),
        post(REGISTER, { username, email: `${username}@example.test`, password: DEFAULT_PASSWORD }),
        post(GOOGLE_LOGIN, { id_token: idToken }),
      ]);
      for (const res of answers) {
        expect(res.statusCode).toBeLessThan(300);
        expect(res.headers['set-cookie']).toBeUndefined();
        expect(res.json().data.refresh_token).toMatch(REFRESH_TOKEN);
      }
      const rotated = await post(TOKEN, { grant_type: 'refresh_token', refresh_token: answers[2]!.json().data.refresh_token as string });
      expect(rotated.statusCode).toBe(200);
      expect(rotated.headers['set-cookie']).toBeUndefined();
      expect(rotated.json().data.refresh_token).toMatch(REFRESH_TOKEN);
    });

    it('refuses an unknown session mode', async () => {
      const res = await post(LOGIN, { username: user.username, password: DEFAULT_PASSWORD, session: 'header' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'session' }] });
      expect(res.headers['set-cookie']).toBeUndefined();
    });
  });

  describe('refreshing from the cookie', () => {
    it('rotates: a new cookie, a working access token, and the chain goes on', async () => {
      const first = await cookieLogin();
      const res = await refreshWithCookie(first.cookie);
      expect(res.statusCode).toBe(200);
      const second = refreshCookieOf(res);
      expect(second).not.toBe(first.cookie);
      const { data } = res.json();
      expect(Object.keys(data).sort()).toEqual(['expires_in', 'token', 'token_expires_at', 'user_id']);
      expect(data.user_id).toBe(user.id);
      expect((await validate(data.token as string)).statusCode).toBe(200);
      const third = await refreshWithCookie(second);
      expect(third.statusCode).toBe(200);
      expect(refreshCookieOf(third)).not.toBe(second);
    });

    it('reusing an old cookie value revokes the whole session', async () => {
      const first = await cookieLogin();
      const rotated = await refreshWithCookie(first.cookie);
      const newest = { token: rotated.json().data.token as string, cookie: refreshCookieOf(rotated) };
      const replay = await refreshWithCookie(first.cookie);
      expect(replay.statusCode).toBe(401);
      expect(replay.json().code).toBe('invalid_token');
      expect(replay.headers['set-cookie']).toBeUndefined();
      // The newest cookie and every access token of the session are dead too.
      expect((await refreshWithCookie(newest.cookie)).statusCode).toBe(401);
      expect((await validate(newest.token)).statusCode).toBe(401);
      expect((await validate(first.token)).statusCode).toBe(401);
      // Other sessions are untouched.
      const other = await cookieLogin();
      expect((await validate(other.token)).statusCode).toBe(200);
    });

    it('without the cookie is a 401, as a missing token is', async () => {
      const without: Record<string, string>[] = [{}, { cookie: 'theme=dark; lang=fr' }, { cookie: '' }];
      for (const headers of without) {
        const res = await post(TOKEN, { grant_type: 'refresh_token', session: 'cookie' }, headers);
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('unauthorized');
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('refuses garbage, oversized, repeated and unknown cookie values cleanly, and spends nothing', async () => {
      const session = await cookieLogin();
      for (const cookie of [
        `${COOKIE}=`,
        `${COOKIE}=""`,
        `${COOKIE}="${session.cookie}`,
        `${COOKIE}=not a token`,
        `${COOKIE}=${session.cookie},x`,
        `${COOKIE}=${session.cookie}\\`,
        `${COOKIE}=\u00e9t\u00e9`,
        `${COOKIE}=${'A'.repeat(201)}`,
        `${COOKIE}=${'A'.repeat(8000)}`,
        `${COOKIE}=${session.cookie}; ${COOKIE}=${session.cookie}`,
        `${COOKIE}=not-a-real-refresh-token`,
        `${COOKIE}=${'A'.repeat(43)}`,
        `${COOKIE}=%00`,
      ]) {
        const res = await post(TOKEN, { grant_type: 'refresh_token', session: 'cookie' }, { cookie });
        expect(res.statusCode, cookie).toBe(401);
        expect(res.json(), cookie).toMatchObject({ success: false, code: 'invalid_token' });
        expect(res.headers['set-cookie'], cookie).toBeUndefined();
      }
      // Nothing above touched the session: its cookie still rotates.
      expect((await refreshWithCookie(session.cookie)).statusCode).toBe(200);
    });

    it('ignores other cookies around it and takes a quoted value', async () => {
      const session = await cookieLogin();
      const res = await post(
        TOKEN,
        { grant_type: 'refresh_token', session: 'cookie' },
        { cookie: `theme=dark;  ${COOKIE}="${session.cookie}" ;lang=fr; broken` },
      );
      expect(res.statusCode).toBe(200);
      refreshCookieOf(res);
    });

    it('takes a refresh_token named in the body over the cookie, and answers it in the cookie', async () => {
      const inBody = await post(TOKEN, { grant_type: 'password', username: user.username, password: DEFAULT_PASSWORD });
      const res = await post(
        TOKEN,
        { grant_type: 'refresh_token', session: 'cookie', refresh_token: inBody.json().data.refresh_token as string },
        cookieHeader(COOKIE, 'not-a-real-refresh-token'),
      );
      expect(res.statusCode).toBe(200);
      refreshCookieOf(res);
      expect(res.json().data).not.toHaveProperty('refresh_token');
    });

    it('body mode never reads the cookie: no refresh_token is a 400 as before, and the cookie stays unspent', async () => {
      const session = await cookieLogin();
      for (const payload of [{ grant_type: 'refresh_token' }, { grant_type: 'refresh_token', session: 'body' }]) {
        const res = await post(TOKEN, payload, cookieHeader(COOKIE, session.cookie));
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'refresh_token', message: 'is required' }] });
        expect(JSON.stringify(res.json())).not.toContain(session.cookie);
      }
      expect((await refreshWithCookie(session.cookie)).statusCode).toBe(200);
    });

    it('takes JSON bodies only: what a cross-site form can send is a 415 that sets no cookie and spends nothing', async () => {
      const session = await cookieLogin();
      for (const [type, payload] of [
        ['application/x-www-form-urlencoded', 'grant_type=refresh_token&session=cookie'],
        ['text/plain', '{"grant_type":"refresh_token","session":"cookie"}'],
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nrefresh_token\r\n--x--\r\n'],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: TOKEN,
          headers: { 'content-type': type, ...cookieHeader(COOKIE, session.cookie) },
          payload,
        });
        expect(res.statusCode, type).toBe(415);
        expect(res.headers['set-cookie'], type).toBeUndefined();
      }
      expect((await refreshWithCookie(session.cookie)).statusCode).toBe(200);
    });
  });

  describe('logout', () => {
    it('deletes the cookie and ends the session: the access token and the cookie stop working', async () => {
      const session = await cookieLogin();
      const other = await cookieLogin();
      expect((await validate(session.token)).statusCode).toBe(200); // warm any session cache
      const res = await t.app.inject({ method: 'POST', url: LOGOUT, headers: bearer(session.token), payload: { session: 'cookie' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'You have been signed out.' });
      expect(setCookieHeaders(res)).toEqual([CLEARING]);
      expect((await validate(session.token)).statusCode).toBe(401);
      expect((await refreshWithCookie(session.cookie)).statusCode).toBe(401);
      expect((await validate(other.token)).statusCode).toBe(200);
      expect((await refreshWithCookie(other.cookie)).statusCode).toBe(200);
    });

    it('in body mode answers as before, with no Set-Cookie', async () => {
      for (const payload of [undefined, {}, { session: 'body' }]) {
        const session = await cookieLogin();
        const res = await t.app.inject({ method: 'POST', url: LOGOUT, headers: bearer(session.token), ...(payload ? { payload } : {}) });
        expect(res.statusCode).toBe(200);
        expect(res.headers['set-cookie']).toBeUndefined();
        expect((await validate(session.token)).statusCode).toBe(401);
        expect((await refreshWithCookie(session.cookie)).statusCode).toBe(401);
      }
    });

    it('still needs the bearer token: the cookie alone is not enough', async () => {
      const session = await cookieLogin();
      const res = await t.app.inject({
        method: 'POST',
        url: LOGOUT,
        headers: cookieHeader(COOKIE, session.cookie),
        payload: { session: 'cookie' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
      expect(res.headers['set-cookie']).toBeUndefined();
    });
  });

  it('the cookie is no credential on any other route', async () => {
    const session = await cookieLogin();
    const withCookie = cookieHeader(COOKIE, session.cookie);
    const validated = await t.app.inject({ method: 'POST', url: VALIDATE, headers: withCookie });
    expect(validated.statusCode).toBe(401);
    expect(validated.json().code).toBe('unauthorized');
    const me = await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: withCookie });
    expect(me.statusCode).toBe(401);
    // Nor is its value a bearer token.
    const asBearer = await t.app.inject({ method: 'POST', url: VALIDATE, headers: bearer(session.cookie) });
    expect(asBearer.statusCode).toBe(401);
    expect(asBearer.json().code).toBe('invalid_token');
    // A public route with the cookie answers as to anyone.
    const anonymous = await t.app.inject({ method: 'GET', url: `${API}/property-types`, headers: withCookie });
    expect(anonymous.statusCode).toBe(200);
    expect((await refreshWithCookie(session.cookie)).statusCode).toBe(200);
  });
});

describeEachDialect('cookie mode behind https and API_PREFIX (%s)', (dialect) => {
  const PREFIXED = `/wp-json${API}`;
  let t: TestApp;
  let user: UserRow;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL: 'https://realty.example.test', API_PREFIX: '/wp-json' });
    user = await newUser(t.database.db);
  });
  afterAll(() => t.close());

  it('scopes the cookie to the prefixed token route, marks it Secure, and clears it the same way', async () => {
    const path = `${PREFIXED}/auth/token`;
    const login = await t.app.inject({
      method: 'POST',
      url: `${PREFIXED}/auth/login`,
      payload: { username: user.username, password: DEFAULT_PASSWORD, session: 'cookie' },
    });
    expect(login.statusCode).toBe(200);
    const setCookie = setCookieFor(login, COOKIE)!;
    const value = cookieValueOf(setCookie);
    expect(setCookie).toBe(`${COOKIE}=${value}; Path=${path}; Max-Age=${THIRTY_DAYS}; HttpOnly; Secure; SameSite=Strict`);

    const refreshed = await t.app.inject({
      method: 'POST',
      url: path,
      payload: { grant_type: 'refresh_token', session: 'cookie' },
      headers: cookieHeader(COOKIE, value),
    });
    expect(refreshed.statusCode).toBe(200);
    expect(setCookieFor(refreshed, COOKIE)).toMatch(
      new RegExp(`; Path=${path}; Max-Age=${THIRTY_DAYS}; HttpOnly; Secure; SameSite=Strict$`),
    );

    const logout = await t.app.inject({
      method: 'POST',
      url: `${PREFIXED}/auth/logout`,
      headers: bearer(refreshed.json().data.token),
      payload: { session: 'cookie' },
    });
    expect(logout.statusCode).toBe(200);
    expect(setCookieHeaders(logout)).toEqual([`${COOKIE}=; Path=${path}; Max-Age=0; HttpOnly; Secure; SameSite=Strict`]);
  });
});
