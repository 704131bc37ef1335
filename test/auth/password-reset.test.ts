import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Mailer, MailMessage } from '../../src/adapters/mail/mailer.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, DEFAULT_PASSWORD, newUser, tokenFor } from '../helpers/factories.js';

const RESET = '/realty-api/v1/auth/reset-password';
const CONFIRM = '/realty-api/v1/auth/reset-password/confirm';
const LOGIN = '/realty-api/v1/auth/login';
const NEW_PASSWORD = 'a brand new passphrase';

/** Keeps every message the outbox worker sends. */
class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
  close(): void {}
}

describeEachDialect('password reset (%s)', (dialect) => {
  let t: TestApp;
  const mailer = new CapturingMailer();

  beforeAll(async () => {
    t = await buildTestApp(dialect, { RESET_PASSWORD_URL: 'https://app.example.test/reset' }, { mailer });
  });
  afterAll(() => t.close());

  /** Delivers the queued reset requests, then the reset mails sent to an address, newest first, with the token of their link. */
  async function resetMailsTo(email: string) {
    await t.services.outbox.runOnce();
    return mailer.sent
      .filter((mail) => mail.to === email)
      .reverse()
      .map((mail) => ({ mail, token: /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] }));
  }

  const resetRequests = () =>
    t.database.db.selectFrom('outbox').selectAll().where('channel', '=', 'password_reset').orderBy('id').execute();

  const requestReset = (email: string, lang?: string) =>
    t.app.inject({ method: 'POST', url: `${RESET}${lang ? `?lang=${lang}` : ''}`, payload: { email } });

  it('answers the same for known and unknown addresses, and mails only the known one', async () => {
    const user = await newUser(t.database.db);
    const known = await requestReset(user.email.toUpperCase());
    const unknown = await requestReset('nobody-here@example.test');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe('If an account uses this address, a link to reset the password has been sent to it.');
    const mails = await resetMailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.mail.subject).toBe('Reset your password');
    expect(mails[0]!.mail.text).toContain('https://app.example.test/reset?token=');
    expect(await resetMailsTo('nobody-here@example.test')).toHaveLength(0);
    // Only the token's hash is stored.
    const stored = await t.database.db.selectFrom('password_resets').select('token_hash').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toBe(mails[0]!.token);
  });

  it('writes the mail in the user’s language, else the request’s', async () => {
    const french = await newUser(t.database.db, { language: 'fr' });
    const plain = await newUser(t.database.db);
    await requestReset(french.email, 'es');
    await requestReset(plain.email, 'es');
    expect((await resetMailsTo(french.email))[0]!.mail.subject).toBe('Réinitialisez votre mot de passe');
    expect((await resetMailsTo(plain.email))[0]!.mail.subject).toBe('Restablece tu contraseña');
  });

  it('confirm sets the password, revokes every session and spends the token', async () => {
    const user = await newUser(t.database.db);
    const before = await tokenFor(t.app, user);
    await requestReset(user.email);
    const { token } = (await resetMailsTo(user.email))[0]!;
    const res = await t.app.inject({ method: 'POST', url: CONFIRM, payload: { token, password: NEW_PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Your password was changed. Sign in with the new password.' });
    const validate = await t.app.inject({ method: 'POST', url: '/realty-api/v1/auth/validate-token', headers: bearer(before) });
    expect(validate.statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: LOGIN, payload: { username: user.username, password: DEFAULT_PASSWORD } })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: LOGIN, payload: { username: user.username, password: NEW_PASSWORD } })).statusCode,
    ).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: CONFIRM, payload: { token, password: 'yet another password' } });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'token', message: 'is invalid, expired or already used' }],
    });
  });

  it('one used token spends the user’s other outstanding tokens', async () => {
    const user = await newUser(t.database.db);
    await requestReset(user.email);
    await requestReset(user.email);
    const [newest, older] = await resetMailsTo(user.email);
    expect(
      (await t.app.inject({ method: 'POST', url: CONFIRM, payload: { token: newest!.token, password: NEW_PASSWORD } })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: CONFIRM, payload: { token: older!.token, password: NEW_PASSWORD } })).statusCode,
    ).toBe(400);
  });

  it('refuses expired and unknown tokens, and weak passwords', async () => {
    const user = await newUser(t.database.db);
    await requestReset(user.email);
    const { token } = (await resetMailsTo(user.email))[0]!;
    const weak = await t.app.inject({ method: 'POST', url: CONFIRM, payload: { token, password: 'short' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors[0].field).toBe('password');
    await t.database.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    expect((await t.app.inject({ method: 'POST', url: CONFIRM, payload: { token, password: NEW_PASSWORD } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: CONFIRM, payload: { token: 'made-up', password: NEW_PASSWORD } })).statusCode).toBe(
      400,
    );
  });

  it('lets only one of two concurrent confirmations with one token through', async () => {
    const user = await newUser(t.database.db);
    await requestReset(user.email);
    const { token } = (await resetMailsTo(user.email))[0]!;
    const passwords = ['first new password', 'second new password'];
    const results = await Promise.all(
      passwords.map((password) => t.app.inject({ method: 'POST', url: CONFIRM, payload: { token, password } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    // The password set is the winner's, and only it signs in: the loser changed nothing.
    const won = results.findIndex((r) => r.statusCode === 200);
    const signIn = async (password: string) =>
      (await t.app.inject({ method: 'POST', url: LOGIN, payload: { username: user.username, password } })).statusCode;
    expect(await signIn(passwords[won]!)).toBe(200);
    expect(await signIn(passwords[1 - won]!)).toBe(401);
  });

  it('validates the e-mail and refuses unknown fields', async () => {
    expect((await requestReset('not an email')).statusCode).toBe(400);
    const extra = await t.app.inject({ method: 'POST', url: RESET, payload: { email: 'a@example.test', user_id: 1 } });
    expect(extra.statusCode).toBe(400);
  });

  it('mails nothing to a suspended account', async () => {
    const user = await newUser(t.database.db, { status: 'suspended' });
    expect((await requestReset(user.email)).statusCode).toBe(200);
    expect(await resetMailsTo(user.email)).toHaveLength(0);
  });

  it('does the same work for known and unknown addresses: one request in the outbox, delivered later', async () => {
    const user = await newUser(t.database.db);
    await t.services.outbox.runOnce();
    const before = (await resetRequests()).length;
    await requestReset(user.email);
    await requestReset('nobody-at-all@example.test');
    const queued = (await resetRequests()).slice(before);
    expect(queued.map((row) => row.status)).toEqual(['pending', 'pending']);
    const [known, unknown] = queued.map((row) => JSON.parse(row.payload) as Record<string, unknown>);
    expect(Object.keys(known!).sort()).toEqual(Object.keys(unknown!).sort());
    expect(await t.database.db.selectFrom('password_resets').select('token_hash').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('delivers through the outbox worker and keeps no secret once sent', async () => {
    const user = await newUser(t.database.db);
    await requestReset(user.email);
    const [mail] = await resetMailsTo(user.email);
    expect(mail!.mail.idempotencyKey).toMatch(/^password-reset:[0-9a-f]{64}$/);
    const rows = await resetRequests();
    expect(rows.every((row) => row.status === 'sent')).toBe(true);
    expect(rows.map((row) => JSON.parse(row.payload))).toEqual(rows.map(() => ({})));
  });
});
