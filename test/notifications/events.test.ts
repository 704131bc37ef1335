import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordEvent } from '../../src/db/domain-events.js';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newListing, newUser, tokenFor } from '../helpers/factories.js';

const API = '/realty-api/v1';
const DAY = 86_400_000;

describeEachDialect('notifications: events (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let moderator: { authorization: string };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    moderator = bearer(await tokenFor(t.app, await newUser(db, { role: 'manager' })));
  });
  afterAll(() => t.close());

  const process = () => t.services.notificationEvents.runOnce();
  const notificationsOf = (user: UserRow) =>
    db
      .selectFrom('notifications')
      .select(['type', 'title', 'message', 'data', 'source'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
  const outboxOf = (user: UserRow) =>
    db
      .selectFrom('outbox')
      .select(['channel', 'idempotency_key', 'payload'])
      .where('idempotency_key', 'like', `notification:${user.id}:%`)
      .orderBy('id')
      .execute();
  const act = (path: string, id: number, body: object = {}) =>
    t.app.inject({ method: 'POST', url: `${API}/users/${path}/${id}`, headers: moderator, payload: body });

  it('tells the owner of an approval, a disapproval with its reason, and an expiry, once each', async () => {
    const owner = await newUser(db, { role: 'owner' });
    const listing = await newListing(db, { status: 'pending', author_id: owner.id, title: 'Sea view flat' });
    expect((await act('approve-property', listing)).statusCode).toBe(200);
    expect((await act('disapprove-property', listing, { reason: 'Photos missing' })).statusCode).toBe(200);
    await db
      .updateTable('listings')
      .set({ status: 'publish', expires_at: new Date(Date.now() - DAY).toISOString() })
      .where('id', '=', listing)
      .execute();
    expect(await t.services.listingExpiry.runOnce()).toBe(1);

    const { processed } = await process();
    expect(processed).toBeGreaterThanOrEqual(4);
    const rows = await notificationsOf(owner);
    expect(rows.map((r) => [r.type, r.title, r.message, JSON.parse(r.data)])).toEqual([
      ['property_approved', 'Your listing was approved', '“Sea view flat” is now published.', { property_id: listing }],
      [
        'property_disapproved',
        'Your listing was not approved',
        '“Sea view flat” was not approved: Photos missing',
        { property_id: listing, reason: 'Photos missing' },
      ],
      ['property_expired', 'Your listing expired', '“Sea view flat” is no longer published.', { property_id: listing }],
    ]);
    // Each with an e-mail (on by default) and no push (FCM not configured).
    expect((await outboxOf(owner)).map((m) => m.channel)).toEqual(['notification_email', 'notification_email', 'notification_email']);
    // Processing again, even after a crash lost the `processed_at` marks, writes nothing twice.
    await db.updateTable('domain_events').set({ processed_at: null }).execute();
    await process();
    expect(await notificationsOf(owner)).toHaveLength(3);
    expect(await outboxOf(owner)).toHaveLength(3);
  });

  it('writes in the recipient’s language', async () => {
    const owner = await newUser(db, { role: 'owner', language: 'es' });
    const listing = await newListing(db, { status: 'pending', author_id: owner.id, title: 'Ático' });
    await act('approve-property', listing);
    await process();
    const [row] = await notificationsOf(owner);
    expect([row?.title, row?.message]).toEqual(['Tu anuncio fue aprobado', '«Ático» ya está publicado.']);
  });

  it('announces a lead to its recipient in the app, without a second e-mail beside the lead’s own', async () => {
    const owner = await newUser(db, { role: 'owner' });
    const listing = await newListing(db, { author_id: owner.id, title: 'Garden house' });
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/properties/${listing}/contact`,
      payload: { name: 'Ana Buyer', email: 'ana@example.test', message: 'Is it available?' },
    });
    expect(res.statusCode, res.body).toBe(201);
    await process();
    const [row] = await notificationsOf(owner);
    expect(row).toMatchObject({ type: 'new_lead', title: 'New inquiry', message: 'Ana Buyer sent an inquiry about “Garden house”.' });
    expect(JSON.parse(row!.data)).toEqual({ lead_id: res.json().data.lead_id, property_id: listing });
    expect(await outboxOf(owner)).toEqual([]);
    // The lead's own mail went out as before.
    const mails = await db
      .selectFrom('outbox')
      .select('channel')
      .where('idempotency_key', '=', `lead:${res.json().data.lead_id}:${owner.id}`)
      .execute();
    expect(mails).toEqual([{ channel: 'email' }]);
  });

  it('stops the lead mail itself when the recipient turned new_lead e-mails off', async () => {
    const owner = await newUser(db, { role: 'owner' });
    const auth = bearer(await tokenFor(t.app, owner));
    await t.app.inject({
      method: 'PUT',
      url: `${API}/notifications/preferences`,
      headers: auth,
      payload: { preferences: { new_lead: { email: false } } },
    });
    const listing = await newListing(db, { author_id: owner.id });
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/properties/${listing}/contact`,
      payload: { name: 'Bo', email: 'bo@example.test', message: 'Hi' },
    });
    expect(res.statusCode).toBe(201);
    expect(
      await db.selectFrom('outbox').select('id').where('idempotency_key', '=', `lead:${res.json().data.lead_id}:${owner.id}`).execute(),
    ).toEqual([]);
    const leads = await t.app.inject({ method: 'GET', url: `${API}/users/leads`, headers: auth });
    expect(leads.json().data.leads).toHaveLength(1);
  });

  it('announces a new review of one’s listing', async () => {
    const owner = await newUser(db, { role: 'owner' });
    const reviewer = await newUser(db, { display_name: 'Rita Reviewer' });
    const listing = await newListing(db, { author_id: owner.id, title: 'Loft' });
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/properties/${listing}/reviews`,
      headers: bearer(await tokenFor(t.app, reviewer)),
      payload: { rating: 4, content: 'Nice' },
    });
    expect(res.statusCode, res.body).toBe(201);
    await process();
    const [row] = await notificationsOf(owner);
    expect(row).toMatchObject({ type: 'new_review', message: 'Rita Reviewer rated “Loft” 4/5.' });
    expect(JSON.parse(row!.data)).toEqual({ review_id: res.json().data.id, rating: 4, property_id: listing });
    expect(await notificationsOf(reviewer)).toEqual([]);
  });

  it('announces memberships and payments', async () => {
    const buyer = await newUser(db, { language: 'fr' });
    await recordEvent(db, 'payment_received', {
      invoice_id: 9,
      invoice_number: 'INV-2026-000009',
      user_id: buyer.id,
      total: 49.5,
      currency: 'EUR',
    });
    await recordEvent(db, 'membership_activated', {
      user_id: buyer.id,
      membership_id: 3,
      package_id: 2,
      package_title: 'Gold',
      invoice_id: 9,
      expires_at: '2026-12-21T00:00:00.000Z',
    });
    await recordEvent(db, 'membership_expiring', {
      user_id: buyer.id,
      membership_id: 3,
      package_id: 2,
      expires_at: '2026-12-21T00:00:00.000Z',
      auto_renew: false,
    });
    await recordEvent(db, 'membership_expiring', {
      user_id: buyer.id,
      membership_id: 4,
      package_id: 2,
      expires_at: '2027-01-21T00:00:00.000Z',
      auto_renew: true,
    });
    await recordEvent(db, 'membership_expired', {
      user_id: buyer.id,
      membership_id: 3,
      package_id: 2,
      expires_at: '2026-12-21T00:00:00.000Z',
      listings_expired: 2,
    });
    await process();
    const rows = await notificationsOf(buyer);
    expect(rows.map((r) => [r.type, r.message])).toEqual([
      ['payment_received', expect.stringMatching(/^Nous avons reçu .*49[.,]50.* pour la facture INV-2026-000009\.$/)],
      ['membership_activated', 'Votre formule « Gold » est active.'],
      ['membership_expiring', 'Votre formule se termine le 2026-12-21.'],
      ['membership_expiring', 'Votre formule se renouvelle le 2027-01-21.'],
      ['membership_expired', 'Votre formule est terminée ; 2 annonces ont expiré avec elle.'],
    ]);
  });

  it('announces a listing entering publish to the instant saved searches it matches, once', async () => {
    const owner = await newUser(db, { role: 'owner' });
    const searcher = await newUser(db);
    const auth = bearer(await tokenFor(t.app, searcher));
    const saved = await t.app.inject({
      method: 'POST',
      url: `${API}/saved-searches`,
      headers: auth,
      payload: { name: 'Cheap lofts', query: { keyword: 'loftwithaview', max_price: 300000 }, frequency: 'instant' },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const match = await newListing(db, { status: 'pending', author_id: owner.id, title: 'Loftwithaview downtown', price: 250000 });
    const tooDear = await newListing(db, { status: 'pending', author_id: owner.id, title: 'Loftwithaview uptown', price: 900000 });
    for (const id of [match, tooDear]) await act('approve-property', id);
    await process();
    const rows = await notificationsOf(searcher);
    expect(rows.map((r) => [r.type, r.title, JSON.parse(r.data)])).toEqual([
      ['saved_search_match', 'New match for “Cheap lofts”', { saved_search_id: saved.json().data.id, property_id: match }],
    ]);
    // Leaving and re-entering publish announces nothing again.
    await act('disapprove-property', match);
    await act('approve-property', match);
    await process();
    expect(await notificationsOf(searcher)).toHaveLength(1);
  });

  it('skips events whose listing or user is gone, and marks them processed', async () => {
    const owner = await newUser(db, { role: 'owner' });
    const listing = await newListing(db, { status: 'pending', author_id: owner.id });
    await act('approve-property', listing);
    await db.deleteFrom('listings').where('id', '=', listing).execute();
    await recordEvent(db, 'payment_received', { invoice_id: 1, invoice_number: 'INV-1', user_id: 999_999_999, total: 1, currency: 'USD' });
    await process();
    expect(await notificationsOf(owner)).toEqual([]);
    const pending = await db.selectFrom('domain_events').select('id').where('processed_at', 'is', null).execute();
    expect(pending).toEqual([]);
  });
});
