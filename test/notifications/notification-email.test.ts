import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from '../../src/adapters/mail/mailer.js';
import type { UserRow } from '../../src/db/schema/index.js';
import { enqueue } from '../../src/db/outbox.js';
import type { DeliveryPayload } from '../../src/modules/notifications/delivery/notifier.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { errorBody } from '../helpers/expectations.js';
import { bearer, newListing, newUser, tokenFor, unique } from '../helpers/factories.js';

const PUBLIC_URL = 'https://realty.test';
const API_PREFIX = '/wp-json';
const API = `${API_PREFIX}/realty-api/v1`;
const UNSUBSCRIBE = `${API}/notifications/unsubscribe`;

/** Keeps every message the outbox worker sends. */
class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
  close(): void {}
}

describeEachDialect('notification e-mails and their unsubscribe links (%s)', (dialect) => {
  let t: TestApp;
  let admin: string;
  const mailer = new CapturingMailer();

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL, API_PREFIX }, { mailer });
    admin = await tokenFor(t.app, await newUser(t.database.db, { role: 'administrator' }), { apiPrefix: API_PREFIX });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    mailer.sent.length = 0;
  });

  /** A user who asked for `system` e-mails (off by default), with the bearer token used to ask. */
  async function subscriber(overrides: Partial<Omit<UserRow, 'id'>> = {}): Promise<{ user: UserRow; token: string }> {
    const user = await newUser(t.database.db, overrides);
    const token = await tokenFor(t.app, user, { apiPrefix: API_PREFIX });
    const res = await t.app.inject({
      method: 'PUT',
      url: `${API}/notifications/preferences`,
      headers: bearer(token),
      payload: { preferences: { system: { email: true } } },
    });
    expect(res.statusCode).toBe(200);
    return { user, token };
  }

  const notify = async (userId: number, body: Record<string, unknown> = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/notifications`,
      headers: bearer(admin),
      payload: { title: 'Maintenance tonight', message: 'We will be down for an hour.', user_id: userId, ...body },
    });
    expect(res.statusCode).toBe(201);
  };

  /** Runs the outbox worker and answers the mails it sent to the user. */
  async function deliverTo(user: UserRow): Promise<MailMessage[]> {
    await t.services.outbox.runOnce();
    return mailer.sent.filter((mail) => mail.to === user.email);
  }

  async function onlyMailTo(user: UserRow): Promise<MailMessage> {
    const mails = await deliverTo(user);
    expect(mails).toHaveLength(1);
    return mails[0]!;
  }

  /** The unsubscribe link of a mail, as a path to inject. */
  function linkOf(mail: MailMessage): { path: string; token: string } {
    const header = mail.headers?.['List-Unsubscribe'];
    const url = new URL(/^<(.+)>$/.exec(header ?? '')![1]!);
    return { path: `${url.pathname}${url.search}`, token: url.searchParams.get('token')! };
  }

  const emailSwitches = async (token: string) => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/notifications/preferences`, headers: bearer(token) });
    return res.json().data.preferences as Record<string, { in_app: boolean; email: boolean; push: boolean }>;
  };

  const notificationRows = (userId: number) =>
    t.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('channel', '=', 'notification_email')
      .where('idempotency_key', 'like', `notification:${userId}:%`)
      .orderBy('id')
      .execute();

  it('e-mails an administrator’s notification with the unsubscribe link and RFC 8058 headers', async () => {
    const { user } = await subscriber({ display_name: 'Ann Example' });
    await notify(user.id);
    const mail = await onlyMailTo(user);
    const [row] = await notificationRows(user.id);
    const url = `${PUBLIC_URL}${UNSUBSCRIBE}?token=${linkOf(mail).token}`;
    expect(mail).toMatchObject({
      subject: 'Maintenance tonight',
      idempotencyKey: row!.idempotency_key,
      headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    expect(mail.text).toBe(
      'Hello Ann Example,\n\nWe will be down for an hour.\n\n-- \n' +
        'You get this e-mail because announcement e-mails are turned on for your account.\n' +
        `Unsubscribe from announcement e-mails: ${url}\n`,
    );
    expect(mail.html).toContain(`<a href="${url}">Unsubscribe from announcement e-mails</a>`);
    // Once sent, the outbox keeps who and what, not the text or the link.
    expect(row!.status).toBe('sent');
    expect(JSON.parse(row!.payload)).toEqual({ to: user.email, subject: 'Maintenance tonight', type: 'system' });
  });

  it('does not e-mail system notifications to users who did not ask for them', async () => {
    const user = await newUser(t.database.db);
    await notify(user.id);
    expect(await deliverTo(user)).toEqual([]);
    expect(await notificationRows(user.id)).toEqual([]);
  });

  it('writes the mail in the user’s language, Arabic right to left', async () => {
    const { user: spanish } = await subscriber({ language: 'es', display_name: 'Lucía' });
    const { user: arabic } = await subscriber({ language: 'ar', display_name: 'سارة' });
    await notify(spanish.id);
    await notify(arabic.id);
    const es = await onlyMailTo(spanish);
    expect(es.text).toMatch(/^Hola, Lucía:\n/);
    expect(es.text).toContain(`Darte de baja de los correos de avisos del sistema: ${PUBLIC_URL}${UNSUBSCRIBE}?token=`);
    expect(es.html).toContain('<html lang="es" dir="ltr">');
    const ar = await onlyMailTo(arabic);
    expect(ar.text).toMatch(/^مرحبًا سارة،\n/);
    expect(ar.text).toContain('إلغاء الاشتراك في رسائل إشعارات الإدارة:');
    expect(ar.html).toContain('<html lang="ar" dir="rtl">');
    expect(ar.html).toContain('<body dir="rtl"');
  });

  it('escapes the HTML part', async () => {
    const { user } = await subscriber({ display_name: 'Tom & <Jerry>' });
    // Tags are removed from an administrator's title (plain text); what survives is still escaped.
    await notify(user.id, { title: 'Rooms <3 & "deals" < script', message: 'a < b\nc > d' });
    const mail = await onlyMailTo(user);
    expect(mail.subject).toBe('Rooms <3 & "deals" < script');
    expect(mail.html).toContain('<title>Rooms &lt;3 &amp; &quot;deals&quot; &lt; script</title>');
    expect(mail.html).toContain('Hello Tom &amp; &lt;Jerry&gt;,');
    expect(mail.html).toContain('a &lt; b<br>c &gt; d');
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('<Jerry>');
    // A text written by the service itself could hold anything: it is escaped all the same.
    const payload: DeliveryPayload = {
      user_id: user.id,
      type: 'system',
      title: '<script>alert(1)</script>',
      message: '<img src=x onerror=alert(1)>',
      data: {},
      notification_id: null,
    };
    await enqueue(t.database.db, {
      channel: 'notification_email',
      idempotencyKey: `notification:${user.id}:${unique('raw:')}:email`,
      payload,
    });
    const raw = (await deliverTo(user)).at(-1)!;
    expect(raw.html).not.toMatch(/<script|<img/);
    expect(raw.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(raw.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('links the listing of `property_id`, and lists a digest’s listings (20 at most)', async () => {
    const { user } = await subscriber();
    const slug = unique('sea-view-');
    const listing = await newListing(t.database.db, { slug, title: 'Sea view' });
    await notify(user.id, { data: { property_id: listing } });
    const single = await onlyMailTo(user);
    expect(single.text).toContain(`View the listing: ${PUBLIC_URL}/property/${slug}`);
    expect(single.html).toContain(`<a href="${PUBLIC_URL}/property/${slug}">View the listing</a>`);

    mailer.sent.length = 0;
    const published = [];
    for (let n = 0; n < 22; n++) published.push(await newListing(t.database.db, { title: `Digest ${String(n).padStart(2, '0')}` }));
    const draft = await newListing(t.database.db, { status: 'draft', title: 'Not public' });
    await notify(user.id, { type: 'saved_search_match', data: { saved_search_id: 1, property_ids: [draft, ...published] } });
    const digest = await onlyMailTo(user);
    const slugs = await t.database.db.selectFrom('listings').select(['id', 'slug']).where('id', 'in', published).execute();
    const slugOf = new Map(slugs.map((row) => [row.id, row.slug]));
    expect(digest.text).toContain(`- Digest 00\n  ${PUBLIC_URL}/property/${slugOf.get(published[0]!)}`);
    expect(digest.text).toContain('- Digest 19');
    expect(digest.text).not.toContain('Digest 20');
    expect(digest.text).not.toContain('Not public');
    expect(digest.text).toContain('… and 2 more');
    expect(digest.html!.match(/<li>/g)).toHaveLength(20);
    expect(digest.text).toContain('Unsubscribe from saved search alert e-mails:');
  });

  it('GET on the link answers the state and changes nothing; POST turns that type off', async () => {
    const { user, token } = await subscriber();
    await notify(user.id);
    const link = linkOf(await onlyMailTo(user));

    for (let n = 0; n < 2; n++) {
      const look = await t.app.inject({ method: 'GET', url: link.path });
      expect(look.statusCode).toBe(200);
      expect(look.headers['cache-control']).toBe('no-store');
      expect(look.json()).toEqual({ success: true, data: { type: 'system', email: true, confirm: 'POST this URL to unsubscribe' } });
    }
    expect((await emailSwitches(token)).system).toEqual({ in_app: true, email: true, push: true });

    const off = await t.app.inject({ method: 'POST', url: link.path });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ success: true, data: { type: 'system', email: false } });
    expect((await emailSwitches(token)).system).toEqual({ in_app: true, email: false, push: true });
    expect((await t.app.inject({ method: 'GET', url: link.path })).json().data).toMatchObject({ type: 'system', email: false });
    // Idempotent.
    expect((await t.app.inject({ method: 'POST', url: link.path })).statusCode).toBe(200);

    // The next notification of the type is still in the app, but not e-mailed.
    mailer.sent.length = 0;
    const before = (await notificationRows(user.id)).length;
    await notify(user.id, { title: 'Second' });
    expect(await deliverTo(user)).toEqual([]);
    expect(await notificationRows(user.id)).toHaveLength(before);
    const inApp = await t.app.inject({ method: 'GET', url: `${API}/notifications`, headers: bearer(token) });
    expect(inApp.json().data.notifications[0]).toMatchObject({ title: 'Second', type: 'system' });
  });

  it('skips a mail queued before the user unsubscribed', async () => {
    const { user } = await subscriber();
    await notify(user.id);
    const link = linkOf(await onlyMailTo(user));
    await notify(user.id, { title: 'Queued before' });
    expect((await t.app.inject({ method: 'POST', url: link.path })).statusCode).toBe(200);
    expect(await deliverTo(user)).toHaveLength(1); // only the first one
    const rows = await notificationRows(user.id);
    expect(rows.map((row) => [row.status, JSON.parse(row.payload)])).toEqual([
      ['sent', { to: user.email, subject: 'Maintenance tonight', type: 'system' }],
      ['sent', { skipped: 'unsubscribed' }],
    ]);
  });

  it('a token for one type leaves the other types alone', async () => {
    const { user, token } = await subscriber();
    const listing = await newListing(t.database.db, { author_id: user.id });
    await notify(user.id, { type: 'property_approved', title: 'Approved', data: { property_id: listing } });
    const approval = linkOf(await onlyMailTo(user));
    expect((await t.app.inject({ method: 'POST', url: approval.path })).json().data).toEqual({ type: 'property_approved', email: false });
    const switches = await emailSwitches(token);
    expect(switches.property_approved!.email).toBe(false);
    expect(switches.system!.email).toBe(true);
    expect(switches.property_expired!.email).toBe(true);
    mailer.sent.length = 0;
    await notify(user.id, { title: 'Still e-mailed' });
    expect((await onlyMailTo(user)).subject).toBe('Still e-mailed');
  });

  it('refuses a missing, malformed, forged or tampered token with 400 on `token`', async () => {
    const { user, token } = await subscriber();
    const other = await subscriber();
    await notify(user.id);
    const { token: good } = linkOf(await onlyMailTo(user));
    const [payload, signature] = good.split('.') as [string, string];
    const forUser = (id: number, type = 'system') => `${Buffer.from(`${id}.${type}`).toString('base64url')}.${signature}`;
    const flipped = `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of ['garbage', `${payload}.`, flipped, forUser(other.user.id), forUser(user.id, 'new_review'), `${good}x`]) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await t.app.inject({ method, url: `${UNSUBSCRIBE}?token=${encodeURIComponent(bad)}` });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ ...errorBody('validation_failed'), errors: [{ field: 'token', message: expect.any(String) }] });
      }
    }
    const missing = await t.app.inject({ method: 'POST', url: UNSUBSCRIBE });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].field).toBe('token');
    const french = await t.app.inject({ method: 'POST', url: `${UNSUBSCRIBE}?token=garbage&lang=fr` });
    expect(french.json().errors[0].message).toBe('n’est pas un lien de désabonnement valide : copiez le lien complet de l’e-mail');
    // Nothing changed for either user.
    expect((await emailSwitches(token)).system!.email).toBe(true);
    expect((await emailSwitches(other.token)).system!.email).toBe(true);
  });

  it('one user’s link never touches another user', async () => {
    const first = await subscriber();
    const second = await subscriber();
    await notify(first.user.id);
    await notify(second.user.id);
    const firstLink = linkOf(await onlyMailTo(first.user));
    const secondLink = linkOf(mailer.sent.find((mail) => mail.to === second.user.email)!);
    expect(firstLink.token).not.toBe(secondLink.token);
    // Signed in as the second user changes nothing: the token alone decides whose e-mail it is.
    const res = await t.app.inject({ method: 'POST', url: firstLink.path, headers: bearer(second.token) });
    expect(res.statusCode).toBe(200);
    expect((await emailSwitches(first.token)).system!.email).toBe(false);
    expect((await emailSwitches(second.token)).system!.email).toBe(true);
  });

  it('skips the mail of a user deleted since, and answers 404 for their link', async () => {
    const { user } = await subscriber();
    await notify(user.id);
    const link = linkOf(await onlyMailTo(user));
    await notify(user.id, { title: 'After deletion' });
    await t.database.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await deliverTo(user)).toHaveLength(1);
    const rows = await t.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('idempotency_key', 'like', `notification:${user.id}:%`)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.status, row.last_error, JSON.parse(row.payload)]).at(-1)).toEqual([
      'sent',
      null,
      { skipped: 'recipient deleted' },
    ]);
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url: link.path });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody('not_found'));
    }
  });

  it('takes the RFC 8058 one-click form body, an empty body or `{}`, and nothing else', async () => {
    const { user } = await subscriber();
    await notify(user.id);
    const { path } = linkOf(await onlyMailTo(user));
    const post = (payload: string | undefined, contentType?: string) =>
      t.app.inject({
        method: 'POST',
        url: path,
        ...(payload === undefined ? {} : { payload }),
        headers: contentType ? { 'content-type': contentType } : {},
      });

    const oneClick = await post('List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded');
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json().data).toEqual({ type: 'system', email: false });
    expect((await post('', 'application/json')).statusCode).toBe(200);
    expect((await post('{}', 'application/json')).statusCode).toBe(200);
    expect((await post('', 'application/x-www-form-urlencoded')).statusCode).toBe(200);

    const wrongValue = await post('List-Unsubscribe=Yes', 'application/x-www-form-urlencoded');
    expect(wrongValue.statusCode).toBe(400);
    expect(wrongValue.json().errors[0].field).toBe('List-Unsubscribe');
    const unknown = await post('List-Unsubscribe=One-Click&user_id=1', 'application/x-www-form-urlencoded');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('user_id');
    expect((await post('{"user_id": 1}', 'application/json')).statusCode).toBe(400);
    expect((await post('{nope', 'application/json')).json().code).toBe('invalid_json');
    expect((await post('hello', 'text/plain')).statusCode).toBe(415);
    expect((await post('x'.repeat(2000), 'application/x-www-form-urlencoded')).statusCode).toBe(413);
  });

  it('keeps form bodies to this route: others still refuse them', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `${API}/notifications/preferences`,
      headers: { ...bearer((await subscriber()).token), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'preferences=1',
    });
    expect(res.statusCode).toBe(415);
  });

  it('documents both operations in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/openapi.json` });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, { tags?: string[] }>>;
    const entry = Object.entries(paths).find(([path]) => path.endsWith('/notifications/unsubscribe'))?.[1];
    expect(entry?.get?.tags).toEqual(['notifications']);
    expect(entry?.post?.tags).toEqual(['notifications']);
  });
});

describe('notification e-mail over SMTP', () => {
  let smtp: SMTPServer;
  let t: TestApp;
  const received: string[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push(raw);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await buildTestApp('sqlite', { SMTP_URL: `smtp://127.0.0.1:${port}`, PUBLIC_URL });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends the List-Unsubscribe headers unbroken, with a text and an HTML part', async () => {
    const user = await newUser(t.database.db, { language: 'fr' });
    const payload: DeliveryPayload = {
      user_id: user.id,
      type: 'new_review',
      title: 'Nouvel avis',
      message: 'Bravo',
      data: {},
      notification_id: null,
    };
    await enqueue(t.database.db, { channel: 'notification_email', idempotencyKey: `notification:${user.id}:smtp:email`, payload });
    expect(await t.services.outbox.runOnce()).toBe(1);
    expect(received).toHaveLength(1);
    // Unfold the header lines before reading them.
    const headers = received[0]!.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    const link = /^List-Unsubscribe: <(https:\/\/realty\.test\/realty-api\/v1\/notifications\/unsubscribe\?token=[A-Za-z0-9_.%-]+)>$/m.exec(
      headers,
    );
    expect(link).not.toBeNull();
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(headers).toMatch(/^X-Idempotency-Key: notification:\d+:smtp:email$/m);
    expect(received[0]).toContain('multipart/alternative');
    const res = await t.app.inject({ method: 'GET', url: link![1]!.slice(PUBLIC_URL.length) });
    expect(res.json().data).toEqual({ type: 'new_review', email: true, confirm: 'POST this URL to unsubscribe' });
  });
});
