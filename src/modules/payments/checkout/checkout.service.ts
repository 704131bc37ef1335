import type { Kysely, Transaction } from 'kysely';
import type { PaymentGateway, RecurringInterval } from '../../../adapters/payments/payment-gateway.js';
import type { PaymentsConfig } from '../../../config.js';
import type { DB, PaymentMethod } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { type Language, translate } from '../../../i18n/index.js';
import { taxOf } from '../../../lib/money.js';
import { canView, isOwner, type PropertiesService, type PropertySummaryRecord } from '../../properties/index.js';
import type { AccountsService } from '../../accounts/index.js';
import * as repository from './checkout.repository.js';
import type { CheckoutInput, CheckoutResultRecord } from './checkout.schemas.js';
import type { Fulfilment } from './fulfilment.service.js';
import { cancelPendingInvoice, createInvoice, type InvoiceRow, type NewInvoice } from '../invoices/invoice-ledger.repository.js';
import { toInvoice } from '../invoices/invoices.mapper.js';
import { findPackage, lockPackage } from '../packages/packages.repository.js';

/** What a checkout sells and what it costs before tax. */
interface Quote {
  item: NewInvoice['item'];
  amountMinor: number;
  currency: string;
  taxRateBp: number;
  /** The rhythm of a package that renews; it renews only when paid through Stripe. */
  renewal?: { interval: RecurringInterval; intervalCount: number };
}

type Buyer = NewInvoice['buyer'];

/**
 * POST /payments/checkout (docs/api.md 10): prices the item, writes its invoice, and either settles it at once
 * (free items), opens a Stripe Checkout page, or returns bank-transfer instructions. Delivering what was paid
 * for is Fulfilment's job, for free items here and for paid ones when the payment arrives.
 */
export class CheckoutService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly users: AccountsService,
    private readonly properties: PropertiesService,
    private readonly fulfilment: Fulfilment,
    /** Absent when STRIPE_SECRET_KEY is not set. */
    private readonly gateway: PaymentGateway | undefined,
    private readonly settings: PaymentsConfig,
  ) {}

  async checkout(caller: AuthUser, input: CheckoutInput, lang: Language): Promise<CheckoutResultRecord> {
    const buyer = await this.buyerOf(caller);
    const listing = input.item === 'package' ? undefined : await this.ownListing(caller, input);
    const now = new Date();
    const { invoice, method, renewal } = await this.db.transaction().execute(async (trx) => {
      const quote = listing ? this.listingQuote(input.item, listing) : await this.packageQuote(trx, input.id);
      const method = this.methodFor(quote, input.method);
      const renewal = method === 'stripe' ? quote.renewal : undefined;
      const { item, amountMinor, currency, taxRateBp } = quote;
      const pending = await createInvoice(
        trx,
        { buyer, item, amountMinor, currency, taxRateBp, method, recurring: renewal !== undefined },
        now,
      );
      // Checked after createInvoice on purpose: its counter upsert holds a row lock until this transaction
      // ends, so a concurrent checkout of the same listing waits here and then sees the other's payment.
      if (quote.item.type === 'listing' && (await repository.hasPaidInvoice(trx, 'listing', quote.item.id))) {
        throw new AppError('conflict', 'checkout_listing_already_paid');
      }
      if (method !== 'free') return { invoice: pending, method, renewal };
      const paid = await this.fulfilment.settle(trx, pending.id, { paidAt: now });
      if (!paid) throw new Error(`free invoice ${pending.id} could not be settled`);
      return { invoice: paid, method, renewal };
    });
    if (method === 'stripe') return this.openStripeCheckout(invoice, buyer, renewal);
    if (method === 'bank_transfer')
      return { invoice: toInvoice(invoice), instructions: this.bankTransferInstructions(invoice.number, lang) };
    return { invoice: toInvoice(invoice) };
  }

  /** The invoice's buyer as they are now: the invoice keeps this snapshot whatever the account becomes. */
  private async buyerOf(caller: AuthUser): Promise<Buyer> {
    const account = await this.users.findAccount(caller.id);
    if (!account) throw new AppError('unauthorized');
    return { id: account.id, name: account.display_name, email: account.email };
  }

  /**
   * The listing of a `listing` or `featured` checkout, which the caller must own (docs/api.md 0.3): hidden from
   * the caller → 404, visible but someone else's → 403 (moderators included: they publish and feature
   * directly, they do not pay for others). Its state must allow what is bought, else 409, as is any mode
   * but `per_listing`.
   */
  private async ownListing(caller: AuthUser, input: CheckoutInput): Promise<PropertySummaryRecord> {
    // Both are sold only in per_listing mode: in `free` mode owners may not feature at all, and in
    // `membership` mode featuring spends the membership's credits (payments/quotas/listing-quotas.service.ts).
    if (this.settings.mode !== 'per_listing') {
      throw new AppError('conflict', input.item === 'listing' ? 'checkout_listing_fees_off' : 'checkout_featured_off', [], {
        mode: this.settings.mode,
      });
    }
    const [loaded] = await this.properties.loadSummaries([input.id]);
    if (!loaded || !canView(caller, loaded.access)) throw AppError.notFound();
    if (!isOwner(caller, loaded.access)) throw new AppError('forbidden');
    const { record } = loaded;
    if (input.item === 'listing' && record.status !== 'draft') {
      throw new AppError('conflict', 'checkout_listing_not_draft', [], { state: record.status });
    }
    if (input.item === 'featured' && record.status !== 'publish') {
      throw new AppError('conflict', 'checkout_featured_not_published', [], { state: record.status });
    }
    if (input.item === 'featured' && record.featured) throw new AppError('conflict', 'checkout_already_featured');
    return record;
  }

  /** Listing and featured fees: the configured price, tax rate and currency. */
  private listingQuote(type: CheckoutInput['item'], listing: PropertySummaryRecord): Quote {
    const amountMinor = type === 'listing' ? this.settings.listingPriceMinor : this.settings.featuredPriceMinor;
    const item = { type, id: listing.id, title: listing.title };
    return { item, amountMinor, currency: this.settings.currency, taxRateBp: this.settings.taxRateBp };
  }

  /**
   * A visible package at its own price, tax rate and currency. Read under the package's lock, which its
   * deletion takes too: an invoice never comes to refer to a package that a concurrent deletion found unused.
   */
  private async packageQuote(trx: Transaction<DB>, id: number): Promise<Quote> {
    await lockPackage(trx, id);
    const row = await findPackage(trx, id);
    if (!row || row.visible !== 1) throw AppError.notFound();
    return {
      item: { type: 'package', id: row.id, title: row.title },
      amountMinor: row.price_minor,
      currency: row.currency,
      taxRateBp: row.tax_rate_bp,
      ...(row.billing_period === 'one_time' ? {} : { renewal: { interval: row.billing_period, intervalCount: row.billing_frequency } }),
    };
  }

  /** Free items need no method (docs/api.md 12) and ignore one; others need one that this server accepts. */
  private methodFor(quote: Quote, requested: PaymentMethod | undefined): PaymentMethod {
    if (quote.amountMinor + taxOf(quote.amountMinor, quote.taxRateBp) === 0) return 'free';
    if (requested === undefined) throw AppError.invalidField('method', 'checkout_rule_method_required');
    if (requested === 'free') throw AppError.invalidField('method', 'checkout_rule_method_not_free');
    if (requested === 'stripe' && !this.gateway) throw AppError.invalidField('method', 'checkout_rule_stripe_disabled');
    return requested;
  }

  /**
   * Creates the Stripe Checkout Session after the invoice's transaction committed (no transaction waits on
   * Stripe). When Stripe fails the invoice is cancelled, so that no pending invoice waits for a payment
   * page that never opened, and the buyer gets the 503.
   */
  private async openStripeCheckout(invoice: InvoiceRow, buyer: Buyer, renewal: Quote['renewal']): Promise<CheckoutResultRecord> {
    let session;
    try {
      session = await this.gateway!.createCheckoutSession({
        invoiceId: invoice.id,
        invoiceNumber: invoice.number,
        title: invoice.item_title,
        totalMinor: invoice.total_minor,
        currency: invoice.currency,
        customerEmail: buyer.email,
        ...(renewal ? { recurring: renewal } : {}),
        successUrl: this.settings.successUrl,
        cancelUrl: this.settings.cancelUrl,
      });
    } catch (error) {
      await cancelPendingInvoice(this.db, invoice.id);
      throw error;
    }
    await repository.recordCheckoutSession(this.db, invoice.id, session.id);
    return { invoice: toInvoice(invoice), checkout_url: session.url };
  }

  /** The administrator's instructions (BANK_TRANSFER_INSTRUCTIONS), then the invoice number as the reference. */
  private bankTransferInstructions(invoiceNumber: string, lang: Language): string {
    const reference = translate(lang, 'checkout_bank_transfer_reference', { number: invoiceNumber });
    return [this.settings.bankTransferInstructions.trim(), reference].filter((part) => part !== '').join('\n\n');
  }
}
