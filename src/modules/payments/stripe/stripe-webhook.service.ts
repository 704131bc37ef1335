import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type Stripe from 'stripe';
import type { DB } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import { lazyModule } from '../../../lib/lazy-module.js';
import type { Fulfilment } from '../checkout/fulfilment.service.js';
import { cancelPendingInvoice, type PaymentFacts } from '../invoices/invoice-ledger.repository.js';
import * as repository from './stripe-webhook.repository.js';

/** How old a signature may be (docs/api.md 10): older deliveries are refused as possible replays by a third party. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Stripe's library checks the signatures; a large one, loaded at the first delivery rather than at start. */
const stripeLibrary = lazyModule(async () => (await import('stripe')).default);

/**
 * POST /payments/webhooks/stripe (docs/api.md 10, 12). Each event is handled in one transaction that also records
 * its id in `stripe_events`: a replay finds the id and changes nothing, and a crash mid-way rolls both back,
 * so Stripe's retry handles it afresh. Events may arrive in any order: every handler moves state only
 * forward (settling a pending invoice, recording a renewal once per Stripe invoice), so a late or repeated
 * event finds its work done and does nothing.
 */
export class StripeWebhookService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly fulfilment: Fulfilment,
    /** STRIPE_WEBHOOK_SECRET; without it every delivery answers 503 (Stripe retries them later). */
    private readonly webhookSecret: string | undefined,
    private readonly log: FastifyBaseLogger,
  ) {}

  async receive(payload: Buffer, signature: string | undefined): Promise<void> {
    const event = await this.verifiedEvent(payload, signature);
    await this.db.transaction().execute(async (trx) => {
      if (!(await repository.recordStripeEvent(trx, event.id, event.type))) return;
      await this.handle(trx, event);
    });
  }

  /** The event, if `Stripe-Signature` signs this exact body with our secret within the tolerance; else 400. */
  private async verifiedEvent(payload: Buffer, signature: string | undefined): Promise<Stripe.Event> {
    if (!this.webhookSecret) throw new AppError('service_unavailable', 'stripe_webhook_not_configured');
    const { errors, webhooks } = await stripeLibrary();
    let event: Stripe.Event;
    try {
      event = webhooks.constructEvent(payload, signature ?? '', this.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
    } catch (error) {
      if (error instanceof errors.StripeSignatureVerificationError) {
        throw AppError.invalidField('stripe-signature', 'stripe_rule_signature_invalid');
      }
      // A correctly signed body that is not JSON.
      throw new AppError('invalid_json');
    }
    if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof event.data?.object !== 'object') {
      throw new AppError('invalid_json');
    }
    return event;
  }

  private async handle(trx: Transaction<DB>, event: Stripe.Event): Promise<void> {
    const occurredAt = new Date(event.created * 1000);
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        // A session paid by a delayed method completes `unpaid` and reports the payment by the second event.
        const session = event.data.object;
        if (session.payment_status !== 'paid') return;
        const invoiceId = invoiceIdOf(session.client_reference_id) ?? invoiceIdOf(session.metadata?.invoice_id);
        const subscriptionId = idOf(session.subscription);
        const stripeInvoiceId = idOf(session.invoice);
        await this.settle(trx, invoiceId, {
          paidAt: occurredAt,
          ...(subscriptionId ? { stripeSubscriptionId: subscriptionId } : {}),
          ...(stripeInvoiceId ? { stripeInvoiceId } : {}),
        });
        return;
      }
      case 'invoice.paid': {
        const invoice = event.data.object;
        const subscription = subscriptionOf(invoice);
        if (!subscription.id) return;
        const paidAt = invoice.status_transitions?.paid_at ? new Date(invoice.status_transitions.paid_at * 1000) : occurredAt;
        if (invoice.billing_reason === 'subscription_create') {
          // The first period: the same payment as the checkout session's. Whichever of the two events comes
          // first settles the invoice; the other finds it paid.
          const invoiceId = invoiceIdOf(subscription.metadata?.invoice_id);
          await this.settle(trx, invoiceId, { paidAt, stripeSubscriptionId: subscription.id, stripeInvoiceId: invoice.id });
        } else if (invoice.billing_reason === 'subscription_cycle') {
          await this.fulfilment.renew(trx, {
            stripeSubscriptionId: subscription.id,
            stripeInvoiceId: invoice.id,
            totalMinor: invoice.amount_paid,
            // Stripe writes currencies in lower case, this server in ISO 4217's upper case.
            currency: invoice.currency.toUpperCase(),
            paidAt,
          });
        }
        return;
      }
      case 'checkout.session.expired': {
        // The buyer left the payment page until it expired (24 h): the invoice will never be paid there.
        const session = event.data.object;
        const invoiceId = invoiceIdOf(session.client_reference_id) ?? invoiceIdOf(session.metadata?.invoice_id);
        if (invoiceId !== undefined) await cancelPendingInvoice(trx, invoiceId, occurredAt);
        return;
      }
      case 'customer.subscription.deleted':
        await this.fulfilment.endSubscription(trx, event.data.object.id, new Date());
        return;
      default:
        // Recorded, and otherwise ignored: Stripe sends only the types the endpoint subscribes to.
        return;
    }
  }

  private async settle(trx: Transaction<DB>, invoiceId: number | undefined, facts: PaymentFacts): Promise<void> {
    if (invoiceId === undefined) return;
    if (await this.fulfilment.settle(trx, invoiceId, facts)) return;
    // Already paid is the expected outcome of a late event; a payment for an invoice that is no longer
    // pending (cancelled, archived, unknown) needs a person to look at it (a refund, most likely).
    const status = await repository.findInvoiceStatus(trx, invoiceId);
    if (status !== 'paid')
      this.log.warn({ invoiceId, status: status ?? 'unknown' }, 'Stripe reported a payment for an invoice that is not pending');
  }
}

/** Our invoice id from `client_reference_id` or metadata, where the checkout put it as decimal text. */
function invoiceIdOf(value: string | null | undefined): number | undefined {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return undefined;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : undefined;
}

/** An expandable Stripe reference: an id, or the expanded object with its id. */
function idOf(value: string | { id: string } | null | undefined): string | undefined {
  if (!value) return undefined;
  return typeof value === 'string' ? value : value.id;
}

/** Invoice fields that API versions before 2025-03-31 (basil) had at the top level. */
interface LegacyInvoiceFields {
  subscription?: string | { id: string } | null;
  subscription_details?: { metadata: Stripe.Metadata | null } | null;
}

/**
 * The subscription of an invoice and the metadata it had (which carries our invoice id): under
 * `parent.subscription_details` since API version 2025-03-31, at the top level before. Both are read, so
 * that a webhook endpoint still pinned to an older version works too.
 */
function subscriptionOf(invoice: Stripe.Invoice): { id: string | undefined; metadata: Stripe.Metadata | null | undefined } {
  const legacy = invoice as Stripe.Invoice & LegacyInvoiceFields;
  const details = invoice.parent?.subscription_details;
  return {
    id: idOf(details?.subscription) ?? idOf(legacy.subscription),
    metadata: details?.metadata ?? legacy.subscription_details?.metadata,
  };
}
