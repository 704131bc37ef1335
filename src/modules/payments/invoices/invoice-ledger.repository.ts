import type { Selectable, Transaction } from 'kysely';
import type { DB, InvoiceItemType, InvoicesTable, PaymentMethod } from '../../../db/schema/index.js';
import { taxOf } from '../../../lib/money.js';
import { nowIso } from '../../../lib/time.js';
import type { Executor } from '../../../db/executor.js';

export type InvoiceRow = Selectable<InvoicesTable>;

/** What an invoice is for and what it costs before tax. */
export interface NewInvoice {
  buyer: { id: number; name: string; email: string };
  item: { type: InvoiceItemType; id: number; title: string };
  amountMinor: number;
  currency: string;
  taxRateBp: number;
  method: PaymentMethod;
  recurring: boolean;
  stripeInvoiceId?: string;
  stripeSubscriptionId?: string;
}

/**
 * Writes a pending invoice with the next number of its year. Call it inside the transaction that does the
 * rest of the checkout: the year's counter row stays locked until that transaction ends, so concurrent
 * checkouts take consecutive numbers, and a checkout that rolls back gives its number back (no gaps).
 */
export async function createInvoice(trx: Transaction<DB>, invoice: NewInvoice, now = new Date()): Promise<InvoiceRow> {
  const at = nowIso(now);
  const year = now.getUTCFullYear();
  const taxMinor = taxOf(invoice.amountMinor, invoice.taxRateBp);
  return trx
    .insertInto('invoices')
    .values({
      number: await nextInvoiceNumber(trx, year),
      buyer_id: invoice.buyer.id,
      buyer_name: invoice.buyer.name,
      buyer_email: invoice.buyer.email,
      item_type: invoice.item.type,
      item_id: invoice.item.id,
      item_title: invoice.item.title,
      amount_minor: invoice.amountMinor,
      tax_minor: taxMinor,
      total_minor: invoice.amountMinor + taxMinor,
      currency: invoice.currency,
      tax_rate_bp: invoice.taxRateBp,
      status: 'pending',
      payment_method: invoice.method,
      recurring: invoice.recurring ? 1 : 0,
      stripe_invoice_id: invoice.stripeInvoiceId ?? null,
      stripe_subscription_id: invoice.stripeSubscriptionId ?? null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `INV-YYYY-NNNNNN`: the year's counter, created at 1 or incremented in place (one atomic upsert). */
async function nextInvoiceNumber(trx: Transaction<DB>, year: number): Promise<string> {
  const { last_number } = await trx
    .insertInto('invoice_counters')
    .values({ year, last_number: 1 })
    .onConflict((oc) => oc.column('year').doUpdateSet((eb) => ({ last_number: eb('invoice_counters.last_number', '+', 1) })))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return `INV-${year}-${String(last_number).padStart(6, '0')}`;
}

/** Extra facts recorded when an invoice is paid. */
export interface PaymentFacts {
  paidAt: Date;
  stripeInvoiceId?: string;
  stripeSubscriptionId?: string;
}

/**
 * Moves a pending invoice to `paid` with a conditional update. Returns the paid row when this call made the
 * move, undefined when the invoice was not pending (already paid by a replayed or concurrent event, cancelled,
 * archived or unknown): exactly one caller ever gets the row, and only that one delivers the item.
 */
export async function markInvoicePaid(trx: Transaction<DB>, invoiceId: number, facts: PaymentFacts): Promise<InvoiceRow | undefined> {
  const at = nowIso(facts.paidAt);
  return trx
    .updateTable('invoices')
    .set({
      status: 'paid',
      paid_at: at,
      updated_at: at,
      ...(facts.stripeInvoiceId ? { stripe_invoice_id: facts.stripeInvoiceId } : {}),
      ...(facts.stripeSubscriptionId ? { stripe_subscription_id: facts.stripeSubscriptionId } : {}),
    })
    .where('id', '=', invoiceId)
    .where('status', '=', 'pending')
    .where('archived_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Cancels an invoice that is still pending: a checkout whose payment page could not be opened, or whose
 * Stripe session expired unpaid. True when this call cancelled it; a paid invoice is never touched.
 */
export async function cancelPendingInvoice(db: Executor, invoiceId: number, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('invoices')
    .set({ status: 'cancelled', updated_at: nowIso(now) })
    .where('id', '=', invoiceId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
