import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  billingMessage,
  checkoutBody,
  checkoutRedirect,
  creditsOf,
  type FlatPackage,
  hasPackage,
  invoiceStatusFilter,
  payableMethods,
} from './money';

describe('credits', () => {
  it('reads -1 as unlimited, null as none or unlimited as asked, numbers as counts', () => {
    expect(creditsOf(-1)).toEqual({ kind: 'unlimited' });
    expect(creditsOf(null)).toEqual({ kind: 'none' });
    expect(creditsOf(null, 'unlimited')).toEqual({ kind: 'unlimited' });
    expect(creditsOf(0)).toEqual({ kind: 'count', value: 0 });
    expect(creditsOf(7)).toEqual({ kind: 'count', value: 7 });
  });

  it('knows when there is no package', () => {
    const none = { package_id: null } as FlatPackage;
    expect(hasPackage(undefined)).toBe(false);
    expect(hasPackage(none)).toBe(false);
    expect(hasPackage({ ...none, package_id: 2 })).toBe(true);
  });
});

describe('checkout', () => {
  it('sends the method for paid packages only', () => {
    expect(checkoutBody({ id: 2, total_price: 19 }, 'stripe')).toEqual({ item: 'package', id: 2, method: 'stripe' });
    expect(checkoutBody({ id: 1, total_price: 0 }, 'stripe')).toEqual({ item: 'package', id: 1 });
    expect(checkoutBody({ id: 2, total_price: 19 }, undefined)).toEqual({ item: 'package', id: 2 });
  });

  it('redirects only to an https URL the API gave', () => {
    expect(checkoutRedirect({ checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_1#frag' })).toBe(
      'https://checkout.stripe.com/c/pay/cs_test_1#frag',
    );
    expect(checkoutRedirect(undefined)).toBeNull();
    expect(checkoutRedirect({})).toBeNull();
    expect(checkoutRedirect({ checkout_url: '' })).toBeNull();
    expect(checkoutRedirect({ checkout_url: 'http://checkout.stripe.com/x' })).toBeNull();
    expect(checkoutRedirect({ checkout_url: 'javascript:alert(1)' })).toBeNull();
    expect(checkoutRedirect({ checkout_url: 'data:text/html,<script>1</script>' })).toBeNull();
    expect(checkoutRedirect({ checkout_url: '//evil.example/x' })).toBeNull();
    expect(checkoutRedirect({ checkout_url: 'https://user:pw@evil.example/' })).toBeNull();
  });

  it('never answers anything but https', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const target = checkoutRedirect({ checkout_url: raw });
        expect(target === null || target.startsWith('https://')).toBe(true);
      }),
    );
  });

  it('offers card first, then bank transfer, and only what the settings list', () => {
    expect(payableMethods({ methods: ['bank_transfer', 'stripe'] })).toEqual(['stripe', 'bank_transfer']);
    expect(payableMethods({ methods: ['bank_transfer'] })).toEqual(['bank_transfer']);
    expect(payableMethods({ methods: [] })).toEqual([]);
    expect(payableMethods(undefined)).toEqual([]);
  });
});

describe('invoices and billing', () => {
  it('filters by a known status only', () => {
    expect(invoiceStatusFilter('paid')).toBe('paid');
    expect(invoiceStatusFilter('')).toBeUndefined();
    expect(invoiceStatusFilter('archived')).toBeUndefined();
  });

  it('names the billing period', () => {
    expect(billingMessage('month', 1)).toEqual({ key: 'period_month' });
    expect(billingMessage('one_time', 1)).toEqual({ key: 'period_one_time' });
    expect(billingMessage('one_time', 3)).toEqual({ key: 'period_one_time' });
    expect(billingMessage('week', 2)).toEqual({ key: 'every_n', n: 2, unit: 'unit_week' });
  });
});
