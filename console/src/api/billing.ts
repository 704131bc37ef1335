import type { Schemas } from '@realty-api/client';

/** Membership packages and invoices as the API gives them (docs/api.md 10): the buyers' and the administrators' screens read the same records. */

export type BillingPeriod = Schemas['Package']['billing_period'];
export const BILLING_PERIODS = ['day', 'week', 'month', 'year', 'one_time'] as const satisfies readonly BillingPeriod[];

export type InvoiceStatus = Schemas['Invoice']['status'];
export const INVOICE_STATUSES = ['pending', 'paid', 'cancelled', 'refunded'] as const satisfies readonly InvoiceStatus[];

/** A membership package. */
export type PackageRecord = Schemas['Package'];

/** An invoice: buyer and item as they were when invoiced (the buyer's id is null once the account is gone). */
export type InvoiceRecord = Schemas['Invoice'];
