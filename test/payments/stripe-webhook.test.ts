import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { Fulfilment } from '../../src/modules/payments/checkout/fulfilment.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type FakeStripe, signWebhook, startFakeStripe, stripeEvent } from '../helpers/fake-stripe.js';
import { unique } from '../helpers/factories.js';
import {
  invoiceRow,
  invoicesOf,
  newPackage,
  paidSession,
  paidStripeInvoice,
  postCheckout,
  postWebhook,
  signedIn,
} from './checkout-fixtures.js';

const RECEIVED = { success: true, data: { received: true } };

async function handledEvent(db: Kysely<DB>, id: string) {
  return db.selectFrom('stripe_events').selectAll().where('id', '=', id).executeTakeFirst();
}

async function membershipOf(db: Kysely<DB>, userId: number) {
  return db.selectFrom('memberships').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

async function paymentsReceived(db: Kysely<DB>, invoiceId: number): Promise<number> {
  const rows = await db.selectFrom('domain_events').select('payload').where('type', '=', 'payment_received').execute();
  return rows.filter((row) => (JSON.parse(row.payload) as { invoice_id?: number }).invoice_id === invoiceId).length;
}

describeEachDialect('POST /payments/webhooks/stripe (%s)', (dialect) => {
  let stripe: FakeStripe;
  let t: TestApp;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await buildTestApp(dialect, { ...stripe.env(), PAYMENT_MODE: 'membership' });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A buyer with a pending Stripe invoice for a fresh package (monthly: a subscription). */
  async function stripeCheckout(billing: 'one_time' | 'month' = 'one_time') {
    const buyer = await signedIn(t);
    const pkg = await newPackage(t.database.db, { billing_period: billing });
    const res = await postCheckout(t.app, buyer.auth, { item: 'package', id: pkg.id, method: 'stripe' });
    expect(res.statusCode, res.body).toBe(201);
    return { ...buyer, pkg, invoiceId: res.json().data.invoice.id as number };
  }

  describe('checkout.session.completed', () => {
    it('settles the invoice and activates the package when the signature is good', async () => {
      const settle = vi.spyOn(Fulfilment.prototype, 'settle');
      const { user, pkg, invoiceId } = await stripeCheckout();
      const event = stripeEvent('checkout.session.completed', paidSession(invoiceId));
      const res = await postWebhook(t.app, event);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(RECEIVED);
      expect(settle).toHaveBeenCalledTimes(1);
      expect(settle.mock.calls[0]![1]).toBe(invoiceId);
      const invoice = await invoiceRow(t.database.db, invoiceId);
      expect(invoice.status).toBe('paid');
      expect(Date.parse(invoice.paid_at!)).toBe(event.created * 1000);
      expect(await membershipOf(t.database.db, user.id)).toMatchObject({ package_id: pkg.id, status: 'active' });
      expect(await handledEvent(t.database.db, event.id)).toMatchObject({ id: event.id, type: 'checkout.session.completed' });
    });

    it('finds the invoice by metadata.invoice_id when client_reference_id is missing', async () => {
      const { invoiceId } = await stripeCheckout();
      const res = await postWebhook(
        t.app,
        stripeEvent('checkout.session.completed', paidSession(invoiceId, { client_reference_id: null })),
      );
      expect(res.statusCode).toBe(200);
      expect((await invoiceRow(t.database.db, invoiceId)).status).toBe('paid');
    });

    it('waits for the payment of a session that completed unpaid (delayed methods)', async () => {
      const { invoiceId } = await stripeCheckout();
      const session = paidSession(invoiceId, { payment_status: 'unpaid' });
      expect((await postWebhook(t.app, stripeEvent('checkout.session.completed', session))).statusCode).toBe(200);
      expect((await invoiceRow(t.database.db, invoiceId)).status).toBe('pending');
      const succeeded = stripeEvent('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' });
      expect((await postWebhook(t.app, succeeded)).statusCode).toBe(200);
      expect((await invoiceRow(t.database.db, invoiceId)).status).toBe('paid');
    });

    it('does nothing a second time when the same event is delivered again', async () => {
      const { user, invoiceId } = await stripeCheckout();
      const event = stripeEvent('checkout.session.completed', paidSession(invoiceId));
      expect((await postWebhook(t.app, event)).statusCode).toBe(200);
      const paid = await invoiceRow(t.database.db, invoiceId);
      const membership = await membershipOf(t.database.db, user.id);

      const settle = vi.spyOn(Fulfilment.prototype, 'settle');
      // A replay is the same event, signed again at a later time.
      const replay = await postWebhook(t.app, { ...event });
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual(RECEIVED);
      expect(settle).not.toHaveBeenCalled();
      expect(await invoiceRow(t.database.db, invoiceId)).toEqual(paid);
      expect(await membershipOf(t.database.db, user.id)).toEqual(membership);
      expect(await paymentsReceived(t.database.db, invoiceId)).toBe(1);
    });

    it('cancels the pending invoice of a session that expired unpaid, and never a paid one', async () => {
      const { invoiceId } = await stripeCheckout();
      const expired = stripeEvent('checkout.session.expired', paidSession(invoiceId, { payment_status: 'unpaid', status: 'expired' }));
      expect((await postWebhook(t.app, expired)).statusCode).toBe(200);
      expect((await invoiceRow(t.database.db, invoiceId)).status).toBe('cancelled');

      const paid = await stripeCheckout();
      expect((await postWebhook(t.app, stripeEvent('checkout.session.completed', paidSession(paid.invoiceId)))).statusCode).toBe(200);
      const late = stripeEvent('checkout.session.expired', paidSession(paid.invoiceId, { payment_status: 'unpaid', status: 'expired' }));
      expect((await postWebhook(t.app, late)).statusCode).toBe(200);
      expect((await invoiceRow(t.database.db, paid.invoiceId)).status).toBe('paid');
    });

    it('ignores sessions that name no invoice of ours', async () => {
      const settle = vi.spyOn(Fulfilment.prototype, 'settle');
      const session = paidSession(1, { client_reference_id: null, metadata: {} });
      expect((await postWebhook(t.app, stripeEvent('checkout.session.completed', session))).statusCode).toBe(200);
      const unknown = paidSession(999_999);
      expect((await postWebhook(t.app, stripeEvent('checkout.session.completed', unknown))).statusCode).toBe(200);
      expect(settle).toHaveBeenCalledTimes(1);
      expect(settle.mock.calls[0]![1]).toBe(999_999);
    });
  });

  describe('signatures', () => {
    it('refuses a missing, wrong, malformed or tampered signature with 400, changing nothing', async () => {
      const { invoiceId } = await stripeCheckout();
      const event = stripeEvent('checkout.session.completed', paidSession(invoiceId));
      const body = JSON.stringify(event);
      const tampered = JSON.stringify({ ...event, data: { object: paidSession(invoiceId, { amount_total: 1 }) } });
      const deliveries = [
        { body, header: null },
        { body, header: '' },
        { body, header: 'nonsense' },
        { body, header: signWebhook(body, { secret: 'whsec_someone_else' }) },
        { body: tampered, header: signWebhook(body) },
      ];
      for (const delivery of deliveries) {
        const res = await postWebhook(t.app, delivery.body, delivery.header);
        expect(res.statusCode, JSON.stringify(delivery.header)).toBe(400);
        expect(res.json()).toEqual({
          success: false,
          code: 'validation_failed',
          message: 'The request is not valid.',
          errors: [{ field: 'stripe-signature', message: 'must be a valid Stripe signature of this body, at most 5 minutes old' }],
          request_id: expect.any(String),
        });
      }
      expect((await invoiceRow(t.database.db, invoiceId)).status).toBe('pending');
      expect(await handledEvent(t.database.db, event.id)).toBeUndefined();
    });

    it('refuses a signature older than 5 minutes and accepts one within them', async () => {
      const { invoiceId } = await stripeCheckout();
      const event = stripeEvent('checkout.session.completed', paidSession(invoiceId));
      const body = JSON.stringify(event);
      const now = Math.floor(Date.now() / 1000);
      const stale = await postWebhook(t.app, body, signWebhook(body, { timestamp: now - 301 }));
      expect(stale.statusCode).toBe(400);
      expect(stale.json().errors[0].field).toBe('stripe-signature');
      expect((await invoiceRow(t.database.db, invoiceId)).status).toBe('pending');
      const recent = await postWebhook(t.app, body, signWebhook(body, { timestamp: now - 240 }));
      expect(recent.statusCode).toBe(200);
      expect((await invoiceRow(t.database.db, invoiceId)).status).toBe('paid');
    });

    it('answers 400 invalid_json to a correctly signed body that is not JSON, and 415 to another content type', async () => {
      const body = '{"id": "evt_1", ';
      const res = await postWebhook(t.app, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid_json');
      const text = await t.app.inject({
        method: 'POST',
        url: '/realty-api/v1/payments/webhooks/stripe',
        headers: { 'content-type': 'text/plain', 'stripe-signature': signWebhook('hello') },
        payload: 'hello',
      });
      expect(text.statusCode).toBe(415);
    });
  });

  describe('subscriptions', () => {
    it('settles the first invoice from invoice.paid arriving before checkout.session.completed', async () => {
      const { user, pkg, invoiceId } = await stripeCheckout('month');
      const subscription = unique('sub_');
      const stripeInvoice = paidStripeInvoice('subscription_create', subscription, invoiceId);
      const first = await postWebhook(t.app, stripeEvent('invoice.paid', stripeInvoice));
      expect(first.statusCode).toBe(200);
      const paid = await invoiceRow(t.database.db, invoiceId);
      expect(paid).toMatchObject({
        status: 'paid',
        recurring: 1,
        stripe_subscription_id: subscription,
        stripe_invoice_id: stripeInvoice.id,
      });
      expect(await membershipOf(t.database.db, user.id)).toMatchObject({
        package_id: pkg.id,
        stripe_subscription_id: subscription,
        auto_renew: 1,
      });

      // The session's event, late: the invoice is paid already, so nothing changes.
      const settle = vi.spyOn(Fulfilment.prototype, 'settle');
      const session = paidSession(invoiceId, { mode: 'subscription', subscription, invoice: stripeInvoice.id });
      const late = await postWebhook(t.app, stripeEvent('checkout.session.completed', session));
      expect(late.statusCode).toBe(200);
      expect(settle).toHaveBeenCalledTimes(1);
      await expect(settle.mock.results[0]!.value).resolves.toBeUndefined();
      expect(await invoiceRow(t.database.db, invoiceId)).toEqual(paid);
      expect(await paymentsReceived(t.database.db, invoiceId)).toBe(1);
    });

    it('reads the subscription’s metadata where API versions before 2025-03-31 put it', async () => {
      const { invoiceId } = await stripeCheckout('month');
      const subscription = unique('sub_');
      const legacy = paidStripeInvoice('subscription_create', subscription, undefined, {
        parent: null,
        subscription,
        subscription_details: { metadata: { invoice_id: String(invoiceId) } },
      });
      expect((await postWebhook(t.app, stripeEvent('invoice.paid', legacy))).statusCode).toBe(200);
      expect(await invoiceRow(t.database.db, invoiceId)).toMatchObject({ status: 'paid', stripe_subscription_id: subscription });
    });

    it('ends the Stripe subscription of a membership that another package replaces, through the outbox', async () => {
      const { user, auth, invoiceId } = await stripeCheckout('month');
      const first = unique('sub_');
      const completed = stripeEvent('checkout.session.completed', paidSession(invoiceId, { mode: 'subscription', subscription: first }));
      expect((await postWebhook(t.app, completed)).statusCode).toBe(200);

      const upgrade = await newPackage(t.database.db, { billing_period: 'month' });
      const res = await postCheckout(t.app, auth, { item: 'package', id: upgrade.id, method: 'stripe' });
      const second = unique('sub_');
      const session = paidSession(res.json().data.invoice.id, { mode: 'subscription', subscription: second });
      expect((await postWebhook(t.app, stripeEvent('checkout.session.completed', session))).statusCode).toBe(200);
      expect(await membershipOf(t.database.db, user.id)).toMatchObject({ package_id: upgrade.id, stripe_subscription_id: second });

      const path = `/v1/subscriptions/${first}`;
      expect(stripe.requestsTo(path)).toEqual([]);
      await t.services.outbox.runOnce();
      expect(stripe.requestsTo(path).map((request) => request.method)).toEqual(['DELETE']);
      expect(stripe.requestsTo(`/v1/subscriptions/${second}`)).toEqual([]);
    });

    it('renews on subscription_cycle, once per Stripe invoice, and ignores replays of older events', async () => {
      const renew = vi.spyOn(Fulfilment.prototype, 'renew');
      const { user, invoiceId } = await stripeCheckout('month');
      const subscription = unique('sub_');
      const completed = stripeEvent('checkout.session.completed', paidSession(invoiceId, { mode: 'subscription', subscription }));
      expect((await postWebhook(t.app, completed)).statusCode).toBe(200);
      const activated = await membershipOf(t.database.db, user.id);

      const cycle = paidStripeInvoice('subscription_cycle', subscription, invoiceId, { amount_paid: 1999, currency: 'usd' });
      const renewal = stripeEvent('invoice.paid', cycle);
      expect((await postWebhook(t.app, renewal)).statusCode).toBe(200);
      expect(renew).toHaveBeenCalledTimes(1);
      expect(renew.mock.calls[0]![1]).toEqual({
        stripeSubscriptionId: subscription,
        stripeInvoiceId: cycle.id,
        totalMinor: 1999,
        currency: 'USD',
        paidAt: new Date((cycle.status_transitions as { paid_at: number }).paid_at * 1000),
      });
      const invoices = await invoicesOf(t.database.db, user.id);
      expect(invoices).toHaveLength(2);
      expect(invoices[0]).toMatchObject({ status: 'paid', stripe_invoice_id: cycle.id, recurring: 1 });
      const renewed = await membershipOf(t.database.db, user.id);
      expect(Date.parse(renewed!.expires_at!)).toBeGreaterThan(Date.parse(activated!.expires_at!));

      // The older session event delivered again after the renewal, and the renewal re-sent under a new
      // event id (Stripe may send one change in several events): nothing more happens.
      expect((await postWebhook(t.app, completed)).statusCode).toBe(200);
      expect((await postWebhook(t.app, stripeEvent('invoice.paid', cycle))).statusCode).toBe(200);
      expect(await invoicesOf(t.database.db, user.id)).toHaveLength(2);
      expect(await membershipOf(t.database.db, user.id)).toEqual(renewed);
    });

    it('stops renewal on customer.subscription.deleted', async () => {
      const end = vi.spyOn(Fulfilment.prototype, 'endSubscription');
      const { user, invoiceId } = await stripeCheckout('month');
      const subscription = unique('sub_');
      await postWebhook(t.app, stripeEvent('checkout.session.completed', paidSession(invoiceId, { mode: 'subscription', subscription })));
      expect(await membershipOf(t.database.db, user.id)).toMatchObject({ auto_renew: 1, status: 'active' });
      const deleted = stripeEvent('customer.subscription.deleted', { id: subscription, object: 'subscription', status: 'canceled' });
      expect((await postWebhook(t.app, deleted)).statusCode).toBe(200);
      expect(end).toHaveBeenCalledTimes(1);
      expect(end.mock.calls[0]![1]).toBe(subscription);
      // The membership runs to its end without renewing.
      expect(await membershipOf(t.database.db, user.id)).toMatchObject({ auto_renew: 0, status: 'active' });
    });
  });

  describe('reliability', () => {
    it('leaves an event whose handling failed unhandled, so that Stripe’s retry handles it', async () => {
      const { invoiceId } = await stripeCheckout();
      const event = stripeEvent('checkout.session.completed', paidSession(invoiceId));
      vi.spyOn(Fulfilment.prototype, 'settle').mockRejectedValueOnce(new Error('connection lost'));
      const failed = await postWebhook(t.app, event);
      expect(failed.statusCode).toBe(500);
      expect(await handledEvent(t.database.db, event.id)).toBeUndefined();
      expect((await invoiceRow(t.database.db, invoiceId)).status).toBe('pending');
      const retried = await postWebhook(t.app, event);
      expect(retried.statusCode).toBe(200);
      expect((await invoiceRow(t.database.db, invoiceId)).status).toBe('paid');
      expect(await handledEvent(t.database.db, event.id)).toBeDefined();
    });

    it('acknowledges and records event types it does not handle', async () => {
      const event = stripeEvent('customer.created', { id: unique('cus_'), object: 'customer' });
      const res = await postWebhook(t.app, event);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(RECEIVED);
      expect(await handledEvent(t.database.db, event.id)).toMatchObject({ type: 'customer.created' });
    });
  });
});

describeEachDialect('POST /payments/webhooks/stripe without a webhook secret (%s)', (dialect) => {
  let stripe: FakeStripe;
  let withoutSecret: TestApp;
  let withoutStripe: TestApp;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    const { STRIPE_WEBHOOK_SECRET: _secret, ...env } = stripe.env();
    withoutSecret = await buildTestApp(dialect, env);
    withoutStripe = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await withoutSecret.close();
    await withoutStripe.close();
    await stripe.close();
  });

  it('answers 503 to every delivery, so that Stripe retries once the secret is set', async () => {
    for (const t of [withoutSecret, withoutStripe]) {
      const event = stripeEvent('customer.created', { id: 'cus_1', object: 'customer' });
      const res = await postWebhook(t.app, event);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        success: false,
        code: 'service_unavailable',
        message: 'Stripe webhooks are not configured on this server.',
        request_id: expect.any(String),
      });
      expect(await handledEvent(t.database.db, event.id)).toBeUndefined();
    }
  });
});
