import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Mailer, MailMessage } from '../../src/adapters/mail/mailer.js';
import type { DB } from '../../src/db/schema/index.js';
import { SITE_SESSION_COOKIE } from '../../src/site/session.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookieValueOf, setCookieFor, setCookieHeaders } from '../helpers/cookies.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, DEFAULT_PASSWORD, newUser, tokenFor } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';
import { csrfOf, fieldErrorOf, getPage, noticesOf, postForm, PUBLIC_URL, signInOnSite } from './account-helpers.js';

const NEW_PASSWORD = 'a brand new passphrase';

class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
  close(): void {}
}

describeEachDialect('the account pages: signing in, up and out, the password reset (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  const mailer = new CapturingMailer();

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL }, { mailer });
    db = t.database.db;
  });
  afterAll(() => t.close());

  it('answers every page valid, private and noindex, in each language', async () => {
    for (const path of ['/sign-in', '/sign-up', '/forgot-password', '/reset-password?token=abc', '/reset-password']) {
      for (const prefix of ['', '/es', '/ar']) {
        const url = `${prefix}${path}`;
        const res = await getPage(t.app, url);
        expect(res.statusCode, url).toBe(200);
        await expectValidHtml(res.body, url);
        const page = parsePage(res.body);
        expect(page.robots, url).toBe('noindex, follow');
        expect(page.canonical, url).toBeUndefined();
        expect(page.alternates, url).toEqual({});
        expect(res.headers['cache-control'], url).toBe(path.startsWith('/reset-password') ? 'no-store' : 'private, no-cache');
        expect(page.root.querySelectorAll('h1'), url).toHaveLength(1);
      }
    }
    expect(parsePage((await getPage(t.app, '/es/sign-in')).body).title).toBe('Iniciar sesión | Realty');
    expect(
      parsePage((await getPage(t.app, '/ar/sign-up')).body)
        .root.querySelector('html')
        ?.getAttribute('dir'),
    ).toBe('rtl');
  });

  it('signs in by username or e-mail, sets the session cookie, and returns to `next`', async () => {
    const user = await newUser(db, { display_name: 'Maya Stone' });
    const res = await postForm(t.app, '/sign-in', { login: user.username, password: DEFAULT_PASSWORD, next: '/account/favorites?page=2' });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/account/favorites?page=2');
    expect(res.headers['cache-control']).toBe('no-store');
    const cookie = setCookieFor(res, SITE_SESSION_COOKIE)!;
    const attributes = cookie.split(';').map((part) => part.trim());
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', 'Secure', 'Max-Age=2592000']));
    // The header names the visitor; the sign-in page sends a signed-in visitor on.
    const value = cookie.split(';')[0]!.split('=')[1]!;
    const home = await getPage(t.app, '/', value);
    expect(home.headers['cache-control']).toBe('private, no-cache');
    expect(parsePage(home.body).root.querySelector('.menu__who')?.text).toContain('Maya Stone');
    const again = await getPage(t.app, '/es/sign-in?next=/account/saved-searches', value);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe('/es/account/saved-searches');
    // By e-mail, in Spanish: back to the Spanish home page.
    const es = await postForm(t.app, '/es/sign-in', { login: user.email.toUpperCase(), password: DEFAULT_PASSWORD });
    expect(es.statusCode).toBe(303);
    expect(es.headers.location).toBe('/es/');
  });

  it('ends the first session when a signed-in visitor signs in as someone else', async () => {
    const first = await newUser(db);
    const second = await newUser(db);
    const cookie = await signInOnSite(t.app, first.username);
    const csrf = await csrfOf(t.app, cookie, '/');
    const res = await postForm(t.app, '/sign-in', { login: second.username, password: DEFAULT_PASSWORD, csrf }, { cookie });
    expect(res.statusCode).toBe(303);
    expect((await getPage(t.app, '/account/favorites', cookie)).statusCode).toBe(303);
    // Without the first session's CSRF token, a signed-in visitor's post is refused.
    expect(
      (
        await postForm(
          t.app,
          '/sign-in',
          { login: second.username, password: DEFAULT_PASSWORD },
          { cookie: cookieValueOf(setCookieFor(res, SITE_SESSION_COOKIE)!) },
        )
      ).statusCode,
    ).toBe(403);
  });

  it('sets no Secure attribute when PUBLIC_URL is plain http', async () => {
    const plain = await buildTestApp(dialect, { PUBLIC_URL: 'http://realty.local' });
    try {
      const user = await newUser(plain.database.db);
      const res = await postForm(
        plain.app,
        '/sign-in',
        { login: user.username, password: DEFAULT_PASSWORD },
        { headers: { origin: 'http://realty.local' } },
      );
      expect(res.statusCode).toBe(303);
      const cookie = setCookieFor(res, SITE_SESSION_COOKIE)!;
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      expect(cookie).not.toContain('Secure');
    } finally {
      await plain.close();
    }
  });

  it('refuses `next` addresses of other sites, and goes home instead', async () => {
    const user = await newUser(db);
    const attacks = [
      '//evil.example',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\r\nSet-Cookie: x=1',
      'https://evil.example/',
      'javascript:alert(1)',
      'evil.example',
      '/.//evil.example',
      '/a/..//evil.example',
      ' /account',
      '/sign-in?next=//evil.example',
    ];
    for (const next of attacks) {
      const res = await postForm(t.app, '/sign-in', { login: user.username, password: DEFAULT_PASSWORD, next });
      expect(res.statusCode, JSON.stringify(next)).toBe(303);
      expect(res.headers.location, JSON.stringify(next)).toBe('/');
      const form = parsePage((await getPage(t.app, `/sign-in?next=${encodeURIComponent(next)}`)).body);
      expect(form.root.querySelector('input[name="next"]'), JSON.stringify(next)).toBeNull();
      expect(form.root.querySelector('a[href^="/sign-up"]')?.getAttribute('href'), JSON.stringify(next)).toBe('/sign-up');
    }
    // A path of this site, with its query, is kept.
    const fine = await postForm(t.app, '/sign-in', {
      login: user.username,
      password: DEFAULT_PASSWORD,
      next: '/properties?type=villa&page=2',
    });
    expect(fine.headers.location).toBe('/properties?type=villa&page=2');
  });

  it('answers a wrong password and an unknown account alike, keeping the name typed but never the password', async () => {
    const user = await newUser(db);
    const wrong = await postForm(t.app, '/sign-in', { login: user.username, password: 'not the password' });
    const unknown = await postForm(t.app, '/sign-in', { login: 'nobody_at_all', password: 'not the password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(setCookieHeaders(res)).toEqual([]);
      expect(noticesOf(res.body)).toEqual(['The username, e-mail or password is not right. Check them and try again.']);
      expect(res.body).not.toContain('not the password');
      await expectValidHtml(res.body, 'the failed sign-in');
    }
    expect(parsePage(wrong.body).root.querySelector('#sign-in-login')?.getAttribute('value')).toBe(user.username);
    expect(wrong.body.replace(user.username, 'X')).toBe(unknown.body.replace('nobody_at_all', 'X'));
    const empty = await postForm(t.app, '/sign-in', { login: '', password: '' });
    expect(empty.statusCode).toBe(400);
    expect(fieldErrorOf(empty.body, 'sign-in-login')).toBe('must be at least 1 characters long');
  });

  it('locks an account after five failures, as the API does, even for the right password', async () => {
    const user = await newUser(db);
    for (let i = 0; i < 5; i++) await postForm(t.app, '/sign-in', { login: user.username, password: 'wrong wrong' });
    const locked = await postForm(t.app, '/sign-in', { login: user.username, password: DEFAULT_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(noticesOf(locked.body)[0]).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
    expect(setCookieHeaders(locked)).toEqual([]);
    // An unknown name locks the same way: the lock tells nothing either.
    for (let i = 0; i < 5; i++) await postForm(t.app, '/sign-in', { login: 'ghost_account', password: 'wrong wrong' });
    expect((await postForm(t.app, '/sign-in', { login: 'ghost_account', password: 'wrong wrong' })).statusCode).toBe(429);
  });

  it('refuses a suspended account after its password, saying so', async () => {
    const user = await newUser(db, { status: 'suspended' });
    const res = await postForm(t.app, '/sign-in', { login: user.username, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(noticesOf(res.body)).toEqual(['This account is suspended. Contact us if you think this is a mistake.']);
  });

  it('refuses posts from other sites, and pretends to take a bot’s', async () => {
    const user = await newUser(db);
    const cross = await postForm(
      t.app,
      '/sign-in',
      { login: user.username, password: DEFAULT_PASSWORD },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(cross.statusCode).toBe(403);
    expect(setCookieHeaders(cross)).toEqual([]);
    const bot = await postForm(t.app, '/sign-in', { login: user.username, password: DEFAULT_PASSWORD, website: 'http://spam' });
    expect(bot.statusCode).toBe(303);
    expect(setCookieHeaders(bot)).toEqual([]);
    const botSignUp = await postForm(t.app, '/sign-up', {
      username: 'spam_bot_1',
      email: 'bot@example.test',
      password: 'bot password 1',
      website: 'x',
    });
    expect(botSignUp.statusCode).toBe(303);
    expect(await db.selectFrom('users').select('id').where('username', '=', 'spam_bot_1').executeTakeFirst()).toBeUndefined();
  });

  it('signs up with the API’s rules, signed in at once as a buyer', async () => {
    const res = await postForm(t.app, '/sign-up', {
      username: 'new_home_seeker',
      email: 'Seeker@Example.test',
      password: 'long enough password',
      first_name: 'Ana',
      last_name: '',
      next: '/account/saved-searches',
    });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/account/saved-searches');
    const cookie = setCookieFor(res, SITE_SESSION_COOKIE)!;
    expect(cookie).toContain('HttpOnly');
    const user = await db.selectFrom('users').selectAll().where('username', '=', 'new_home_seeker').executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: 'buyer', email: 'seeker@example.test', first_name: 'Ana', display_name: 'Ana' });
    expect((await getPage(t.app, '/account/saved-searches', cookie.split(';')[0]!.split('=')[1])).statusCode).toBe(200);
  });

  it('shows what is wrong beside each field and keeps what was typed, but never the password', async () => {
    const res = await postForm(t.app, '/sign-up', { username: 'a b', email: 'not-an-address', password: 'short', first_name: 'Zoë' });
    expect(res.statusCode).toBe(400);
    await expectValidHtml(res.body, 'the sign-up form with errors');
    expect(fieldErrorOf(res.body, 'sign-up-username')).toBe('has an invalid format');
    expect(fieldErrorOf(res.body, 'sign-up-email')).toBe('must be a valid email');
    expect(fieldErrorOf(res.body, 'sign-up-password')).toBe('must be at least 8 characters long');
    const page = parsePage(res.body);
    expect(page.root.querySelector('#sign-up-username')?.getAttribute('aria-invalid')).toBe('true');
    expect(page.root.querySelector('#sign-up-username')?.getAttribute('aria-describedby')).toContain('sign-up-username-error');
    expect(page.root.querySelector('#sign-up-first_name')?.getAttribute('value')).toBe('Zoë');
    expect(page.root.querySelector('#sign-up-password')?.getAttribute('value')).toBe('');
    // Unknown fields (a role, say) are refused, not taken.
    const role = await postForm(t.app, '/sign-up', {
      username: 'would_be_admin',
      email: 'a@example.test',
      password: 'long enough password',
      role: 'administrator',
    });
    expect(role.statusCode).toBe(400);
    expect(await db.selectFrom('users').select('id').where('username', '=', 'would_be_admin').executeTakeFirst()).toBeUndefined();
  });

  it('says beside the field when the e-mail or username is taken, as the API does', async () => {
    const user = await newUser(db);
    const email = await postForm(t.app, '/sign-up', { username: 'another_name', email: user.email, password: 'long enough password' });
    expect(email.statusCode).toBe(409);
    expect(fieldErrorOf(email.body, 'sign-up-email')).toBe('An account with this e-mail already exists. Sign in, or reset its password.');
    const name = await postForm(t.app, '/sign-up', {
      username: user.username,
      email: 'fresh@example.test',
      password: 'long enough password',
    });
    expect(name.statusCode).toBe(409);
    expect(fieldErrorOf(name.body, 'sign-up-username')).toBe('This username is taken. Choose another one.');
  });

  it('signs out with the session’s CSRF token only, ending the session', async () => {
    const user = await newUser(db);
    const cookie = await signInOnSite(t.app, user.username);
    const csrf = await csrfOf(t.app, cookie, '/');
    const forged = await postForm(t.app, '/sign-out', {}, { cookie });
    expect(forged.statusCode).toBe(403);
    expect((await postForm(t.app, '/sign-out', { csrf: 'x'.repeat(csrf.length) }, { cookie })).statusCode).toBe(403);
    expect((await getPage(t.app, '/account/favorites', cookie)).statusCode).toBe(200);
    const res = await postForm(t.app, '/sign-out', { csrf }, { cookie });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    expect(setCookieFor(res, SITE_SESSION_COOKIE)).toMatch(/^realty_site=; .*Max-Age=0/);
    // The session itself has ended: the old cookie opens nothing, and is deleted when sent again.
    const after = await getPage(t.app, '/account/favorites', cookie);
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/sign-in?next=%2Faccount%2Ffavorites');
    expect(setCookieFor(after, SITE_SESSION_COOKIE)).toContain('Max-Age=0');
  });

  it('is signed out when the session is revoked through the API: logout, a password change, a suspension', async () => {
    const user = await newUser(db);
    // The API's logout ends the website session too when given its secret (the cookie's value).
    const first = await signInOnSite(t.app, user.username);
    const api = bearer(await tokenFor(t.app, user));
    expect(
      (await t.app.inject({ method: 'POST', url: '/realty-api/v1/auth/logout', headers: api, payload: { refresh_token: first } }))
        .statusCode,
    ).toBe(200);
    expect((await getPage(t.app, '/account/favorites', first)).statusCode).toBe(303);
    // A password change from another client ends every other session.
    const second = await signInOnSite(t.app, user.username);
    const other = bearer(await tokenFor(t.app, user));
    const change = await t.app.inject({
      method: 'PUT',
      url: '/realty-api/v1/users/profile',
      headers: other,
      payload: { password: NEW_PASSWORD, current_password: DEFAULT_PASSWORD },
    });
    expect(change.statusCode, change.body).toBe(200);
    const signedOut = await getPage(t.app, '/', second);
    expect(parsePage(signedOut.body).root.querySelector('.menu__who')).toBeNull();
    expect(setCookieFor(signedOut, SITE_SESSION_COOKIE)).toContain('Max-Age=0');
    // A suspension ends it as well.
    const third = await signInOnSite(t.app, user.username, NEW_PASSWORD);
    await db.updateTable('users').set({ status: 'suspended' }).where('id', '=', user.id).execute();
    expect((await getPage(t.app, '/account/saved-searches', third)).statusCode).toBe(303);
  });

  it('answers a reset request the same way, with the same work, whether the address is known or not', async () => {
    const user = await newUser(db);
    const outboxRows = () => db.selectFrom('outbox').select('id').where('channel', '=', 'password_reset').execute();
    const before = (await outboxRows()).length;
    const known = await postForm(t.app, '/forgot-password', { email: user.email });
    const unknown = await postForm(t.app, '/forgot-password', { email: 'nobody-here@example.test' });
    for (const res of [known, unknown]) {
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/forgot-password?sent=1');
      expect(setCookieHeaders(res)).toEqual([]);
    }
    expect(known.body).toBe(unknown.body);
    // One durable request each: which of them leads to a mail is decided later, out of the answer's sight.
    expect((await outboxRows()).length).toBe(before + 2);
    const sent = await getPage(t.app, '/forgot-password?sent=1');
    expect(noticesOf(sent.body)[0]).toMatch(/^If an account exists for that e-mail, we have sent it a link/);
    // A bot's post does nothing; a malformed address is said beside the field.
    expect((await postForm(t.app, '/forgot-password', { email: user.email, website: 'x' })).statusCode).toBe(303);
    expect((await outboxRows()).length).toBe(before + 2);
    const bad = await postForm(t.app, '/forgot-password', { email: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(fieldErrorOf(bad.body, 'forgot-email')).toBe('must be a valid email');
  });

  it('resets a password from the mail’s link, signing every device out', async () => {
    const user = await newUser(db);
    const signedIn = await signInOnSite(t.app, user.username);
    await postForm(t.app, '/forgot-password', { email: user.email });
    await t.services.outbox.runOnce();
    const mail = mailer.sent.filter((message) => message.to === user.email).at(-1)!;
    const link = /(https:\/\/\S+reset-password\?token=[A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect(link.startsWith(`${PUBLIC_URL}/reset-password?token=`)).toBe(true);
    const path = link.slice(PUBLIC_URL.length);
    const token = new URL(link).searchParams.get('token')!;

    const form = await getPage(t.app, path);
    expect(form.statusCode).toBe(200);
    expect(form.headers['cache-control']).toBe('no-store');
    expect(parsePage(form.body).root.querySelector('input[name="token"]')?.getAttribute('value')).toBe(token);

    const mismatch = await postForm(t.app, '/reset-password', { token, password: NEW_PASSWORD, password_confirm: 'something else' });
    expect(mismatch.statusCode).toBe(400);
    expect(fieldErrorOf(mismatch.body, 'reset-password_confirm')).toBe('does not match the new password');
    const short = await postForm(t.app, '/reset-password', { token, password: 'short', password_confirm: 'short' });
    expect(short.statusCode).toBe(400);
    expect(fieldErrorOf(short.body, 'reset-password')).toBe('must be at least 8 characters long');

    const done = await postForm(t.app, '/reset-password', { token, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/reset-password?done=1');
    const page = await getPage(t.app, '/reset-password?done=1');
    expect(noticesOf(page.body)[0]).toContain('Your password has been changed');
    expect(parsePage(page.body).root.querySelector('a.button[href="/sign-in"]')).not.toBeNull();
    expect((await getPage(t.app, '/account/favorites', signedIn)).statusCode).toBe(303);
    expect((await postForm(t.app, '/sign-in', { login: user.username, password: NEW_PASSWORD })).statusCode).toBe(303);

    // The link works once; a made-up one not at all.
    for (const used of [token, 'made-up-token']) {
      const again = await postForm(t.app, '/reset-password', { token: used, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD });
      expect(again.statusCode).toBe(400);
      expect(noticesOf(again.body)).toEqual(['This link is invalid, expired or already used.']);
      expect(parsePage(again.body).root.querySelector('a[href="/forgot-password"]')).not.toBeNull();
    }
    expect(noticesOf((await getPage(t.app, '/reset-password')).body)).toEqual(['This page needs the link from the password-reset e-mail.']);
  });
});

describeEachDialect('the account pages with registration closed and rate limits on (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect, {
      PUBLIC_URL,
      REGISTRATION_ENABLED: 'false',
      RATE_LIMIT_ENABLED: 'true',
      AUTH_RATE_LIMIT_PER_MINUTE: '3',
    });
  });
  afterAll(() => t.close());

  it('says plainly that registration is closed, and creates no account', async () => {
    const page = await getPage(t.app, '/sign-up');
    expect(page.statusCode).toBe(200);
    await expectValidHtml(page.body, 'the closed sign-up page');
    expect(noticesOf(page.body)).toEqual(['New accounts cannot be created on this site at the moment.']);
    expect(parsePage(page.body).root.querySelector('form')).toBeNull();
    const res = await postForm(t.app, '/sign-up', {
      username: 'closed_door',
      email: 'closed@example.test',
      password: 'long enough password',
    });
    expect(res.statusCode).toBe(403);
    expect(noticesOf(res.body)).toEqual(['New accounts cannot be created on this site at the moment.']);
  });

  it('limits the sign-in and reset posts per address, as the API’s sign-in routes', async () => {
    const user = await newUser(t.database.db);
    const attempts = [];
    for (let i = 0; i < 4; i++) {
      attempts.push(
        await t.app.inject({
          method: 'POST',
          url: '/sign-in',
          remoteAddress: '203.0.113.7',
          headers: { origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ login: user.username, password: 'wrong password' }).toString(),
        }),
      );
    }
    expect(attempts.map((res) => res.statusCode)).toEqual([400, 400, 400, 429]);
    const limited = attempts[3]!;
    expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await expectValidHtml(limited.body, 'the rate-limited page');
    // Another address has its own budget; the reset form has its own too.
    const other = await t.app.inject({
      method: 'POST',
      url: '/forgot-password',
      remoteAddress: '203.0.113.8',
      headers: { origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=someone%40example.test',
    });
    expect(other.statusCode).toBe(303);
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/forgot-password',
        remoteAddress: '203.0.113.9',
        headers: { origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=someone%40example.test',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([303, 303, 303, 429]);
  });
});
