import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, DEFAULT_PASSWORD, expiredAccessToken, newUser, tokenFor } from '../helpers/factories.js';

const LOGIN = '/realty-api/v1/auth/login';
const ADMIN_ONLY = { method: 'POST' as const, url: '/realty-api/v1/terms/property_type', payload: { name: 'Loft' } };
const PUBLIC = '/realty-api/v1/property-types';

const LOGIN_RESULT_KEYS = [
  'user_id',
  'token',
  'email',
  'username',
  'display_name',
  'first_name',
  'last_name',
  'avatar_url',
  'phone',
  'mobile',
  'whatsapp',
  'role',
  'registered_date',
  'agent_id',
  'agency_id',
  'refresh_token',
  'expires_in',
  'token_expires_at',
].sort();

describeEachDialect('login and bearer tokens (%s)', (dialect) => {
  let t: TestApp;
  let user: UserRow;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    user = await newUser(t.database.db, { role: 'seller', first_name: 'Ana', last_name: 'Diaz', phone: '+34 600' });
  });
  afterAll(() => t.close());

  describe('POST /auth/login', () => {
    it('answers the seed login result with the message', async () => {
      const res = await t.app.inject({ method: 'POST', url: LOGIN, payload: { username: user.username, password: DEFAULT_PASSWORD } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.message).toBe('You have successfully logged in.');
      expect(Object.keys(body.data).sort()).toEqual(LOGIN_RESULT_KEYS);
      expect(body.data).toMatchObject({
        user_id: user.id,
        email: user.email,
        username: user.username,
        first_name: 'Ana',
        last_name: 'Diaz',
        phone: '+34 600',
        mobile: '',
        whatsapp: '',
        avatar_url: '',
        role: 'seller',
        agent_id: null,
        agency_id: null,
        expires_in: 3600,
      });
      expect(body.data.registered_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(body.data.token.split('.')).toHaveLength(3);
      expect(body.data.refresh_token.length).toBeGreaterThanOrEqual(40);
      const expires = Date.parse(body.data.token_expires_at);
      expect(expires - Date.now()).toBeGreaterThan(3500_000);
      expect(expires - Date.now()).toBeLessThanOrEqual(3600_000);
    });

    it('accepts the e-mail, in any case, in `email` or in `username`', async () => {
      for (const payload of [
        { email: user.email.toUpperCase(), password: DEFAULT_PASSWORD },
        { username: user.email, password: DEFAULT_PASSWORD },
      ]) {
        const res = await t.app.inject({ method: 'POST', url: LOGIN, payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(200);
        expect(res.json().data.user_id).toBe(user.id);
      }
    });

    it('answers a wrong password and an unknown user alike', async () => {
      const wrong = await t.app.inject({ method: 'POST', url: LOGIN, payload: { username: user.username, password: 'nope-nope' } });
      const unknown = await t.app.inject({ method: 'POST', url: LOGIN, payload: { username: 'nobody-here', password: 'nope-nope' } });
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({
          success: false,
          code: 'invalid_credentials',
          message: 'The username or password is incorrect.',
        });
      }
      expect(Object.keys(wrong.json()).sort()).toEqual(Object.keys(unknown.json()).sort());
    });

    it('localizes the regional variant /{lang}/realty-api/v1/auth/login', async () => {
      const ok = await t.app.inject({
        method: 'POST',
        url: `/ar${LOGIN}`,
        payload: { username: user.username, password: DEFAULT_PASSWORD },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().message).toBe('تم تسجيل دخولك بنجاح.');
      const bad = await t.app.inject({ method: 'POST', url: `/fr${LOGIN}`, payload: { username: user.username, password: 'wrong-one' } });
      expect(bad.json().message).toBe('Le nom d’utilisateur ou le mot de passe est incorrect.');
    });

    it('refuses a suspended account only after the password is proven', async () => {
      const suspended = await newUser(t.database.db, { status: 'suspended' });
      const wrong = await t.app.inject({ method: 'POST', url: LOGIN, payload: { username: suspended.username, password: 'wrong-one' } });
      expect(wrong.statusCode).toBe(401);
      const right = await t.app.inject({
        method: 'POST',
        url: LOGIN,
        payload: { username: suspended.username, password: DEFAULT_PASSWORD },
      });
      expect(right.statusCode).toBe(403);
      expect(right.json().code).toBe('account_suspended');
    });

    it.each([
      [{ password: 'x' }, 'username'],
      [{ username: 'someone' }, 'password'],
      [{ username: 'someone', password: 'x', role: 'administrator' }, 'role'],
      [{ username: 'someone', password: 12345678 }, 'password'],
      [{ username: 'a'.repeat(255), password: 'x' }, 'username'],
    ])('refuses the body %j naming field %s', async (payload, field) => {
      const res = await t.app.inject({ method: 'POST', url: LOGIN, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  });

  describe('the bearer-token hook', () => {
    const forge = (claims: Record<string, unknown>, secret = TEST_JWT_SECRET, alg = 'HS256') =>
      new SignJWT(claims)
        .setProtectedHeader({ alg })
        .setIssuer('realty-api')
        .setAudience('realty-api')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(secret));

    it('lets an administrator through and stops other roles with 403', async () => {
      const admin = await newUser(t.database.db, { role: 'administrator' });
      const ok = await t.app.inject({ ...ADMIN_ONLY, headers: bearer(await tokenFor(t.app, admin)) });
      expect(ok.statusCode).toBe(201);
      const denied = await t.app.inject({ ...ADMIN_ONLY, headers: bearer(await tokenFor(t.app, user)) });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().code).toBe('forbidden');
    });

    it('answers 401 unauthorized without a token', async () => {
      const res = await t.app.inject(ADMIN_ONLY);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    });

    it('refuses a tampered payload, a foreign key, alg none and a malformed header, on public routes too', async () => {
      const good = await tokenFor(t.app, user);
      const [header, payload, signature] = good.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const tamperedPayload = Buffer.from(JSON.stringify({ ...claims, role: 'administrator', sub: String(user.id + 1000) })).toString(
        'base64url',
      );
      const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const tokens = [
        `${header}.${tamperedPayload}.${signature}`,
        `${noneHeader}.${payload}.`,
        await forge({ sub: String(user.id), sid: claims.sid }, 'another-secret-that-is-long-enough-0123456789'),
        await forge({ sub: String(user.id), sid: claims.sid }, TEST_JWT_SECRET, 'HS512'),
        'not-a-jwt',
      ];
      for (const token of tokens) {
        for (const request of [ADMIN_ONLY, { method: 'GET' as const, url: PUBLIC }]) {
          const res = await t.app.inject({ ...request, headers: bearer(token) });
          expect(res.statusCode, token).toBe(401);
          expect(res.json().code).toBe('invalid_token');
        }
      }
      for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', `Bearer ${good} extra`]) {
        const res = await t.app.inject({ method: 'GET', url: PUBLIC, headers: { authorization } });
        expect(res.statusCode, authorization).toBe(401);
      }
    });

    it('answers token_expired for an expired token', async () => {
      const good = await tokenFor(t.app, user);
      const { sid } = JSON.parse(Buffer.from(good.split('.')[1] as string, 'base64url').toString());
      const expired = await expiredAccessToken(user.id, sid);
      const res = await t.app.inject({ method: 'GET', url: PUBLIC, headers: bearer(expired) });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_expired');
    });

    it('refuses a well-signed token whose session is revoked, unknown or of another user', async () => {
      const good = await tokenFor(t.app, user);
      const { sid } = JSON.parse(Buffer.from(good.split('.')[1] as string, 'base64url').toString());
      const other = await newUser(t.database.db);
      for (const token of [await forge({ sub: String(other.id), sid }), await forge({ sub: String(user.id), sid: 'no-such-session' })]) {
        expect((await t.app.inject({ method: 'GET', url: PUBLIC, headers: bearer(token) })).statusCode).toBe(401);
      }
      expect((await t.app.inject({ method: 'GET', url: PUBLIC, headers: bearer(good) })).statusCode).toBe(200);
      await t.database.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('id', '=', sid).execute();
      const revoked = await t.app.inject({ method: 'GET', url: PUBLIC, headers: bearer(good) });
      expect(revoked.statusCode).toBe(401);
      expect(revoked.json().code).toBe('invalid_token');
    });

    it('applies a role change and a deletion of the user at once', async () => {
      const promoted = await newUser(t.database.db, { role: 'buyer' });
      const token = await tokenFor(t.app, promoted);
      expect((await t.app.inject({ ...ADMIN_ONLY, payload: { name: 'Barn' }, headers: bearer(token) })).statusCode).toBe(403);
      await t.database.db.updateTable('users').set({ role: 'administrator' }).where('id', '=', promoted.id).execute();
      expect((await t.app.inject({ ...ADMIN_ONLY, payload: { name: 'Barn' }, headers: bearer(token) })).statusCode).toBe(201);
      await t.database.db.deleteFrom('users').where('id', '=', promoted.id).execute();
      expect((await t.app.inject({ method: 'GET', url: PUBLIC, headers: bearer(token) })).statusCode).toBe(401);
    });
  });

  describe('administrator bootstrap', () => {
    it('creates the administrator once and leaves an existing account alone', async () => {
      const first = await t.services.users.ensureAdministrator('Boss@Example.test', 'a-strong-password');
      expect(first.created).toBe(true);
      expect(first.user).toMatchObject({ role: 'administrator', email: 'boss@example.test', username: 'Boss' });
      const again = await t.services.users.ensureAdministrator('boss@example.test', 'another-password');
      expect(again).toMatchObject({ created: false, user: { id: first.user.id } });
      const res = await t.app.inject({
        method: 'POST',
        url: LOGIN,
        payload: { email: 'boss@example.test', password: 'a-strong-password' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.role).toBe('administrator');
    });
  });
});
