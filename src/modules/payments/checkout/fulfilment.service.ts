import type { Transaction } from 'kysely';
import { lockTransactionKey } from '../../../db/dialect/index.js';
import { recordEvent } from '../../../db/domain-events.js';
import type { DB } from '../../../db/schema/index.js';
import { fromMinor, taxOf } from '../../../lib/money.js';
import { enqueue } from '../../../db/outbox.js';
import { nowIso } from '../../../lib/time.js';
import type { ListingMoves } from '../../properties/index.js';
import { createInvoice, type InvoiceRow, markInvoicePaid, type PaymentFacts } from '../invoices/invoice-ledger.repository.js';
import { periodEnd } from '../memberships/memberships.periods.js';
import * as memberships from '../memberships/memberships.repository.js';
import type { PackageRow } from '../packages/packages.mapper.js';
import { findPackage } from '../packages/packages.repository.js';

/** A paid Stripe renewal of a subscription (invoice.paid, billing_reason subscription_cycle). */
export interface RenewalFacts {
  stripeSubscriptionId: string;
  stripeInvoiceId: string;
  /** What Stripe charged, tax included, in minor units. */
  totalMinor: number;
  currency: string;
  paidAt: Date;
}

/**
 * Delivers what invoices pay for, in the transaction that marks them paid: a package activates (or
 * replaces) the buyer's membership, a listing fee submits the listing, a featured upgrade features it.
 * Every paid invoice records a `payment_received` event, and an activation `membership_activated`.
 */
export class Fulfilment {
  constructor(private readonly listings: Pick<ListingMoves, 'submitPaidDraft' | 'featurePaidListing'>) {}

  /**
   * Marks a pending invoice paid and delivers its item; undefined when it was not pending (nothing done).
   * Only the call that moved the invoice to `paid` delivers, so replayed or concurrent payments of one
   * invoice deliver once. All dates are `facts.paidAt`.
   */
  async settle(trx: Transaction<DB>, invoiceId: number, facts: PaymentFacts): Promise<InvoiceRow | undefined> {
    const invoice = await markInvoicePaid(trx, invoiceId, facts);
    if (!invoice) return undefined;
    switch (invoice.item_type) {
      case 'package':
        await this.activatePackage(trx, invoice, facts);
        break;
      case 'listing':
        await this.listings.submitPaidDraft(trx, invoice.item_id, invoice.buyer_id, facts.paidAt);
        break;
      case 'featured':
        await this.listings.featurePaidListing(trx, invoice.item_id, facts.paidAt);
        break;
    }
    await recordPayment(trx, invoice, facts.paidAt);
    return invoice;
  }

  /**
   * Records a paid renewal invoice and extends the membership one period; undefined when already recorded
   * (an invoice with this Stripe invoice id exists) or when no membership has the subscription (it was
   * replaced by another package). The new period starts at the current `expires_at`, or at the payment when
   * the membership had already run out, so an early payment loses no paid days and a late one pays for no
   * lapsed ones; the credits go back to the package's. The invoice's amount is the package price when Stripe
   * charged the package's total, else the charged total split at the package's tax rate (amountBeforeTax).
   */
  async renew(trx: Transaction<DB>, facts: RenewalFacts): Promise<InvoiceRow | undefined> {
    // One renewal of a subscription at a time: a replay waits and then finds its invoice recorded, and two
    // different periods paid at once each extend the end the other left.
    await lockTransactionKey(trx, `stripe-subscription:${facts.stripeSubscriptionId}`);
    if (await memberships.isStripeInvoiceRecorded(trx, facts.stripeInvoiceId)) return undefined;
    const membership = await memberships.findMembershipBySubscription(trx, facts.stripeSubscriptionId);
    if (!membership) return undefined;
    const pkg = await requirePackage(trx, membership.package_id);
    const buyer = await memberships.findBuyer(trx, membership.user_id);
    if (!buyer) throw new Error(`user ${membership.user_id} of membership ${membership.id} is gone`);

    const currency = facts.currency.toUpperCase();
    const packageTotal = pkg.price_minor + taxOf(pkg.price_minor, pkg.tax_rate_bp);
    const amountMinor =
      currency === pkg.currency && packageTotal === facts.totalMinor ? pkg.price_minor : amountBeforeTax(facts.totalMinor, pkg.tax_rate_bp);
    const created = await createInvoice(
      trx,
      {
        buyer: { id: membership.user_id, name: buyer.display_name, email: buyer.email },
        item: { type: 'package', id: pkg.id, title: pkg.title },
        amountMinor,
        currency,
        taxRateBp: pkg.tax_rate_bp,
        method: 'stripe',
        recurring: true,
        stripeInvoiceId: facts.stripeInvoiceId,
        stripeSubscriptionId: facts.stripeSubscriptionId,
      },
      facts.paidAt,
    );
    if (created.total_minor !== facts.totalMinor) await memberships.setInvoiceTotal(trx, created.id, amountMinor, facts.totalMinor);
    const paid = await markInvoicePaid(trx, created.id, facts);
    if (!paid) throw new Error(`renewal invoice ${created.id} could not be marked paid`);

    const at = nowIso(facts.paidAt);
    const currentEnd = membership.expires_at === null ? 0 : Date.parse(membership.expires_at);
    const from = new Date(Math.max(facts.paidAt.getTime(), currentEnd));
    await memberships.renewMembership(trx, membership.id, {
      packageId: pkg.id,
      remainingListings: pkg.listings_included,
      remainingFeatured: pkg.featured_included,
      expiresAt: periodEnd(from, pkg.billing_period, pkg.billing_frequency)?.toISOString() ?? null,
      at,
    });
    await recordPayment(trx, paid, facts.paidAt);
    return paid;
  }

  /** The provider ended the subscription: no more renewals; the membership runs to its `expires_at`. */
  async endSubscription(trx: Transaction<DB>, stripeSubscriptionId: string, now: Date): Promise<void> {
    await memberships.stopRenewalOfSubscription(trx, stripeSubscriptionId, nowIso(now));
  }

  /**
   * The buyer's membership becomes the package's, from the payment on, replacing any previous one with its
   * credits. Nothing to deliver when the buyer's account was deleted after buying.
   */
  private async activatePackage(trx: Transaction<DB>, invoice: InvoiceRow, facts: PaymentFacts): Promise<void> {
    if (invoice.buyer_id === null) return;
    const pkg = await requirePackage(trx, invoice.item_id);
    await this.endReplacedSubscription(trx, invoice.buyer_id, facts.stripeSubscriptionId ?? null);
    const membership = await memberships.activateMembership(trx, invoice.buyer_id, {
      packageId: pkg.id,
      remainingListings: pkg.listings_included,
      remainingFeatured: pkg.featured_included,
      expiresAt: periodEnd(facts.paidAt, pkg.billing_period, pkg.billing_frequency)?.toISOString() ?? null,
      at: nowIso(facts.paidAt),
      autoRenew: invoice.recurring === 1,
      stripeSubscriptionId: facts.stripeSubscriptionId ?? null,
    });
    await recordEvent(
      trx,
      'membership_activated',
      {
        user_id: invoice.buyer_id,
        membership_id: membership.id,
        package_id: pkg.id,
        package_title: pkg.title,
        invoice_id: invoice.id,
        expires_at: membership.expires_at,
      },
      facts.paidAt,
    );
  }

  /**
   * A membership replaced by another package must not keep its Stripe subscription charging: the
   * cancellation goes through the outbox (channel `stripe_subscription`, stripe/subscription-sender.service.ts), written
   * in this transaction, so it happens exactly when the replacement does, retried until Stripe confirms.
   */
  private async endReplacedSubscription(trx: Transaction<DB>, userId: number, newSubscriptionId: string | null): Promise<void> {
    const previous = (await memberships.findMembershipOfUser(trx, userId))?.stripe_subscription_id ?? null;
    if (previous === null || previous === newSubscriptionId) return;
    await enqueue(trx, {
      channel: 'stripe_subscription',
      idempotencyKey: `stripe-cancel:${previous}`,
      payload: { subscription_id: previous },
    });
  }
}

/**
 * The pre-tax amount of a total charged at a tax rate (basis points), so that amount + taxOf(amount) is the
 * total: integer arithmetic only. Rounded tax skips a few totals (at 20 %, 2 + 0 = 2 and 3 + 1 = 4: no amount
 * gives 3); for those it is the largest amount whose total stays below, and the tax takes the odd minor unit.
 */
export function amountBeforeTax(totalMinor: number, rateBp: number): number {
  let amount = Math.floor((totalMinor * 10_000) / (10_000 + rateBp)) + 2;
  while (amount > 0 && amount + taxOf(amount, rateBp) > totalMinor) amount -= 1;
  return amount;
}

async function requirePackage(trx: Transaction<DB>, id: number): Promise<PackageRow> {
  // Packages in use are hidden, never deleted (docs/api.md 10), so an invoice's or membership's package exists.
  const pkg = await findPackage(trx, id);
  if (!pkg) throw new Error(`package ${id} is gone`);
  return pkg;
}

async function recordPayment(trx: Transaction<DB>, invoice: InvoiceRow, paidAt: Date): Promise<void> {
  await recordEvent(
    trx,
    'payment_received',
    {
      invoice_id: invoice.id,
      invoice_number: invoice.number,
      user_id: invoice.buyer_id,
      total: fromMinor(invoice.total_minor, invoice.currency),
      currency: invoice.currency,
    },
    paidAt,
  );
}
