import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Fulfilment } from '../../src/modules/payments/checkout/fulfilment.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type FakeStripe, startFakeStripe } from '../helpers/fake-stripe.js';
import { invoiceRow, invoicesOf, newPackage, postCheckout, signedIn } from './checkout-fixtures.js';

const SUCCESS_URL = 'https://app.example.test/payment/done';
const CANCEL_URL = 'https://app.example.test/payment/cancelled';
const INSTRUCTIONS = 'Pay to IBAN DE89 3704 0044 0532 0130 00, Realty Ltd.';
const SESSIONS = '/v1/checkout/sessions';

describeEachDialect('POST /payments/checkout: packages and methods (%s)', (dialect) => {
  let stripe: FakeStripe;
  let t: TestApp;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await buildTestApp(dialect, {
      ...stripe.env(),
      PAYMENT_MODE: 'membership',
      STRIPE_SUCCESS_URL: SUCCESS_URL,
      STRIPE_CANCEL_URL: CANCEL_URL,
      BANK_TRANSFER_INSTRUCTIONS: INSTRUCTIONS,
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });
  beforeEach(() => {
    stripe.requests.length = 0;
    stripe.fail(null);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('free items', () => {
    it('pays a package that costs nothing at once, without a method, and delivers it through Fulfilment', async () => {
      const settle = vi.spyOn(Fulfilment.prototype, 'settle');
      const { user, auth } = await signedIn(t);
      const pkg = await newPackage(t.database.db, { price_minor: 0, tax_rate_bp: 2000, billing_period: 'month' });
      const res = await postCheckout(t.app, auth, { item: 'package', id: pkg.id });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        success: true,
        data: {
          invoice: {
            id: expect.any(Number),
            number: expect.stringMatching(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{6}$`)),
            buyer: { id: user.id, display_name: user.display_name, email: user.email },
            item: { type: 'package', id: pkg.id, title: pkg.title },
            amount: 0,
            tax: 0,
            tax_rate: 20,
            total: 0,
            currency: 'USD',
            status: 'paid',
            payment_method: 'free',
            recurring: false,
            created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
            paid_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          },
        },
      });
      expect(settle).toHaveBeenCalledTimes(1);
      expect(settle.mock.calls[0]![1]).toBe(body.data.invoice.id);
      expect(stripe.requests).toHaveLength(0);
      expect((await invoiceRow(t.database.db, body.data.invoice.id)).status).toBe('paid');
      // Delivered in the same transaction: the membership is active already.
      const membership = await t.database.db.selectFrom('memberships').selectAll().where('user_id', '=', user.id).executeTakeFirst();
      expect(membership).toMatchObject({ package_id: pkg.id, status: 'active', auto_renew: 0 });
    });

    it('ignores a method given for a free item', async () => {
      const { auth } = await signedIn(t);
      const pkg = await newPackage(t.database.db, { price_minor: 0 });
      for (const method of ['stripe', 'bank_transfer', 'free']) {
        const res = await postCheckout(t.app, auth, { item: 'package', id: pkg.id, method });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().data.invoice).toMatchObject({ status: 'paid', payment_method: 'free' });
        expect(res.json().data).not.toHaveProperty('checkout_url');
        expect(res.json().data).not.toHaveProperty('instructions');
      }
      expect(stripe.requests).toHaveLength(0);
    });
  });

  describe('stripe', () => {
    it('creates a pending invoice and a payment-mode Checkout Session for the total, tax included', async () => {
      const { user, auth } = await signedIn(t);
      // 19.99 + 20 % = 23.988 → tax 4.00 (half up, in cents), total 23.99.
      const pkg = await newPackage(t.database.db, { price_minor: 1999, tax_rate_bp: 2000, currency: 'EUR' });
      const res = await postCheckout(t.app, auth, { item: 'package', id: pkg.id, method: 'stripe' });
      expect(res.statusCode, res.body).toBe(201);
      const { invoice, checkout_url } = res.json().data;
      expect(invoice).toMatchObject({ amount: 19.99, tax: 4, tax_rate: 20, total: 23.99, currency: 'EUR' });
      expect(invoice).toMatchObject({ status: 'pending', payment_method: 'stripe', recurring: false, paid_at: null });
      expect(res.json().data).not.toHaveProperty('instructions');

      const [request] = stripe.requestsTo(SESSIONS);
      expect(stripe.requests).toHaveLength(1);
      expect(request!.method).toBe('POST');
      expect(request!.headers.authorization).toBe(`Bearer ${stripe.env().STRIPE_SECRET_KEY}`);
      expect(request!.body).toEqual({
        mode: 'payment',
        line_items: [{ quantity: '1', price_data: { currency: 'eur', unit_amount: '2399', product_data: { name: pkg.title } } }],
        client_reference_id: String(invoice.id),
        metadata: { invoice_id: String(invoice.id), invoice_number: invoice.number },
        customer_email: user.email,
        success_url: SUCCESS_URL,
        cancel_url: CANCEL_URL,
      });
      // The session's id is kept with the invoice, and its URL is the answer.
      const row = await invoiceRow(t.database.db, invoice.id);
      expect(row.stripe_session_id).toMatch(/^cs_test_/);
      expect(checkout_url).toBe(`https://checkout.stripe.test/c/pay/${row.stripe_session_id}`);
      expect(row.status).toBe('pending');
    });

    it('starts a subscription for a package that renews', async () => {
      const { auth } = await signedIn(t);
      const pkg = await newPackage(t.database.db, { price_minor: 3000, billing_period: 'month', billing_frequency: 3 });
      const res = await postCheckout(t.app, auth, { item: 'package', id: pkg.id, method: 'stripe' });
      expect(res.statusCode, res.body).toBe(201);
      const { invoice } = res.json().data;
      expect(invoice).toMatchObject({ total: 30, status: 'pending', recurring: true });
      const [request] = stripe.requestsTo(SESSIONS);
      expect(request!.body).toMatchObject({
        mode: 'subscription',
        line_items: [
          {
            quantity: '1',
            price_data: {
              currency: 'usd',
              unit_amount: '3000',
              product_data: { name: pkg.title },
              recurring: { interval: 'month', interval_count: '3' },
            },
          },
        ],
        client_reference_id: String(invoice.id),
        metadata: { invoice_id: String(invoice.id) },
        // So that the subscription's invoice.paid events name our invoice too.
        subscription_data: { metadata: { invoice_id: String(invoice.id) } },
      });
      expect((await invoiceRow(t.database.db, invoice.id)).recurring).toBe(1);
    });

    it('answers 503 and cancels the invoice when Stripe fails', async () => {
      const { user, auth } = await signedIn(t);
      const pkg = await newPackage(t.database.db);
      for (const mode of ['server_error', 'network'] as const) {
        stripe.fail(mode);
        const res = await postCheckout(t.app, auth, { item: 'package', id: pkg.id, method: 'stripe' });
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json()).toEqual({
          success: false,
          code: 'service_unavailable',
          message: 'The payment provider cannot be reached right now. Try again shortly.',
          request_id: expect.any(String),
        });
        const [latest] = await invoicesOf(t.database.db, user.id);
        expect(latest).toMatchObject({ status: 'cancelled', payment_method: 'stripe', stripe_session_id: null });
      }
      expect(stripe.requestsTo(SESSIONS).length).toBeGreaterThanOrEqual(2);
    });
  });

  describe('bank transfer', () => {
    it('creates a pending invoice and answers the instructions with the invoice number as reference', async () => {
      const { auth } = await signedIn(t);
      // A monthly package paid by transfer is one period paid once: not recurring.
      const pkg = await newPackage(t.database.db, { price_minor: 5000, billing_period: 'month' });
      const res = await postCheckout(t.app, auth, { item: 'package', id: pkg.id, method: 'bank_transfer' });
      expect(res.statusCode, res.body).toBe(201);
      const { invoice, instructions } = res.json().data;
      expect(invoice).toMatchObject({ total: 50, status: 'pending', payment_method: 'bank_transfer', recurring: false });
      expect(instructions).toBe(
        `${INSTRUCTIONS}\n\nTransfer reference: ${invoice.number}. Write it in the transfer’s description so that your payment can be matched to your invoice.`,
      );
      expect(res.json().data).not.toHaveProperty('checkout_url');
      expect(stripe.requests).toHaveLength(0);
    });

    it('localizes the reference text', async () => {
      const { auth } = await signedIn(t);
      const pkg = await newPackage(t.database.db);
      const res = await postCheckout(
        t.app,
        auth,
        { item: 'package', id: pkg.id, method: 'bank_transfer' },
        '/realty-api/v1/payments/checkout?lang=fr',
      );
      expect(res.statusCode, res.body).toBe(201);
      const { invoice, instructions } = res.json().data;
      expect(instructions).toContain(`Référence du virement : ${invoice.number}.`);
    });
  });

  describe('refusals', () => {
    it('requires a method for an item that costs something (400, field method)', async () => {
      const { user, auth } = await signedIn(t);
      const pkg = await newPackage(t.database.db);
      const res = await postCheckout(t.app, auth, { item: 'package', id: pkg.id });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        errors: [{ field: 'method', message: 'is required for an item that is not free' }],
      });
      const free = await postCheckout(t.app, auth, { item: 'package', id: pkg.id, method: 'free' });
      expect(free.statusCode).toBe(400);
      expect(free.json().errors).toEqual([{ field: 'method', message: 'cannot be “free” for an item that costs something' }]);
      expect(await invoicesOf(t.database.db, user.id)).toHaveLength(0);
    });

    it('answers 404 for a hidden or unknown package', async () => {
      const { user, auth } = await signedIn(t);
      const hidden = await newPackage(t.database.db, { visible: 0 });
      for (const id of [hidden.id, 999_999]) {
        const res = await postCheckout(t.app, auth, { item: 'package', id, method: 'bank_transfer' });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ success: false, code: 'not_found' });
      }
      expect(await invoicesOf(t.database.db, user.id)).toHaveLength(0);
    });

    it('refuses unknown fields (no mass assignment of price, status or buyer) and malformed values', async () => {
      const { user, auth } = await signedIn(t);
      const pkg = await newPackage(t.database.db);
      const bodies = [
        { item: 'package', id: pkg.id, method: 'bank_transfer', amount: 0 },
        { item: 'package', id: pkg.id, method: 'bank_transfer', status: 'paid' },
        { item: 'package', id: pkg.id, method: 'bank_transfer', buyer_id: 1 },
        { item: 'membership', id: pkg.id, method: 'bank_transfer' },
        { item: 'package', id: 0, method: 'bank_transfer' },
        { item: 'package', id: '1', method: 'bank_transfer' },
        { item: 'package', id: pkg.id, method: 'cash' },
        { id: pkg.id, method: 'bank_transfer' },
      ];
      for (const body of bodies) {
        const res = await postCheckout(t.app, auth, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().code).toBe('validation_failed');
      }
      expect(await invoicesOf(t.database.db, user.id)).toHaveLength(0);
    });

    it('requires a signed-in caller', async () => {
      const pkg = await newPackage(t.database.db);
      const res = await postCheckout(t.app, {}, { item: 'package', id: pkg.id, method: 'bank_transfer' });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    });

    it('invoices the caller, whatever user a client would like to name', async () => {
      const { user, auth } = await signedIn(t);
      const other = await signedIn(t);
      const pkg = await newPackage(t.database.db);
      const res = await postCheckout(t.app, auth, { item: 'package', id: pkg.id, method: 'bank_transfer' });
      expect(res.json().data.invoice.buyer.id).toBe(user.id);
      expect(await invoicesOf(t.database.db, other.user.id)).toHaveLength(0);
    });
  });
});

describeEachDialect('POST /payments/checkout without Stripe configured (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PAYMENT_MODE: 'membership' });
  });
  afterAll(() => t.close());

  it('refuses the stripe method (400, field method) and still takes bank transfers', async () => {
    const { user, auth } = await signedIn(t);
    const pkg = await newPackage(t.database.db);
    const res = await postCheckout(t.app, auth, { item: 'package', id: pkg.id, method: 'stripe' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'method', message: 'cannot be “stripe”: card payments are not enabled on this server' }],
    });
    expect(await invoicesOf(t.database.db, user.id)).toHaveLength(0);
    const transfer = await postCheckout(t.app, auth, { item: 'package', id: pkg.id, method: 'bank_transfer' });
    expect(transfer.statusCode).toBe(201);
    // Without BANK_TRANSFER_INSTRUCTIONS the reference alone is given.
    expect(transfer.json().data.instructions).toMatch(/^Transfer reference: INV-\d{4}-\d{6}\./);
  });
});
