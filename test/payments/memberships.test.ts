import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import type { TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newSignedInUser, newUser, tokenFor } from '../helpers/factories.js';
import { API, buildAppWithGateway, DAY_MS, FakeGateway, membershipOf, newMembership, newPackage } from './memberships-fixtures.js';

const iso = (ms: number) => new Date(ms).toISOString();
/** The API form of a stored timestamp (to the second). */
const apiTime = (stored: string) => `${stored.slice(0, 19)}Z`;

const NONE = {
  package: null,
  status: 'none',
  remaining_listings: null,
  remaining_featured: null,
  started_at: null,
  expires_at: null,
  auto_renew: false,
};
const NO_PACKAGE = {
  package_id: null,
  package_title: null,
  package_listings: null,
  package_remaining_listings: null,
  package_featured_listings: null,
  package_remaining_featured_listings: null,
  package_billing_period: null,
  package_billing_frequency: null,
  package_expired_date: null,
};

describeEachDialect('memberships (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  const gateway = new FakeGateway();

  beforeAll(async () => {
    t = await buildAppWithGateway(dialect, gateway);
    db = t.database.db;
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers });
  const cancel = (headers: Record<string, string>, payload?: object, query = '') =>
    t.app.inject({ method: 'POST', url: `${API}/membership/cancel${query}`, headers, ...(payload ? { payload } : {}) });
  const calls = (subscription: string) => gateway.cancelled.filter((id) => id === subscription).length;

  describe('GET /membership/package and GET /users/package', () => {
    it('answer `none` and nulls without a membership', async () => {
      const { auth } = await newSignedInUser(t, { role: 'buyer' });
      const membership = await get('/membership/package', auth);
      expect(membership.statusCode, membership.body).toBe(200);
      expect(membership.json()).toEqual({ success: true, data: NONE });
      const flat = await get('/users/package', auth);
      expect(flat.statusCode, flat.body).toBe(200);
      expect(flat.json()).toEqual({ success: true, data: NO_PACKAGE });
    });

    it('show an active membership with its package, credits and dates', async () => {
      const { user, auth } = await newSignedInUser(t, { role: 'agent' });
      const pkg = await newPackage(db, {
        price_minor: 2000,
        tax_rate_bp: 1000,
        listings_included: 10,
        featured_included: 2,
        billing_frequency: 3,
      });
      const row = await newMembership(db, user, pkg, {
        remaining_listings: 7,
        remaining_featured: 1,
        auto_renew: 1,
        stripe_subscription_id: `sub_${user.id}`,
      });

      const membership = await get('/membership/package', auth);
      expect(membership.statusCode, membership.body).toBe(200);
      expect(membership.json().data).toEqual({
        package: {
          id: pkg.id,
          title: pkg.title,
          description: '',
          price: 20,
          currency: 'USD',
          tax_rate: 10,
          total_price: 22,
          formatted_price: '$22 / 3 months',
          listings_included: 10,
          featured_included: 2,
          billing_period: 'month',
          billing_frequency: 3,
          visible: true,
          popular: false,
          order: 0,
        },
        status: 'active',
        remaining_listings: 7,
        remaining_featured: 1,
        started_at: apiTime(row.started_at),
        expires_at: apiTime(row.expires_at ?? ''),
        auto_renew: true,
      });

      const flat = await get('/users/package', auth);
      expect(flat.json().data).toEqual({
        package_id: pkg.id,
        package_title: pkg.title,
        package_listings: 10,
        package_remaining_listings: 7,
        package_featured_listings: 2,
        package_remaining_featured_listings: 1,
        package_billing_period: 'month',
        package_billing_frequency: 3,
        package_expired_date: apiTime(row.expires_at ?? ''),
      });
    });

    it('show unlimited listings as null in the membership and -1 in the flat form', async () => {
      const { user, auth } = await newSignedInUser(t, { role: 'agent' });
      const pkg = await newPackage(db, { listings_included: null, featured_included: 0, billing_period: 'one_time' });
      await newMembership(db, user, pkg, { expires_at: null });

      expect((await get('/membership/package', auth)).json().data).toMatchObject({
        status: 'active',
        remaining_listings: null,
        remaining_featured: 0,
        expires_at: null,
        package: { listings_included: null, billing_period: 'one_time' },
      });
      expect((await get('/users/package', auth)).json().data).toMatchObject({
        package_listings: -1,
        package_remaining_listings: -1,
        package_featured_listings: 0,
        package_remaining_featured_listings: 0,
        package_billing_period: 'one_time',
        package_expired_date: null,
      });
    });

    it('show `expired` and no credits once expires_at has passed, before the job stores it', async () => {
      const { user, auth } = await newSignedInUser(t, { role: 'agent' });
      const pkg = await newPackage(db, { listings_included: 10 });
      const expiresAt = iso(Date.now() - 60_000);
      await newMembership(db, user, pkg, { remaining_listings: 4, expires_at: expiresAt });

      expect((await get('/membership/package', auth)).json().data).toMatchObject({
        status: 'expired',
        remaining_listings: 0,
        remaining_featured: 0,
        expires_at: apiTime(expiresAt),
        package: { id: pkg.id },
      });
      expect((await get('/users/package', auth)).json().data).toMatchObject({
        package_id: pkg.id,
        package_listings: 10,
        package_remaining_listings: 0,
        package_remaining_featured_listings: 0,
        package_expired_date: apiTime(expiresAt),
      });
      // Stored as expired by the job: the same answer.
      await db.updateTable('memberships').set({ status: 'expired' }).where('user_id', '=', user.id).execute();
      expect((await get('/membership/package', auth)).json().data).toMatchObject({ status: 'expired', remaining_listings: 0 });
    });

    it('keep a membership that a subscription renews active for a day past expires_at', async () => {
      const { user, auth } = await newSignedInUser(t, { role: 'agent' });
      const pkg = await newPackage(db);
      await newMembership(db, user, pkg, {
        auto_renew: 1,
        stripe_subscription_id: `sub_${user.id}`,
        expires_at: iso(Date.now() - 3_600_000),
      });
      expect((await get('/membership/package', auth)).json().data).toMatchObject({ status: 'active', remaining_listings: 10 });

      await db
        .updateTable('memberships')
        .set({ expires_at: iso(Date.now() - DAY_MS - 60_000) })
        .where('user_id', '=', user.id)
        .execute();
      expect((await get('/membership/package', auth)).json().data).toMatchObject({ status: 'expired', remaining_listings: 0 });
    });

    it('show the caller’s own membership only', async () => {
      const owner = await newSignedInUser(t, { role: 'agent' });
      await newMembership(db, owner.user, await newPackage(db));
      const other = await newSignedInUser(t, { role: 'agent' });
      expect((await get('/membership/package', other.auth)).json().data).toEqual(NONE);
      expect((await get('/users/package', other.auth)).json().data).toEqual(NO_PACKAGE);
    });

    it('need a signed-in caller and refuse unknown query parameters', async () => {
      for (const url of ['/membership/package', '/users/package']) {
        const anonymous = await get(url);
        expect(anonymous.statusCode).toBe(401);
        expect(anonymous.json()).toMatchObject({ success: false, code: 'unauthorized' });
        expect((await get(url, { authorization: 'Bearer not-a-token' })).statusCode).toBe(401);
      }
      const { user, auth } = await newSignedInUser(t, { role: 'agent' });
      const other = await newUser(db);
      const probe = await get(`/membership/package?user_id=${other.id}`, auth);
      expect(probe.statusCode).toBe(400);
      expect(probe.json()).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ field: 'user_id' })] });
      expect((await get(`/users/package?user_id=${user.id}`, auth)).statusCode).toBe(400);
    });
  });

  describe('POST /membership/cancel', () => {
    it('cancels the Stripe subscription at period end once and stops renewal; the membership stays active', async () => {
      const { user, auth } = await newSignedInUser(t, { role: 'agent' });
      const subscription = `sub_${user.id}`;
      const row = await newMembership(db, user, await newPackage(db), { auto_renew: 1, stripe_subscription_id: subscription });

      const response = await cancel(auth);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        success: true,
        message: 'Your membership will not renew. It stays active until it expires.',
        data: { status: 'active', auto_renew: false, remaining_listings: 10, expires_at: apiTime(row.expires_at ?? '') },
      });
      expect(calls(subscription)).toBe(1);
      expect(await membershipOf(db, user.id)).toMatchObject({ status: 'active', auto_renew: 0, stripe_subscription_id: subscription });

      // Again: nothing left to stop, Stripe is not called a second time.
      const again = await cancel(auth, {});
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data).toMatchObject({ status: 'active', auto_renew: false });
      expect(calls(subscription)).toBe(1);
      expect((await get('/membership/package', auth)).json().data).toMatchObject({ status: 'active', auto_renew: false });
    });

    it('stops the renewal of a membership without subscription without calling Stripe', async () => {
      const { user, auth } = await newSignedInUser(t, { role: 'agent' });
      await newMembership(db, user, await newPackage(db), { auto_renew: 1 });
      const before = gateway.cancelled.length;

      const response = await cancel(auth);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ status: 'active', auto_renew: false });
      expect(gateway.cancelled.length).toBe(before);
      expect((await membershipOf(db, user.id))?.auto_renew).toBe(0);
    });

    it('answers 503 and changes nothing when Stripe fails', async () => {
      const { user, auth } = await newSignedInUser(t, { role: 'agent' });
      const subscription = `sub_${user.id}`;
      const row = await newMembership(db, user, await newPackage(db), { auto_renew: 1, stripe_subscription_id: subscription });
      gateway.failing = true;
      try {
        const response = await cancel(auth, undefined, '?lang=fr');
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({
          success: false,
          code: 'service_unavailable',
          message: 'Le prestataire de paiement est injoignable pour le moment. Réessayez bientôt.',
        });
        expect(response.body).not.toContain('Stripe is down');
      } finally {
        gateway.failing = false;
      }
      expect(await membershipOf(db, user.id)).toEqual(row);
      expect(calls(subscription)).toBe(0);

      // Once Stripe answers again, the same request succeeds.
      expect((await cancel(auth)).statusCode).toBe(200);
      expect(calls(subscription)).toBe(1);
    });

    it('answers 404 without a membership and 409 for one that has expired', async () => {
      const none = await newSignedInUser(t, { role: 'buyer' });
      const missing = await cancel(none.auth);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ success: false, code: 'not_found', message: 'You have no membership.' });
      expect(await membershipOf(db, none.user.id)).toBeUndefined();

      const lapsed = await newSignedInUser(t, { role: 'agent' });
      await newMembership(db, lapsed.user, await newPackage(db), {
        auto_renew: 1,
        stripe_subscription_id: `sub_${lapsed.user.id}`,
        expires_at: iso(Date.now() - 2 * DAY_MS),
      });
      const conflict = await cancel(lapsed.auth);
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json()).toMatchObject({ code: 'conflict', message: 'Your membership is expired: there is no renewal to stop.' });
      expect(calls(`sub_${lapsed.user.id}`)).toBe(0);
      expect((await membershipOf(db, lapsed.user.id))?.auto_renew).toBe(1);
    });

    it('refuses every body field (no mass assignment, no other user’s membership) and anonymous callers', async () => {
      const { user, auth } = await newSignedInUser(t, { role: 'agent' });
      const victim = await newUser(db);
      await newMembership(db, victim, await newPackage(db), { auto_renew: 1, stripe_subscription_id: `sub_${victim.id}` });
      await newMembership(db, user, await newPackage(db), { auto_renew: 1 });

      for (const payload of [{ auto_renew: true }, { user_id: victim.id }, { status: 'cancelled' }]) {
        const response = await cancel(auth, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json()).toMatchObject({ code: 'validation_failed' });
      }
      expect((await cancel(auth, undefined, `?user_id=${victim.id}`)).statusCode).toBe(400);
      expect((await membershipOf(db, user.id))?.auto_renew).toBe(1);

      expect((await cancel({})).statusCode).toBe(401);
      expect((await membershipOf(db, victim.id))?.auto_renew).toBe(1);
      expect(calls(`sub_${victim.id}`)).toBe(0);
    });
  });
});

describeEachDialect('memberships without a payment provider (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildAppWithGateway(dialect, undefined);
  });
  afterAll(() => t.close());

  it('cannot stop a Stripe subscription: 503, nothing changed; other memberships cancel', async () => {
    const db = t.database.db;
    const user = await newUser(db);
    await newMembership(db, user, await newPackage(db), { auto_renew: 1, stripe_subscription_id: `sub_${user.id}` });
    const response = await t.app.inject({ method: 'POST', url: `${API}/membership/cancel`, headers: bearer(await tokenFor(t.app, user)) });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'service_unavailable' });
    expect((await membershipOf(db, user.id))?.auto_renew).toBe(1);

    const plain = await newUser(db);
    await newMembership(db, plain, await newPackage(db), { auto_renew: 1 });
    const ok = await t.app.inject({ method: 'POST', url: `${API}/membership/cancel`, headers: bearer(await tokenFor(t.app, plain)) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await membershipOf(db, plain.id))?.auto_renew).toBe(0);
  });
});
