/** Packages, memberships and invoices as the API gives them (docs/api.md 10), and the pure logic of their screens. */

import type { AnswerData } from '@realty-api/client';
import { type BillingPeriod, INVOICE_STATUSES, type InvoiceStatus, type PackageRecord } from '../../api/billing';

export { type BillingPeriod, INVOICE_STATUSES, type InvoiceRecord, type InvoiceStatus, type PackageRecord } from '../../api/billing';

/** GET /users/package: flat, Houzez-style; -1 is unlimited, nulls when there is no package. */
export type FlatPackage = AnswerData<'/realty-api/v1/users/package', 'get'>;

export type PaymentSettings = Pick<AnswerData<'/realty-api/v1/payments/settings', 'get'>, 'mode' | 'currency' | 'methods'>;

export type CheckoutAnswer = AnswerData<'/realty-api/v1/payments/checkout', 'post'>;

/** A credit allowance as shown: unlimited (-1 in /users/package, null in a package), none known, or a count. */
export type Credits = { kind: 'unlimited' } | { kind: 'none' } | { kind: 'count'; value: number };

export function creditsOf(value: number | null | undefined, nullMeans: 'unlimited' | 'none' = 'none'): Credits {
  if (value === -1) return { kind: 'unlimited' };
  if (value === null || value === undefined) return { kind: nullMeans };
  return { kind: 'count', value };
}

/** Whether the caller has a package at all (GET /users/package answers nulls when not). */
export function hasPackage(current: FlatPackage | undefined): current is FlatPackage & { package_id: number } {
  return current !== undefined && current.package_id !== null;
}

/** The body of POST /payments/checkout for a package: a free package needs no method. */
export function checkoutBody(
  pack: Pick<PackageRecord, 'id' | 'total_price'>,
  method: string | undefined,
): { item: 'package'; id: number; method?: string } {
  if (pack.total_price === 0 || !method) return { item: 'package', id: pack.id };
  return { item: 'package', id: pack.id, method };
}

/**
 * Where to send the browser after a checkout: the Stripe Checkout URL the API answered, only when it is a
 * well-formed https URL (never a javascript:, data: or plain http address); null otherwise.
 */
export function checkoutRedirect(answer: Pick<CheckoutAnswer, 'checkout_url'> | undefined): string | null {
  const raw = answer?.checkout_url;
  if (typeof raw !== 'string' || raw === '') return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
    return url.href;
  } catch {
    return null;
  }
}

/** The methods a buyer may choose for a paid package, in a stable order: card first when offered. */
export function payableMethods(settings: Pick<PaymentSettings, 'methods'> | undefined): PaymentSettings['methods'] {
  const known = ['stripe', 'bank_transfer'] as const;
  return known.filter((method) => settings?.methods.includes(method));
}

/** The query of GET /users/invoices from the page's filter: no status means every status. */
export function invoiceStatusFilter(value: string): InvoiceStatus | undefined {
  return (INVOICE_STATUSES as readonly string[]).includes(value) ? (value as InvoiceStatus) : undefined;
}

/** The message of a billing period: "monthly", or "every 3 months" when the frequency is more than one. */
export function billingMessage(period: BillingPeriod, frequency: number): { key: string; n?: number; unit?: string } {
  if (period === 'one_time') return { key: 'period_one_time' };
  if (frequency <= 1) return { key: `period_${period}` };
  return { key: 'every_n', n: frequency, unit: `unit_${period}` };
}
