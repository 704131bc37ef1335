import type { CrudFilter } from '@refinedev/core';

import { type BillingPeriod, INVOICE_STATUSES, type InvoiceRecord, type InvoiceStatus, type PackageRecord } from '../../api/billing';

export { BILLING_PERIODS, INVOICE_STATUSES, type InvoiceRecord, type PackageRecord } from '../../api/billing';

/** The package editor's values: numbers are kept as the text typed. */
export interface PackageFormValues {
  title: string;
  description: string;
  price: string;
  currency: string;
  tax_rate: string;
  unlimited: boolean;
  listings_included: string;
  featured_included: string;
  billing_period: BillingPeriod;
  billing_frequency: string;
  visible: boolean;
  popular: boolean;
  order: string;
}

export type PackageBody = Partial<Omit<PackageRecord, 'id' | 'total_price' | 'formatted_price'>>;

export function emptyPackageForm(currency: string): PackageFormValues {
  return {
    title: '',
    description: '',
    price: '0',
    currency,
    tax_rate: '0',
    unlimited: false,
    listings_included: '1',
    featured_included: '0',
    billing_period: 'month',
    billing_frequency: '1',
    visible: true,
    popular: false,
    order: '0',
  };
}

export function packageToForm(record: PackageRecord): PackageFormValues {
  return {
    title: record.title,
    description: record.description,
    price: String(record.price),
    currency: record.currency,
    tax_rate: String(record.tax_rate),
    unlimited: record.listings_included === null,
    listings_included: record.listings_included === null ? '' : String(record.listings_included),
    featured_included: String(record.featured_included),
    billing_period: record.billing_period,
    billing_frequency: String(record.billing_frequency),
    visible: record.visible,
    popular: record.popular,
    order: String(record.order),
  };
}

/** A typed number, or undefined when the text is empty or not a number (the field is then left out). */
function numberOf(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The body of POST / PUT /payments/packages[/{id}]: every field the editor shows, numbers as numbers,
 * `listings_included` null for unlimited, the currency upper-cased; an empty number is left out, and
 * a one-time package always renews once (the API requires frequency 1 for `one_time`).
 */
export function formToPackageBody(values: PackageFormValues): PackageBody {
  const body: PackageBody = {
    title: values.title.trim(),
    description: values.description.trim(),
    billing_period: values.billing_period,
    visible: values.visible,
    popular: values.popular,
    listings_included: values.unlimited ? null : (numberOf(values.listings_included) ?? null),
  };
  const numbers = { price: values.price, tax_rate: values.tax_rate, featured_included: values.featured_included, order: values.order };
  for (const [field, text] of Object.entries(numbers) as [keyof typeof numbers, string][]) {
    const value = numberOf(text);
    if (value !== undefined) body[field] = value;
  }
  const frequency = values.billing_period === 'one_time' ? 1 : numberOf(values.billing_frequency);
  if (frequency !== undefined) body.billing_frequency = frequency;
  const currency = values.currency.trim().toUpperCase();
  if (currency !== '') body.currency = currency;
  return body;
}

/** The invoice list's filter form. */
export interface InvoiceFilterValues {
  status: '' | InvoiceStatus;
  user_id: string;
  start_date: string;
  end_date: string;
}

export const NO_INVOICE_FILTERS: InvoiceFilterValues = { status: '', user_id: '', start_date: '', end_date: '' };

/**
 * Refine filters (operator `eq` → query parameters of GET /users/invoices) from the form; empty fields and
 * a user id that is not a positive whole number are left out. A range ending before it starts is refused
 * here (`'range'`) rather than sent.
 */
export function invoiceFilters(values: InvoiceFilterValues): CrudFilter[] | 'range' {
  if (values.start_date && values.end_date && values.end_date < values.start_date) return 'range';
  const filters: CrudFilter[] = [];
  if (values.status) filters.push({ field: 'status', operator: 'eq', value: values.status });
  const user = values.user_id.trim();
  if (/^[1-9][0-9]{0,9}$/.test(user)) filters.push({ field: 'user_id', operator: 'eq', value: Number(user) });
  if (values.start_date) filters.push({ field: 'start_date', operator: 'eq', value: values.start_date });
  if (values.end_date) filters.push({ field: 'end_date', operator: 'eq', value: values.end_date });
  return filters;
}

/** The form back from Refine's filters (for a page opened with filters in its address). */
export function invoiceFilterValues(filters: readonly CrudFilter[]): InvoiceFilterValues {
  const values = { ...NO_INVOICE_FILTERS };
  for (const filter of filters) {
    if (!('field' in filter) || filter.value === undefined || filter.value === null) continue;
    const value = String(filter.value);
    if (filter.field === 'status' && (INVOICE_STATUSES as readonly string[]).includes(value)) values.status = value as InvoiceStatus;
    if (filter.field === 'user_id') values.user_id = value;
    if (filter.field === 'start_date') values.start_date = value;
    if (filter.field === 'end_date') values.end_date = value;
  }
  return values;
}

/** Whether an administrator can mark the invoice paid (docs/api.md 10: pending bank transfers only). */
export function canMarkPaid(invoice: Pick<InvoiceRecord, 'status' | 'payment_method'>): boolean {
  return invoice.status === 'pending' && invoice.payment_method === 'bank_transfer';
}
