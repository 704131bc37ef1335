import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canMarkPaid,
  emptyPackageForm,
  formToPackageBody,
  invoiceFilters,
  invoiceFilterValues,
  NO_INVOICE_FILTERS,
  type PackageRecord,
  packageToForm,
} from './billing';

const professional: PackageRecord = {
  id: 3,
  title: 'Professional',
  description: 'For busy agents.',
  price: 49.5,
  currency: 'USD',
  tax_rate: 20,
  total_price: 59.4,
  formatted_price: '$59.40 / month',
  listings_included: null,
  featured_included: 5,
  billing_period: 'month',
  billing_frequency: 3,
  visible: false,
  popular: true,
  order: 2,
};

describe('package form', () => {
  it('round-trips a package into the body of PUT', () => {
    expect(formToPackageBody(packageToForm(professional))).toEqual({
      title: 'Professional',
      description: 'For busy agents.',
      price: 49.5,
      currency: 'USD',
      tax_rate: 20,
      listings_included: null,
      featured_included: 5,
      billing_period: 'month',
      billing_frequency: 3,
      visible: false,
      popular: true,
      order: 2,
    });
  });

  it('reads numbers typed with a comma, upper-cases the currency, forces frequency 1 for one-time', () => {
    const values = {
      ...emptyPackageForm('eur'),
      title: ' Gold ',
      price: '19,99',
      listings_included: '10',
      billing_period: 'one_time' as const,
      billing_frequency: '4',
    };
    const body = formToPackageBody(values);
    expect(body).toMatchObject({ title: 'Gold', price: 19.99, currency: 'EUR', listings_included: 10, billing_frequency: 1 });
  });

  it('leaves out empty numbers', () => {
    const body = formToPackageBody({ ...emptyPackageForm('USD'), title: 'X', tax_rate: ' ', order: '' });
    expect(body).not.toHaveProperty('tax_rate');
    expect(body).not.toHaveProperty('order');
  });
});

describe('invoice filters', () => {
  it('turns the form into eq filters and back', () => {
    const values = { status: 'pending' as const, user_id: ' 57 ', start_date: '2026-01-01', end_date: '2026-02-01' };
    const filters = invoiceFilters(values);
    expect(filters).toEqual([
      { field: 'status', operator: 'eq', value: 'pending' },
      { field: 'user_id', operator: 'eq', value: 57 },
      { field: 'start_date', operator: 'eq', value: '2026-01-01' },
      { field: 'end_date', operator: 'eq', value: '2026-02-01' },
    ]);
    expect(invoiceFilterValues(filters as never)).toEqual({ ...values, user_id: '57' });
  });

  it('refuses a range that ends before it starts and ignores a bad user id', () => {
    expect(invoiceFilters({ ...NO_INVOICE_FILTERS, start_date: '2026-03-01', end_date: '2026-02-01' })).toBe('range');
    expect(invoiceFilters({ ...NO_INVOICE_FILTERS, user_id: '0' })).toEqual([]);
    expect(invoiceFilters({ ...NO_INVOICE_FILTERS, user_id: '1e3' })).toEqual([]);
  });

  it('property: any form gives only eq filters with set values, or refuses the range', () => {
    const day = fc.option(
      fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      { nil: '' },
    );
    fc.assert(
      fc.property(fc.constantFrom('', 'pending', 'paid'), fc.string(), day, day, (status, user, start, end) => {
        const result = invoiceFilters({ status: status as never, user_id: user, start_date: start, end_date: end });
        if (start && end && end < start) {
          expect(result).toBe('range');
          return;
        }
        expect(result).not.toBe('range');
        for (const filter of result as { operator: string; value: unknown }[]) {
          expect(filter.operator).toBe('eq');
          expect(filter.value).not.toBe('');
        }
      }),
    );
  });
});

describe('actions', () => {
  it('marks paid only pending bank transfers', () => {
    expect(canMarkPaid({ status: 'pending', payment_method: 'bank_transfer' })).toBe(true);
    expect(canMarkPaid({ status: 'paid', payment_method: 'bank_transfer' })).toBe(false);
    expect(canMarkPaid({ status: 'pending', payment_method: 'stripe' })).toBe(false);
  });
});
