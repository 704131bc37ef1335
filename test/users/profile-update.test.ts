import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, DEFAULT_PASSWORD, newSignedInUser, newUser, tokenFor, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
const LOGIN = `${API}/auth/login`;

type Json = Record<string, unknown>;

describeEachDialect('updating the profile (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  const put = (auth: Record<string, string>, payload: Json) =>
    t.app.inject({ method: 'PUT', url: `${API}/users/profile`, headers: auth, payload });
  const me = async (auth: Record<string, string>) =>
    (await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: auth })).json().data;
  const row = (id: number) => t.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const login = (username: string, password: string) => t.app.inject({ method: 'POST', url: LOGIN, payload: { username, password } });

  it('changes only the fields sent, answers the full profile and bumps updated_at', async () => {
    const { user, auth } = await newSignedInUser(t, {
      first_name: 'Ana',
      last_name: 'Diaz',
      phone: '+34 600',
      created_at: '2020-01-01T00:00:00.000Z',
      updated_at: '2020-01-01T00:00:00.000Z',
    });
    const res = await put(auth, {
      first_name: '  Anna ',
      mobile: '+34 (611) 22-33',
      whatsapp: '+34 611',
      bio: 'Selling homes since 1999.',
      website: 'https://anna.example/about?x=1',
      language: 'es',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Your profile was updated.' });
    expect(res.json().data).toMatchObject({
      user_id: user.id,
      first_name: 'Anna',
      last_name: 'Diaz',
      display_name: user.display_name,
      email: user.email,
      phone: '+34 600',
      mobile: '+34 (611) 22-33',
      whatsapp: '+34 611',
      bio: 'Selling homes since 1999.',
      website: 'https://anna.example/about?x=1',
      language: 'es',
      role: 'buyer',
    });
    expect(await me(auth)).toEqual(res.json().data);
    const stored = await row(user.id);
    expect(stored.updated_at > '2020-01-01T00:00:00.000Z').toBe(true);
    expect(stored.created_at).toBe('2020-01-01T00:00:00.000Z');

    const cleared = await put(auth, { website: '', language: '', mobile: '' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data).toMatchObject({ website: '', language: '', mobile: '', first_name: 'Anna' });
  });

  it('answers an empty body with the unchanged profile', async () => {
    const { user, auth } = await newSignedInUser(t);
    const before = await me(auth);
    const res = await put(auth, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(before);
    expect((await row(user.id)).updated_at).toBe(user.updated_at);
  });

  it('strips HTML from names and the bio', async () => {
    const { auth } = await newSignedInUser(t);
    const res = await put(auth, {
      first_name: '<b>Ana</b>',
      last_name: '<script>alert(1)</script>Diaz',
      display_name: ' <i>Ana D.</i> <!-- hi --> ',
      bio: '<p>I <3 gardens &amp; <a href="javascript:x">homes</a></p>',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      first_name: 'Ana',
      last_name: 'alert(1)Diaz',
      display_name: 'Ana D.',
      bio: 'I <3 gardens & homes',
    });
  });

  it('refuses a display name that is empty once tags are removed', async () => {
    const { auth } = await newSignedInUser(t);
    for (const display_name of ['', '<b></b>']) {
      const res = await put(auth, { display_name });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].field).toBe('display_name');
    }
  });

  it('refuses every field a user may not set (mass assignment), changing nothing', async () => {
    const { user, auth } = await newSignedInUser(t);
    for (const [field, value] of [
      ['role', 'administrator'],
      ['status', 'active'],
      ['username', 'someone_else'],
      ['id', 1],
      ['user_id', 1],
      ['password_hash', 'x'],
      ['avatar_media_id', 1],
      ['avatar_url', 'https://evil.example/a.png'],
      ['created_at', '2000-01-01T00:00:00Z'],
    ] as const) {
      const res = await put(auth, { first_name: 'Changed', [field]: value });
      expect(res.statusCode, field).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ field, message: 'is not an accepted field' }] });
    }
    const stored = await row(user.id);
    expect(stored).toMatchObject({ role: 'buyer', username: user.username, first_name: '', status: 'active' });
    expect((await me(auth)).role).toBe('buyer');
  });

  it('validates website, language, phones, e-mail and lengths', async () => {
    const { auth } = await newSignedInUser(t);
    const invalid: [string, unknown][] = [
      ['website', 'example.com'],
      ['website', 'ftp://example.com'],
      ['website', 'javascript:alert(1)'],
      ['website', 'https://'],
      ['website', 'https://exa mple.com'],
      ['website', 'http://<script>/'],
      ['website', `https://example.com/${'a'.repeat(500)}`],
      ['language', 'de'],
      ['language', 'EN'],
      ['phone', '<script>'],
      ['mobile', '1'.repeat(41)],
      ['whatsapp', 'call me'],
      ['email', 'not-an-address'],
      ['email', `${'a'.repeat(250)}@example.test`],
      ['first_name', 'a'.repeat(201)],
      ['bio', 'a'.repeat(5001)],
      ['password', 'short'],
      ['first_name', 42],
    ];
    for (const [field, value] of invalid) {
      const res = await put(auth, { [field]: value });
      expect(res.statusCode, `${field}=${String(value).slice(0, 40)}`).toBe(400);
      expect(res.json().errors[0].field).toBe(field);
    }
    for (const website of ['http://example.com', 'https://www.example.com/path#x']) {
      expect((await put(auth, { website })).statusCode, website).toBe(200);
    }
    for (const language of ['en', 'ar', 'es', 'fr', '']) {
      expect((await put(auth, { language })).json().data.language).toBe(language);
    }
  });

  describe('e-mail address', () => {
    it('needs the right current_password to change', async () => {
      const { user, auth } = await newSignedInUser(t);
      const wanted = `${unique('new_')}@example.test`;
      for (const extra of [{}, { current_password: '' }, { current_password: 'wrong password' }]) {
        const res = await put(auth, { email: wanted, ...extra });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'current_password' }] });
      }
      expect((await row(user.id)).email).toBe(user.email);

      const res = await put(auth, { email: wanted.toUpperCase(), current_password: DEFAULT_PASSWORD });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.email).toBe(wanted);
      expect((await login(wanted, DEFAULT_PASSWORD)).statusCode).toBe(200);
    });

    it('does not ask for the password when the address stays the same (in any case)', async () => {
      const { user, auth } = await newSignedInUser(t);
      const res = await put(auth, { email: user.email.toUpperCase(), first_name: 'Same' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ email: user.email, first_name: 'Same' });
    });

    it('answers 409 email_taken for another account’s address, in any case', async () => {
      const other = await newUser(t.database.db);
      const { user, auth } = await newSignedInUser(t);
      for (const email of [other.email, other.email.toUpperCase()]) {
        const res = await put(auth, { email, current_password: DEFAULT_PASSWORD });
        expect(res.statusCode).toBe(409);
        expect(res.json().code).toBe('email_taken');
      }
      expect((await row(user.id)).email).toBe(user.email);
    });
  });

  describe('password', () => {
    it('needs current_password, then signs out every other session but the caller’s', async () => {
      const { user } = await newSignedInUser(t);
      const caller = bearer(await tokenFor(t.app, user));
      const other = bearer(await tokenFor(t.app, user));
      for (const extra of [{}, { current_password: 'wrong password' }]) {
        const res = await put(caller, { password: 'a brand new password', ...extra });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[0].field).toBe('current_password');
      }
      expect((await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: other })).statusCode).toBe(200);

      const res = await put(caller, { password: 'a brand new password', current_password: DEFAULT_PASSWORD });
      expect(res.statusCode, res.body).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: caller })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: other })).statusCode).toBe(401);
      expect((await login(user.username, DEFAULT_PASSWORD)).statusCode).toBe(401);
      expect((await login(user.username, 'a brand new password')).statusCode).toBe(200);
    });

    it('counts wrong current_password guesses towards the account lock', async () => {
      const { user, auth } = await newSignedInUser(t);
      for (let i = 0; i < 5; i++) {
        expect((await put(auth, { password: 'a brand new password', current_password: `guess ${i} wrong` })).statusCode).toBe(400);
      }
      const locked = await put(auth, { password: 'a brand new password', current_password: DEFAULT_PASSWORD });
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await login(user.username, DEFAULT_PASSWORD)).statusCode).toBe(429);
    });

    it('lets an account without a password (social sign-in) set one and change its e-mail without current_password', async () => {
      const user = await newUser(t.database.db, { password_hash: null });
      const auth = bearer((await t.services.auth.signIn(user)).token);
      const email = `${unique('social_')}@example.test`;
      const res = await put(auth, { email, password: 'my first password' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.email).toBe(email);
      expect((await login(email, 'my first password')).statusCode).toBe(200);
      // From now on the account has a password to check.
      const again = await put(auth, { password: 'another password' });
      expect(again.statusCode).toBe(400);
      expect(again.json().errors[0].field).toBe('current_password');
    });
  });
});
