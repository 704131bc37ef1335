/** Membership packages and invoices as the API gives them (docs/api.md 10): the buyers' and the administrators' screens read the same records. */

export const BILLING_PERIODS = ['day', 'week', 'month', 'year', 'one_time'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export const INVOICE_STATUSES = ['pending', 'paid', 'cancelled', 'refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

type PaymentMethod = 'stripe' | 'bank_transfer' | 'free';

/** A membership package. */
export interface PackageRecord {
  id: number;
  title: string;
  description: string;
  price: number;
  currency: string;
  tax_rate: number;
  total_price: number;
  formatted_price: string;
  listings_included: number | null;
  featured_included: number;
  billing_period: BillingPeriod;
  billing_frequency: number;
  visible: boolean;
  popular: boolean;
  order: number;
}

/** An invoice: buyer and item as they were when invoiced (the buyer's id is null once the account is gone). */
export interface InvoiceRecord {
  id: number;
  number: string;
  buyer: { id: number | null; display_name: string; email: string };
  item: { type: 'package' | 'listing' | 'featured'; id: number; title: string };
  amount: number;
  tax: number;
  tax_rate: number;
  total: number;
  currency: string;
  status: InvoiceStatus;
  payment_method: PaymentMethod;
  recurring: boolean;
  created_at: string;
  paid_at: string | null;
}
