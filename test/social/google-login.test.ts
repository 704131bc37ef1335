import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, DEFAULT_PASSWORD, newUser, unique } from '../helpers/factories.js';
import { type FakeGoogle, GOOGLE_ISSUER, startFakeGoogle } from '../helpers/fake-providers.js';

const GOOGLE_LOGIN = '/realty-api/v1/social/google/login';
const LOGIN = '/realty-api/v1/auth/login';
const VALIDATE = '/realty-api/v1/auth/validate-token';

const SOCIAL_LOGIN_KEYS = [
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
  'social_provider',
].sort();

describeEachDialect('POST /social/google/login (%s)', (dialect) => {
  let t: TestApp;
  let google: FakeGoogle;

  beforeAll(async () => {
    google = await startFakeGoogle();
    t = await buildTestApp(dialect, {
      GOOGLE_CLIENT_IDS: `${google.clientId}, second-client.apps.googleusercontent.com`,
      GOOGLE_JWKS_URL: google.jwksUrl,
    });
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });

  const login = (idToken: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: GOOGLE_LOGIN, payload: { id_token: idToken }, headers });

  /** A fresh Google identity per test, so that tests never share accounts. */
  const identity = (claims: Record<string, unknown> = {}) => {
    const local = unique('g_');
    return { sub: unique('sub-'), email: `${local}@gmail.test`, ...claims };
  };

  const userCountWithEmail = async (email: string) =>
    Number(
      (
        await t.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates a password-less buyer account on the first sign-in and answers the login result', async () => {
    const claims = identity({ given_name: 'Grace', family_name: 'Hopper', name: 'Grace Hopper' });
    const res = await login(await google.signIdToken({ claims }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.message).toBe('You have successfully logged in.');
    expect(Object.keys(body.data).sort()).toEqual(SOCIAL_LOGIN_KEYS);
    expect(body.data).toMatchObject({
      email: claims.email,
      username: claims.email.split('@')[0],
      first_name: 'Grace',
      last_name: 'Hopper',
      display_name: 'Grace Hopper',
      role: 'buyer',
      phone: '',
      avatar_url: '',
      agent_id: null,
      agency_id: null,
      social_provider: 'google',
      expires_in: 3600,
    });
    expect(body.data.token.split('.')).toHaveLength(3);

    // The token is a working bearer token of the new account.
    const validated = await t.app.inject({ method: 'POST', url: VALIDATE, headers: bearer(body.data.token) });
    expect(validated.statusCode).toBe(200);
    expect(validated.json().data).toMatchObject({ user_id: body.data.user_id, role: 'buyer' });

    const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', body.data.user_id).executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    const link = await t.database.db.selectFrom('social_accounts').selectAll().where('subject', '=', claims.sub).executeTakeFirstOrThrow();
    expect(link).toMatchObject({ provider: 'google', user_id: body.data.user_id });
  });

  it('signs the same identity into the same account the next time, even with a changed e-mail', async () => {
    const claims = identity();
    const first = await login(await google.signIdToken({ claims }));
    const again = await login(await google.signIdToken({ claims }));
    const moved = await login(await google.signIdToken({ claims: { ...claims, email: `${unique('moved_')}@gmail.test` } }));
    for (const res of [again, moved]) {
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user_id).toBe(first.json().data.user_id);
    }
    expect(again.json().data.token).not.toBe(first.json().data.token);
    expect(await userCountWithEmail(claims.email)).toBe(1);
  });

  it('signs a linked identity in even when the token no longer carries an e-mail', async () => {
    const claims = identity();
    const first = await login(await google.signIdToken({ claims }));
    const res = await login(await google.signIdToken({ claims: { sub: claims.sub, email: undefined, email_verified: undefined } }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user_id).toBe(first.json().data.user_id);
  });

  it('fetches the key set once and reuses it', async () => {
    await login(await google.signIdToken({ claims: identity() }));
    const fetched = google.jwksRequests;
    for (let i = 0; i < 3; i++) expect((await login(await google.signIdToken({ claims: identity() }))).statusCode).toBe(200);
    expect(fetched).toBeGreaterThanOrEqual(1);
    expect(google.jwksRequests).toBe(fetched);
  });

  it('accepts a token issued to any configured client id', async () => {
    const claims = identity({ aud: 'second-client.apps.googleusercontent.com' });
    const res = await login(await google.signIdToken({ claims }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: claims.email, social_provider: 'google' });
  });

  it('accepts both spellings of the Google issuer', async () => {
    const claims = identity({ iss: 'accounts.google.com' });
    const res = await login(await google.signIdToken({ claims }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: claims.email, social_provider: 'google' });
  });

  it('links an existing account whose e-mail the provider reports as verified', async () => {
    const existing = await newUser(t.database.db, { role: 'seller', first_name: 'Ada' });
    // Google's address in another case, and email_verified in the older string form.
    const claims = identity({ email: existing.email.toUpperCase(), email_verified: 'true', given_name: 'Other' });
    const res = await login(await google.signIdToken({ claims }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ user_id: existing.id, role: 'seller', first_name: 'Ada', social_provider: 'google' });
    const link = await t.database.db.selectFrom('social_accounts').selectAll().where('subject', '=', claims.sub).executeTakeFirst();
    expect(link?.user_id).toBe(existing.id);
    // The password keeps working beside the new link.
    const password = await t.app.inject({
      method: 'POST',
      url: LOGIN,
      payload: { username: existing.username, password: DEFAULT_PASSWORD },
    });
    expect(password.statusCode).toBe(200);
  });

  it('refuses to link an existing account when the e-mail is not verified (409 email_taken)', async () => {
    const existing = await newUser(t.database.db);
    const claims = identity({ email: existing.email, email_verified: false });
    const res = await login(await google.signIdToken({ claims }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, code: 'email_taken' });
    expect(res.json().message).toContain('Google has not verified');
    const link = await t.database.db.selectFrom('social_accounts').selectAll().where('subject', '=', claims.sub).executeTakeFirst();
    expect(link).toBeUndefined();
    // Leaving email_verified out counts as unverified too.
    const missing = await login(await google.signIdToken({ claims: { ...claims, email_verified: undefined } }));
    expect(missing.statusCode).toBe(409);
  });

  it('creates an account for an unverified address that no account has', async () => {
    const claims = identity({ email_verified: false });
    const res = await login(await google.signIdToken({ claims }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.email).toBe(claims.email);
  });

  it('refuses a new identity without an e-mail address (400 naming id_token)', async () => {
    const res = await login(await google.signIdToken({ claims: { sub: unique('sub-'), email: undefined, email_verified: undefined } }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'id_token', message: 'carries no e-mail address' }] });
    expect(res.json().message).toMatch(/does not share an e-mail address/);
  });

  it('makes a username from the name when the e-mail local part has too few usable characters', async () => {
    const claims = identity({ email: 'ñé@gmail.test', name: 'José Álvarez', given_name: undefined, family_name: undefined });
    const res = await login(await google.signIdToken({ claims }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      username: expect.stringMatching(/^Jose\.Alvarez\d*$/),
      first_name: 'José Álvarez',
      last_name: '',
    });
  });

  it('picks a free username when the local part is taken', async () => {
    const taken = await newUser(t.database.db);
    const claims = identity({ email: `${taken.username}@gmail.test` });
    const res = await login(await google.signIdToken({ claims }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.username).toBe(`${taken.username}2`);
  });

  it('removes HTML from the names the provider sends', async () => {
    const res = await login(
      await google.signIdToken({ claims: identity({ given_name: '<b>Bold</b>', family_name: '<script>x</script>Name' }) }),
    );
    expect(res.json().data).toMatchObject({ first_name: 'Bold', last_name: 'xName' });
  });

  it('creates one account when two first sign-ins of the same identity race', async () => {
    const claims = identity();
    const token = await google.signIdToken({ claims });
    const results = await Promise.all([login(token), login(token), login(token)]);
    for (const res of results) expect(res.statusCode).toBe(200);
    expect(new Set(results.map((r) => r.json().data.user_id)).size).toBe(1);
    expect(await userCountWithEmail(claims.email)).toBe(1);
  });

  it('gives the created account no password: password login fails whatever the password', async () => {
    const claims = identity();
    const res = await login(await google.signIdToken({ claims }));
    // Few attempts per login name: five failures would lock it (429).
    for (const payload of [
      { username: res.json().data.username, password: DEFAULT_PASSWORD },
      { username: res.json().data.username, password: 'null' },
      { email: claims.email, password: 'x' },
    ]) {
      const attempt = await t.app.inject({ method: 'POST', url: LOGIN, payload });
      expect(attempt.statusCode, JSON.stringify(payload)).toBe(401);
      expect(attempt.json().code).toBe('invalid_credentials');
    }
    const empty = await t.app.inject({ method: 'POST', url: LOGIN, payload: { email: claims.email, password: '' } });
    expect(empty.statusCode).toBe(400);
  });

  it('refuses a suspended linked account with 403 account_suspended', async () => {
    const claims = identity();
    const first = await login(await google.signIdToken({ claims }));
    await t.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', first.json().data.user_id).execute();
    const res = await login(await google.signIdToken({ claims }));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('account_suspended');
  });

  describe('refuses tokens Google did not issue to this app with 401 invalid_token', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const cases: [string, () => Promise<string>][] = [
      ['an expired token', () => google.signIdToken({ claims: identity({ iat: now() - 7200, exp: now() - 3600 }) })],
      ['a token for another client id', () => google.signIdToken({ claims: identity({ aud: 'someone-else.apps.googleusercontent.com' }) })],
      ['a token from another issuer', () => google.signIdToken({ claims: identity({ iss: 'https://evil.example' }) })],
      ['a token signed by another key', () => google.signIdToken({ claims: identity(), foreignKey: true })],
      ['a token naming an unknown key', () => google.signIdToken({ claims: identity(), kid: 'no-such-key' })],
      ['a token without a subject', () => google.signIdToken({ claims: identity({ sub: undefined }) })],
      ['a token without an expiry', () => google.signIdToken({ claims: identity({ exp: undefined }) })],
      [
        'an unsigned token (alg none)',
        async () => new UnsecuredJWT({ ...identity(), iss: GOOGLE_ISSUER, aud: google.clientId }).setExpirationTime('1h').encode(),
      ],
      [
        'an HS256 token',
        () =>
          new SignJWT({ ...identity(), iss: GOOGLE_ISSUER, aud: google.clientId })
            .setProtectedHeader({ alg: 'HS256', kid: 'test-key-1' })
            .setExpirationTime('1h')
            .sign(new TextEncoder().encode('a-secret-the-attacker-chose-0123456789')),
      ],
      ['a malformed token', async () => 'not.a.jwt'],
      ['garbage', async () => '%%%%'],
      ['a tampered token', async () => `${(await google.signIdToken({ claims: identity() })).slice(0, -4)}AAAA`],
    ];

    it.each(cases)('%s', async (_name, makeToken) => {
      const res = await login(await makeToken());
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: 'invalid_token', message: 'The Google sign-in token is not valid.' });
    });
  });

  it('localizes its errors', async () => {
    const res = await login('not.a.jwt', { 'accept-language': 'fr' });
    expect(res.json().message).toBe('Le jeton de connexion Google n’est pas valide.');
  });

  it.each([
    ['no token', {}, 'id_token'],
    ['an empty token', { id_token: '' }, 'id_token'],
    ['a token over 4096 characters', { id_token: 'x'.repeat(4097) }, 'id_token'],
    ['a number', { id_token: 42 }, 'id_token'],
    ['an unknown field', { id_token: 'abc', role: 'administrator' }, 'role'],
  ])('refuses a body with %s (400 naming the field)', async (_name, payload, field) => {
    const res = await t.app.inject({ method: 'POST', url: GOOGLE_LOGIN, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});
