import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import type { DB, PackagesTable, Role, UserRow } from '../../src/db/schema/index.js';
import type { InvoiceRow } from '../../src/modules/payments/invoices/invoice-ledger.repository.js';
import type { PackageRow } from '../../src/modules/payments/packages/packages.mapper.js';
import type { TestApp } from '../helpers/app.js';
import { FAKE_WEBHOOK_SECRET, signWebhook, type StripeEventPayload } from '../helpers/fake-stripe.js';
import { newSignedInUser, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
export type Auth = Record<string, string>;

/** A signed-in user of the given role. */
export function signedIn(t: TestApp, role: Role = 'seller'): Promise<{ user: UserRow; auth: Auth }> {
  return newSignedInUser(t, { role, display_name: unique('Buyer ') });
}

/** A visible one-time package of 19.99 USD without tax unless `overrides` say else. */
export async function newPackage(db: Kysely<DB>, overrides: Partial<Insertable<PackagesTable>> = {}): Promise<PackageRow> {
  const now = new Date().toISOString();
  return db
    .insertInto('packages')
    .values({
      title: unique('Package '),
      price_minor: 1999,
      currency: 'USD',
      listings_included: 10,
      featured_included: 2,
      billing_period: 'one_time',
      created_at: now,
      updated_at: now,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function postCheckout(
  app: FastifyInstance,
  auth: Auth,
  payload: unknown,
  url = `${API}/payments/checkout`,
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url, headers: auth, payload: payload as Record<string, unknown> });
}

export async function invoiceRow(db: Kysely<DB>, id: number): Promise<InvoiceRow> {
  return db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The buyer's invoices, newest first. */
export async function invoicesOf(db: Kysely<DB>, buyerId: number): Promise<InvoiceRow[]> {
  return db.selectFrom('invoices').selectAll().where('buyer_id', '=', buyerId).orderBy('id', 'desc').execute();
}

/** Posts a webhook delivery: the body as given, signed with the test secret now unless a header is given. */
export function postWebhook(
  app: FastifyInstance,
  event: StripeEventPayload | string,
  signature?: string | null,
): Promise<LightMyRequestResponse> {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  const header = signature === undefined ? signWebhook(body, { secret: FAKE_WEBHOOK_SECRET }) : signature;
  return app.inject({
    method: 'POST',
    url: `${API}/payments/webhooks/stripe`,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(header === null ? {} : { 'stripe-signature': header }) },
    payload: body,
  });
}

/** A completed, paid Checkout Session naming our invoice, as Stripe sends it in checkout.session.completed. */
export function paidSession(invoiceId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: unique('cs_test_'),
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: String(invoiceId),
    metadata: { invoice_id: String(invoiceId) },
    subscription: null,
    invoice: null,
    amount_total: 1999,
    currency: 'usd',
    ...overrides,
  };
}

/** A paid Stripe invoice of a subscription whose metadata names our invoice (API version 2025-03-31 and later). */
export function paidStripeInvoice(
  billingReason: 'subscription_create' | 'subscription_cycle',
  subscriptionId: string,
  invoiceId: number | undefined,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const paidAt = Math.floor(Date.now() / 1000);
  return {
    id: unique('in_'),
    object: 'invoice',
    billing_reason: billingReason,
    status: 'paid',
    amount_paid: 1999,
    currency: 'usd',
    status_transitions: { paid_at: paidAt },
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: subscriptionId, metadata: invoiceId === undefined ? {} : { invoice_id: String(invoiceId) } },
    },
    ...overrides,
  };
}
