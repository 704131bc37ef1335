import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { Fulfilment } from '../../src/modules/payments/checkout/fulfilment.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type FakeStripe, startFakeStripe } from '../helpers/fake-stripe.js';
import { bearer, newAgencyWithAgent, newListing, tokenFor } from '../helpers/factories.js';
import { invoiceRow, invoicesOf, postCheckout, signedIn } from './checkout-fixtures.js';

const SESSIONS = '/v1/checkout/sessions';
/** LISTING_PRICE 10 and FEATURED_PRICE 4.50 in EUR, plus 20 % tax. */
const FEES = { PAYMENT_MODE: 'per_listing', DEFAULT_CURRENCY: 'EUR', LISTING_PRICE: '10', FEATURED_PRICE: '4.50', TAX_RATE: '20' };

function listingState(db: Kysely<DB>, id: number) {
  return db.selectFrom('listings').select(['status', 'featured']).where('id', '=', id).executeTakeFirstOrThrow();
}

describeEachDialect('POST /payments/checkout: listing fees and featured upgrades (%s)', (dialect) => {
  let stripe: FakeStripe;
  let t: TestApp;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await buildTestApp(dialect, { ...stripe.env(), ...FEES });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });
  beforeEach(() => {
    stripe.requests.length = 0;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('listing', () => {
    it('invoices the author’s draft at the configured fee and tax and opens a payment session', async () => {
      const { user, auth } = await signedIn(t);
      const listing = await newListing(t.database.db, { status: 'draft', author_id: user.id, title: 'Sea view flat' });
      const res = await postCheckout(t.app, auth, { item: 'listing', id: listing, method: 'stripe' });
      expect(res.statusCode, res.body).toBe(201);
      const { invoice, checkout_url } = res.json().data;
      expect(invoice).toMatchObject({
        item: { type: 'listing', id: listing, title: 'Sea view flat' },
        amount: 10,
        tax: 2,
        tax_rate: 20,
        total: 12,
        currency: 'EUR',
        status: 'pending',
        payment_method: 'stripe',
        recurring: false,
      });
      expect(checkout_url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
      expect(stripe.requestsTo(SESSIONS)[0]!.body).toMatchObject({
        mode: 'payment',
        line_items: [{ price_data: { currency: 'eur', unit_amount: '1200', product_data: { name: 'Sea view flat' } } }],
        client_reference_id: String(invoice.id),
        metadata: { invoice_id: String(invoice.id) },
      });
    });

    it('lets the agency of the authoring agent pay, as an owner', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(t.database.db);
      const listing = await newListing(t.database.db, { status: 'draft', author_id: agentUser.id });
      const auth = bearer(await tokenFor(t.app, agencyUser));
      const res = await postCheckout(t.app, auth, { item: 'listing', id: listing, method: 'bank_transfer' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.invoice).toMatchObject({ buyer: { id: agencyUser.id }, item: { type: 'listing', id: listing } });
    });

    it('hides others’ drafts (404) and refuses others’ visible listings (403), moderators included', async () => {
      const owner = await signedIn(t);
      const stranger = await signedIn(t);
      const admin = await signedIn(t, 'administrator');
      const draft = await newListing(t.database.db, { status: 'draft', author_id: owner.user.id });
      const published = await newListing(t.database.db, { status: 'publish', author_id: owner.user.id });
      const cases = [
        { auth: stranger.auth, id: draft, status: 404, code: 'not_found' },
        { auth: stranger.auth, id: 999_999, status: 404, code: 'not_found' },
        { auth: stranger.auth, id: published, status: 403, code: 'forbidden' },
        { auth: admin.auth, id: draft, status: 403, code: 'forbidden' },
      ];
      for (const c of cases) {
        const res = await postCheckout(t.app, c.auth, { item: 'listing', id: c.id, method: 'bank_transfer' });
        expect(res.statusCode, res.body).toBe(c.status);
        expect(res.json().code).toBe(c.code);
      }
      expect(await invoicesOf(t.database.db, stranger.user.id)).toHaveLength(0);
      expect(await invoicesOf(t.database.db, admin.user.id)).toHaveLength(0);
    });

    it('answers 409 for a listing that is not a draft, or whose fee was paid already', async () => {
      const { user, auth } = await signedIn(t);
      const pending = await newListing(t.database.db, { status: 'pending', author_id: user.id });
      const notDraft = await postCheckout(t.app, auth, { item: 'listing', id: pending, method: 'bank_transfer' });
      expect(notDraft.statusCode).toBe(409);
      expect(notDraft.json()).toMatchObject({
        code: 'conflict',
        message: 'Only a draft listing’s fee can be paid; this listing is pending.',
      });

      const draft = await newListing(t.database.db, { status: 'draft', author_id: user.id });
      const first = await postCheckout(t.app, auth, { item: 'listing', id: draft, method: 'bank_transfer' });
      expect(first.statusCode).toBe(201);
      // A pending invoice does not stop a second attempt (the first may be abandoned); a paid one does.
      const second = await postCheckout(t.app, auth, { item: 'listing', id: draft, method: 'stripe' });
      expect(second.statusCode).toBe(201);
      await t.database.db.updateTable('invoices').set({ status: 'paid' }).where('id', '=', first.json().data.invoice.id).execute();
      const paid = await postCheckout(t.app, auth, { item: 'listing', id: draft, method: 'bank_transfer' });
      expect(paid.statusCode).toBe(409);
      expect(paid.json()).toMatchObject({ code: 'conflict', message: 'This listing’s fee has been paid already.' });
      expect(await invoicesOf(t.database.db, user.id)).toHaveLength(2);
    });
  });

  describe('featured', () => {
    it('invoices featuring the owner’s published listing at FEATURED_PRICE plus tax', async () => {
      const { user, auth } = await signedIn(t);
      const stranger = await signedIn(t);
      const listing = await newListing(t.database.db, { status: 'publish', author_id: user.id, title: 'Garden house' });
      const res = await postCheckout(t.app, auth, { item: 'featured', id: listing, method: 'stripe' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.invoice).toMatchObject({
        item: { type: 'featured', id: listing, title: 'Garden house' },
        amount: 4.5,
        tax: 0.9,
        total: 5.4,
        currency: 'EUR',
        status: 'pending',
      });
      expect(stripe.requestsTo(SESSIONS)[0]!.body).toMatchObject({ mode: 'payment', line_items: [{ price_data: { unit_amount: '540' } }] });
      // Someone else sees the published listing but may not pay to feature it.
      const other = await postCheckout(t.app, stranger.auth, { item: 'featured', id: listing, method: 'stripe' });
      expect(other.statusCode).toBe(403);
    });

    it('answers 409 for a listing that is not published or is featured already, 404 for a hidden one', async () => {
      const { user, auth } = await signedIn(t);
      const stranger = await signedIn(t);
      const draft = await newListing(t.database.db, { status: 'draft', author_id: user.id });
      const featured = await newListing(t.database.db, { status: 'publish', author_id: user.id, featured: 1 });
      const notPublished = await postCheckout(t.app, auth, { item: 'featured', id: draft, method: 'bank_transfer' });
      expect(notPublished.statusCode).toBe(409);
      expect(notPublished.json().message).toBe('Only a published listing can be featured; this listing is draft.');
      const already = await postCheckout(t.app, auth, { item: 'featured', id: featured, method: 'bank_transfer' });
      expect(already.statusCode).toBe(409);
      expect(already.json().message).toBe('This listing is featured already.');
      const hidden = await postCheckout(t.app, stranger.auth, { item: 'featured', id: draft, method: 'bank_transfer' });
      expect(hidden.statusCode).toBe(404);
      expect(await invoicesOf(t.database.db, user.id)).toHaveLength(0);
    });
  });
});

describeEachDialect('POST /payments/checkout: other modes and free fees (%s)', (dialect) => {
  let freeMode: TestApp;
  let membershipMode: TestApp;
  let freeFees: TestApp;

  beforeAll(async () => {
    freeMode = await buildTestApp(dialect, { PAYMENT_MODE: 'free', LISTING_PRICE: '10', FEATURED_PRICE: '5' });
    membershipMode = await buildTestApp(dialect, { PAYMENT_MODE: 'membership', LISTING_PRICE: '10', FEATURED_PRICE: '5' });
    freeFees = await buildTestApp(dialect, { PAYMENT_MODE: 'per_listing', LISTING_PRICE: '0', FEATURED_PRICE: '0', TAX_RATE: '20' });
  });
  afterAll(async () => {
    await freeMode.close();
    await membershipMode.close();
    await freeFees.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers 409 to listing fees and featured upgrades outside per_listing mode, before looking at the listing', async () => {
    for (const t of [freeMode, membershipMode]) {
      const { user, auth } = await signedIn(t);
      const mode = t === freeMode ? 'free' : 'membership';
      const draft = await newListing(t.database.db, { status: 'draft', author_id: user.id });
      const published = await newListing(t.database.db, { status: 'publish', author_id: user.id });
      for (const id of [draft, 999_999]) {
        const res = await postCheckout(t.app, auth, { item: 'listing', id, method: 'bank_transfer' });
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({
          code: 'conflict',
          message: `Listings are not paid for one by one on this server (payment mode “${mode}”).`,
        });
      }
      for (const id of [published, 999_999]) {
        const res = await postCheckout(t.app, auth, { item: 'featured', id, method: 'bank_transfer' });
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({
          code: 'conflict',
          message: `Featuring is not sold through checkout on this server (payment mode “${mode}”).`,
        });
      }
      expect(await invoicesOf(t.database.db, user.id)).toHaveLength(0);
    }
  });

  it('settles a free listing fee at once through Fulfilment, in the checkout’s transaction', async () => {
    const settle = vi.spyOn(Fulfilment.prototype, 'settle');
    const { user, auth } = await signedIn(freeFees);
    const draft = await newListing(freeFees.database.db, { status: 'draft', author_id: user.id });
    const res = await postCheckout(freeFees.app, auth, { item: 'listing', id: draft });
    expect(res.statusCode, res.body).toBe(201);
    const { invoice } = res.json().data;
    expect(invoice).toMatchObject({ item: { type: 'listing', id: draft }, total: 0, status: 'paid', payment_method: 'free' });
    expect(settle).toHaveBeenCalledTimes(1);
    expect(settle.mock.calls[0]![1]).toBe(invoice.id);
    expect((await invoiceRow(freeFees.database.db, invoice.id)).status).toBe('paid');
    // Delivered: the draft is submitted (REQUIRE_APPROVAL is on by default).
    expect(await listingState(freeFees.database.db, draft)).toEqual({ status: 'pending', featured: 0 });
  });

  it('features a listing at once when FEATURED_PRICE is 0', async () => {
    const { user, auth } = await signedIn(freeFees);
    const published = await newListing(freeFees.database.db, { status: 'publish', author_id: user.id });
    const res = await postCheckout(freeFees.app, auth, { item: 'featured', id: published });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.invoice).toMatchObject({ item: { type: 'featured', id: published }, status: 'paid', payment_method: 'free' });
    expect(await listingState(freeFees.database.db, published)).toEqual({ status: 'publish', featured: 1 });
  });

  it('lets only one of concurrent checkouts of one listing fee pay it', async () => {
    const { user, auth } = await signedIn(freeFees);
    const draft = await newListing(freeFees.database.db, { status: 'draft', author_id: user.id });
    const answers = await Promise.all([1, 2, 3].map(() => postCheckout(freeFees.app, auth, { item: 'listing', id: draft })));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409, 409]);
    const invoices = await invoicesOf(freeFees.database.db, user.id);
    expect(invoices.map((invoice) => invoice.status)).toEqual(['paid']);
  });

  it('rolls the invoice back when Fulfilment refuses to deliver', async () => {
    vi.spyOn(Fulfilment.prototype, 'settle').mockRejectedValue(new Error('delivery failed'));
    const { user, auth } = await signedIn(freeFees);
    const draft = await newListing(freeFees.database.db, { status: 'draft', author_id: user.id });
    const res = await postCheckout(freeFees.app, auth, { item: 'listing', id: draft });
    expect(res.statusCode).toBe(500);
    expect(await invoicesOf(freeFees.database.db, user.id)).toHaveLength(0);
  });
});
