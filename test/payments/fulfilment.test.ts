import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { Fulfilment, type RenewalFacts } from '../../src/modules/payments/checkout/fulfilment.service.js';
import { ListingMoves } from '../../src/modules/properties/moderation/listing-moves.service.js';
import type { PaymentFacts } from '../../src/modules/payments/invoices/invoice-ledger.repository.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newListing, newUser } from '../helpers/factories.js';
import { DAY_MS, eventsOf, membershipOf, newMembership, newPackage, pendingInvoice } from './memberships-fixtures.js';

const iso = (ms: number) => new Date(ms).toISOString();

describeEachDialect('fulfilment (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  const withApproval = () => new Fulfilment(new ListingMoves({ requireApproval: true, ttlDays: undefined }));

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
  });
  afterAll(() => t.close());

  const settle = (invoiceId: number, facts: PaymentFacts, fulfilment = withApproval()) =>
    db.transaction().execute((trx) => fulfilment.settle(trx, invoiceId, facts));
  const renew = (facts: RenewalFacts) => db.transaction().execute((trx) => withApproval().renew(trx, facts));
  const endSubscription = (id: string) => db.transaction().execute((trx) => withApproval().endSubscription(trx, id, new Date()));
  const eventsFor = async (type: string, user: UserRow) => (await eventsOf(db, type)).filter((event) => event.user_id === user.id);
  const listingRow = (id: number) => db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const historyOf = (id: number) =>
    db
      .selectFrom('listing_transitions')
      .select(['from_state', 'to_state', 'actor_id', 'at'])
      .where('listing_id', '=', id)
      .orderBy('id')
      .execute();
  const invoicesOf = (user: UserRow) => db.selectFrom('invoices').selectAll().where('buyer_id', '=', user.id).orderBy('id').execute();

  describe('settle: packages', () => {
    it('activates the package: credits, period by the calendar, renewal and subscription, events', async () => {
      const buyer = await newUser(db, { role: 'agent' });
      const pkg = await newPackage(db, { listings_included: 10, featured_included: 2, billing_period: 'month', price_minor: 1999 });
      const invoice = await pendingInvoice(db, buyer, { type: 'package', id: pkg.id }, { amountMinor: 1999, recurring: true });
      const paidAt = new Date('2026-01-31T10:00:00.000Z');

      const paid = await settle(invoice.id, { paidAt, stripeSubscriptionId: 'sub_activate' });
      expect(paid).toMatchObject({ id: invoice.id, status: 'paid', paid_at: paidAt.toISOString() });
      expect(await membershipOf(db, buyer.id)).toMatchObject({
        package_id: pkg.id,
        status: 'active',
        remaining_listings: 10,
        remaining_featured: 2,
        started_at: '2026-01-31T10:00:00.000Z',
        expires_at: '2026-02-28T10:00:00.000Z',
        auto_renew: 1,
        stripe_subscription_id: 'sub_activate',
        expiry_notice_at: null,
      });
      expect(await eventsFor('membership_activated', buyer)).toEqual([
        expect.objectContaining({ user_id: buyer.id, package_id: pkg.id, invoice_id: invoice.id, expires_at: '2026-02-28T10:00:00.000Z' }),
      ]);
      expect(await eventsFor('payment_received', buyer)).toEqual([
        expect.objectContaining({ invoice_id: invoice.id, user_id: buyer.id, total: 19.99, currency: 'USD' }),
      ]);
    });

    it('replaces the previous membership, its credits, dates, renewal and notice', async () => {
      const buyer = await newUser(db, { role: 'agent' });
      const old = await newPackage(db);
      const before = await newMembership(db, buyer, old, {
        remaining_listings: 1,
        remaining_featured: 0,
        auto_renew: 1,
        stripe_subscription_id: 'sub_replaced',
        expiry_notice_at: new Date().toISOString(),
      });
      const unlimited = await newPackage(db, { listings_included: null, featured_included: 5, billing_period: 'one_time' });
      const invoice = await pendingInvoice(db, buyer, { type: 'package', id: unlimited.id });
      const paidAt = new Date();

      await settle(invoice.id, { paidAt });
      const rows = await db.selectFrom('memberships').selectAll().where('user_id', '=', buyer.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: before.id,
        package_id: unlimited.id,
        status: 'active',
        remaining_listings: null,
        remaining_featured: 5,
        started_at: paidAt.toISOString(),
        expires_at: null,
        auto_renew: 0,
        stripe_subscription_id: null,
        expiry_notice_at: null,
      });
    });

    it('ends the period by the package’s billing period and frequency', async () => {
      const paidAt = new Date('2028-02-29T12:00:00.000Z');
      const cases = [
        { billing_period: 'day', billing_frequency: 3, expected: '2028-03-03T12:00:00.000Z' },
        { billing_period: 'week', billing_frequency: 2, expected: '2028-03-14T12:00:00.000Z' },
        { billing_period: 'month', billing_frequency: 1, expected: '2028-03-29T12:00:00.000Z' },
        { billing_period: 'year', billing_frequency: 1, expected: '2029-02-28T12:00:00.000Z' },
        { billing_period: 'one_time', billing_frequency: 1, expected: null },
      ] as const;
      for (const { billing_period, billing_frequency, expected } of cases) {
        const buyer = await newUser(db);
        const pkg = await newPackage(db, { billing_period, billing_frequency });
        const invoice = await pendingInvoice(db, buyer, { type: 'package', id: pkg.id });
        await settle(invoice.id, { paidAt });
        expect((await membershipOf(db, buyer.id))?.expires_at, billing_period).toBe(expected);
      }
    });

    it('delivers once: settling a paid invoice again does nothing and returns undefined', async () => {
      const buyer = await newUser(db);
      const pkg = await newPackage(db, { listings_included: 3 });
      const invoice = await pendingInvoice(db, buyer, { type: 'package', id: pkg.id });
      expect(await settle(invoice.id, { paidAt: new Date() })).toBeDefined();
      await db.updateTable('memberships').set({ remaining_listings: 0 }).where('user_id', '=', buyer.id).execute();

      expect(await settle(invoice.id, { paidAt: new Date() })).toBeUndefined();
      expect((await membershipOf(db, buyer.id))?.remaining_listings).toBe(0);
      expect(await eventsFor('membership_activated', buyer)).toHaveLength(1);
      expect(await eventsFor('payment_received', buyer)).toHaveLength(1);
      expect(await settle(999_999, { paidAt: new Date() })).toBeUndefined();
    });

    it('records the payment of a buyer whose account is gone, without a membership', async () => {
      const buyer = await newUser(db);
      const pkg = await newPackage(db);
      const invoice = await pendingInvoice(db, buyer, { type: 'package', id: pkg.id });
      await db.deleteFrom('users').where('id', '=', buyer.id).execute();
      expect(await settle(invoice.id, { paidAt: new Date() })).toMatchObject({ status: 'paid', buyer_id: null });
      expect(await membershipOf(db, buyer.id)).toBeUndefined();
    });
  });

  describe('settle: listings and featured', () => {
    it('submits a paid draft to pending when approval is required, with a history entry by the buyer', async () => {
      const owner = await newUser(db, { role: 'seller' });
      const listing = await newListing(db, { status: 'draft', author_id: owner.id });
      const invoice = await pendingInvoice(db, owner, { type: 'listing', id: listing });
      const paidAt = new Date();

      await settle(invoice.id, { paidAt });
      expect(await listingRow(listing)).toMatchObject({ status: 'pending', published_at: null, expires_at: null });
      expect(await historyOf(listing)).toEqual([
        { from_state: 'draft', to_state: 'pending', actor_id: owner.id, at: paidAt.toISOString() },
      ]);
      expect(await eventsFor('payment_received', owner)).toHaveLength(1);
    });

    it('publishes a paid draft when approval is off, starting its LISTING_TTL_DAYS period', async () => {
      const owner = await newUser(db, { role: 'seller' });
      const listing = await newListing(db, { status: 'draft', author_id: owner.id });
      const invoice = await pendingInvoice(db, owner, { type: 'listing', id: listing });
      const paidAt = new Date();

      await settle(invoice.id, { paidAt }, new Fulfilment(new ListingMoves({ requireApproval: false, ttlDays: 30 })));
      expect(await listingRow(listing)).toMatchObject({
        status: 'publish',
        published_at: paidAt.toISOString(),
        expires_at: iso(paidAt.getTime() + 30 * DAY_MS),
      });
      expect(await historyOf(listing)).toEqual([
        { from_state: 'draft', to_state: 'publish', actor_id: owner.id, at: paidAt.toISOString() },
      ]);
    });

    it('leaves a listing that is no longer a draft as it is, and still records the payment', async () => {
      const owner = await newUser(db, { role: 'seller' });
      const listing = await newListing(db, { status: 'disapproved', author_id: owner.id });
      const invoice = await pendingInvoice(db, owner, { type: 'listing', id: listing });

      expect(
        await settle(invoice.id, { paidAt: new Date() }, new Fulfilment(new ListingMoves({ requireApproval: false, ttlDays: undefined }))),
      ).toBeDefined();
      expect((await listingRow(listing)).status).toBe('disapproved');
      expect(await historyOf(listing)).toEqual([]);
      expect(await eventsFor('payment_received', owner)).toHaveLength(1);
    });

    it('features the listing of a paid featured upgrade', async () => {
      const owner = await newUser(db, { role: 'seller' });
      const listing = await newListing(db, { status: 'publish', author_id: owner.id });
      const invoice = await pendingInvoice(db, owner, { type: 'featured', id: listing });

      await settle(invoice.id, { paidAt: new Date() });
      expect(await listingRow(listing)).toMatchObject({ status: 'publish', featured: 1 });
      expect(await eventsFor('payment_received', owner)).toHaveLength(1);
    });
  });

  describe('renew', () => {
    const renewing = async (
      overrides: Parameters<typeof newMembership>[3] = {},
      packageOverrides: Parameters<typeof newPackage>[1] = {},
    ) => {
      const user = await newUser(db, { role: 'agent' });
      const pkg = await newPackage(db, { listings_included: 10, featured_included: 2, price_minor: 1900, ...packageOverrides });
      const subscription = `sub_${user.id}`;
      const membership = await newMembership(db, user, pkg, {
        remaining_listings: 3,
        remaining_featured: 0,
        auto_renew: 1,
        stripe_subscription_id: subscription,
        expiry_notice_at: new Date().toISOString(),
        ...overrides,
      });
      return { user, pkg, subscription, membership };
    };
    /** Stripe's report of a paid renewal of the user's subscription. */
    const paidRenewal = (user: UserRow, totalMinor: number, paidAt = new Date()): RenewalFacts => ({
      stripeSubscriptionId: `sub_${user.id}`,
      stripeInvoiceId: `in_${user.id}`,
      totalMinor,
      currency: 'usd',
      paidAt,
    });

    it('records a paid recurring invoice, extends from the current expiry and resets the credits', async () => {
      const expiresAt = '2031-01-31T08:00:00.000Z';
      const { user, pkg, subscription } = await renewing({ expires_at: expiresAt });
      const paidAt = new Date();

      const paid = await renew(paidRenewal(user, 1900, paidAt));
      expect(paid).toMatchObject({
        status: 'paid',
        buyer_id: user.id,
        buyer_email: user.email,
        item_type: 'package',
        item_id: pkg.id,
        item_title: pkg.title,
        amount_minor: 1900,
        tax_minor: 0,
        total_minor: 1900,
        currency: 'USD',
        payment_method: 'stripe',
        recurring: 1,
        stripe_invoice_id: `in_${user.id}`,
        stripe_subscription_id: subscription,
        paid_at: paidAt.toISOString(),
      });
      expect(await membershipOf(db, user.id)).toMatchObject({
        status: 'active',
        remaining_listings: 10,
        remaining_featured: 2,
        expires_at: '2031-02-28T08:00:00.000Z',
        auto_renew: 1,
        expiry_notice_at: null,
      });
      expect(await eventsFor('payment_received', user)).toEqual([
        expect.objectContaining({ invoice_id: paid?.id, total: 19, currency: 'USD' }),
      ]);
    });

    it('starts the new period at the payment when the membership had already lapsed, and revives it', async () => {
      const { user } = await renewing({ status: 'expired', expires_at: iso(Date.now() - 5 * DAY_MS) }, { billing_period: 'week' });
      const paidAt = new Date();
      await renew({ ...paidRenewal(user, 1900, paidAt), currency: 'USD' });
      expect(await membershipOf(db, user.id)).toMatchObject({ status: 'active', expires_at: iso(paidAt.getTime() + 7 * DAY_MS) });
    });

    it('is idempotent by Stripe invoice id', async () => {
      const { user } = await renewing({ expires_at: '2031-05-10T00:00:00.000Z' });
      const facts = paidRenewal(user, 1900);
      expect(await renew(facts)).toBeDefined();
      await db.updateTable('memberships').set({ remaining_listings: 4 }).where('user_id', '=', user.id).execute();

      expect(await renew(facts)).toBeUndefined();
      expect(await membershipOf(db, user.id)).toMatchObject({ expires_at: '2031-06-10T00:00:00.000Z', remaining_listings: 4 });
      expect(await invoicesOf(user)).toHaveLength(1);
      expect(await eventsFor('payment_received', user)).toHaveLength(1);
    });

    it('records a replay racing the first delivery once, and two periods paid at once as two periods', async () => {
      const replayed = await renewing({ expires_at: '2031-03-15T00:00:00.000Z' });
      const facts = paidRenewal(replayed.user, 1900);
      const results = await Promise.all([renew(facts), renew(facts)]);
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
      expect(await invoicesOf(replayed.user)).toHaveLength(1);
      expect((await membershipOf(db, replayed.user.id))?.expires_at).toBe('2031-04-15T00:00:00.000Z');

      const twice = await renewing({ expires_at: '2031-03-15T00:00:00.000Z' });
      const nextPeriod = { ...paidRenewal(twice.user, 1900), stripeInvoiceId: `in_${twice.user.id}_b` };
      await Promise.all([renew(paidRenewal(twice.user, 1900)), renew(nextPeriod)]);
      expect(await invoicesOf(twice.user)).toHaveLength(2);
      expect((await membershipOf(db, twice.user.id))?.expires_at).toBe('2031-05-15T00:00:00.000Z');
    });

    it('does nothing for a subscription no membership has', async () => {
      const { user } = await renewing();
      const before = await membershipOf(db, user.id);
      const unknown = { ...paidRenewal(user, 1900), stripeSubscriptionId: 'sub_unknown', stripeInvoiceId: 'in_unknown' };
      expect(await renew(unknown)).toBeUndefined();
      expect(await membershipOf(db, user.id)).toEqual(before);
      expect(await db.selectFrom('invoices').select('id').where('stripe_invoice_id', '=', 'in_unknown').execute()).toEqual([]);
    });

    it('splits what Stripe charged at the package’s tax rate when it is not the package’s total', async () => {
      // 10.00 + 20 % = 12.00: the package's own figures.
      const a = await renewing({}, { price_minor: 1000, tax_rate_bp: 2000 });
      await renew(paidRenewal(a.user, 1200));
      expect((await invoicesOf(a.user))[0]).toMatchObject({ amount_minor: 1000, tax_minor: 200, total_minor: 1200, tax_rate_bp: 2000 });

      // The subscription still charges an older price: 15.00 = 12.50 + 2.50.
      const b = await renewing({}, { price_minor: 1000, tax_rate_bp: 2000 });
      await renew(paidRenewal(b.user, 1500));
      expect((await invoicesOf(b.user))[0]).toMatchObject({ amount_minor: 1250, tax_minor: 250, total_minor: 1500 });

      // No pre-tax amount gives 0.09 at 20 %: the invoice still totals what was charged.
      const c = await renewing({}, { price_minor: 1000, tax_rate_bp: 2000 });
      await renew(paidRenewal(c.user, 9));
      expect((await invoicesOf(c.user))[0]).toMatchObject({ amount_minor: 7, tax_minor: 2, total_minor: 9, status: 'paid' });
    });
  });

  describe('endSubscription', () => {
    it('stops the renewal of that membership only, once, and ignores unknown subscriptions', async () => {
      const pkg = await newPackage(db);
      const user = await newUser(db);
      const other = await newUser(db);
      const expiresAt = iso(Date.now() + 10 * DAY_MS);
      await newMembership(db, user, pkg, { auto_renew: 1, stripe_subscription_id: `sub_end_${user.id}`, expires_at: expiresAt });
      await newMembership(db, other, pkg, { auto_renew: 1, stripe_subscription_id: `sub_end_${other.id}` });

      await endSubscription(`sub_end_${user.id}`);
      await endSubscription(`sub_end_${user.id}`);
      await endSubscription('sub_never_seen');
      expect(await membershipOf(db, user.id)).toMatchObject({ status: 'active', auto_renew: 0, expires_at: expiresAt });
      expect(await membershipOf(db, other.id)).toMatchObject({ status: 'active', auto_renew: 1 });
    });
  });
});
