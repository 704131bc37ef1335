import { describe, expect, it } from 'vitest';
import { taxOf } from '../../src/lib/money.js';
import { amountBeforeTax } from '../../src/modules/payments/checkout/fulfilment.service.js';
import { lapsesAt, periodEnd, RENEWAL_GRACE_MS } from '../../src/modules/payments/memberships/memberships.periods.js';

const at = (iso: string) => new Date(iso);
const end = (from: string, period: Parameters<typeof periodEnd>[1], frequency = 1) => periodEnd(at(from), period, frequency)?.toISOString();

describe('periodEnd', () => {
  it('adds days and weeks as exact 24-hour days', () => {
    expect(end('2026-03-28T10:15:00.000Z', 'day')).toBe('2026-03-29T10:15:00.000Z');
    expect(end('2026-03-28T10:15:00.000Z', 'day', 7)).toBe('2026-04-04T10:15:00.000Z');
    expect(end('2026-12-30T23:00:00.000Z', 'week')).toBe('2027-01-06T23:00:00.000Z');
    expect(end('2026-01-01T00:00:00.000Z', 'week', 3)).toBe('2026-01-22T00:00:00.000Z');
  });

  it('adds calendar months, keeping the day and the time of day', () => {
    expect(end('2026-01-15T08:30:00.000Z', 'month')).toBe('2026-02-15T08:30:00.000Z');
    expect(end('2026-11-30T12:00:00.000Z', 'month', 3)).toBe('2027-02-28T12:00:00.000Z');
    expect(end('2026-12-15T00:00:00.000Z', 'month')).toBe('2027-01-15T00:00:00.000Z');
    expect(end('2026-05-31T00:00:00.000Z', 'month', 12)).toBe('2027-05-31T00:00:00.000Z');
  });

  it('ends a month on the last day of a shorter month, Feb 29 in a leap year', () => {
    expect(end('2026-01-31T09:00:00.000Z', 'month')).toBe('2026-02-28T09:00:00.000Z');
    expect(end('2028-01-31T09:00:00.000Z', 'month')).toBe('2028-02-29T09:00:00.000Z');
    expect(end('2026-03-31T09:00:00.000Z', 'month')).toBe('2026-04-30T09:00:00.000Z');
    // Two months from Jan 31 is Mar 31, not two clipped steps.
    expect(end('2026-01-31T09:00:00.000Z', 'month', 2)).toBe('2026-03-31T09:00:00.000Z');
    // A renewal adds to the previous end: a clipped month stays clipped.
    expect(end('2026-02-28T09:00:00.000Z', 'month')).toBe('2026-03-28T09:00:00.000Z');
  });

  it('adds calendar years; Feb 29 becomes Feb 28 unless the target year is a leap year', () => {
    expect(end('2026-06-10T00:00:00.000Z', 'year')).toBe('2027-06-10T00:00:00.000Z');
    expect(end('2028-02-29T18:00:00.000Z', 'year')).toBe('2029-02-28T18:00:00.000Z');
    expect(end('2028-02-29T18:00:00.000Z', 'year', 4)).toBe('2032-02-29T18:00:00.000Z');
    expect(end('2027-02-28T18:00:00.000Z', 'year')).toBe('2028-02-28T18:00:00.000Z');
  });

  it('gives one-time packages no end', () => {
    expect(periodEnd(at('2026-01-31T00:00:00.000Z'), 'one_time', 1)).toBeNull();
  });
});

describe('lapsesAt', () => {
  const expiresAt = '2026-05-01T00:00:00.000Z';

  it('is expires_at, or null without one', () => {
    expect(lapsesAt({ expires_at: expiresAt, auto_renew: 0, stripe_subscription_id: null })).toBe(expiresAt);
    expect(lapsesAt({ expires_at: expiresAt, auto_renew: 0, stripe_subscription_id: 'sub_1' })).toBe(expiresAt);
    expect(lapsesAt({ expires_at: expiresAt, auto_renew: 1, stripe_subscription_id: null })).toBe(expiresAt);
    expect(lapsesAt({ expires_at: null, auto_renew: 1, stripe_subscription_id: 'sub_1' })).toBeNull();
  });

  it('waits the renewal grace for a membership a subscription renews', () => {
    expect(lapsesAt({ expires_at: expiresAt, auto_renew: 1, stripe_subscription_id: 'sub_1' })).toBe(
      new Date(Date.parse(expiresAt) + RENEWAL_GRACE_MS).toISOString(),
    );
  });
});

describe('amountBeforeTax', () => {
  it('inverts the tax exactly wherever a pre-tax amount gives the total', () => {
    for (const rate of [0, 500, 750, 1_900, 2_000, 2_500, 10_000]) {
      for (let amount = 0; amount < 3_000; amount++) {
        const total = amount + taxOf(amount, rate);
        expect(amountBeforeTax(total, rate)).toBe(amount);
      }
    }
  });

  it('takes the largest amount below for a total that rounding skips, leaving the odd unit to the tax', () => {
    // At 20 %: 2 → 2 + 0 = 2, 3 → 3 + 1 = 4; nothing gives 3.
    expect(amountBeforeTax(3, 2_000)).toBe(2);
    // 7 → 7 + 1 = 8, 8 → 8 + 2 = 10; nothing gives 9.
    expect(amountBeforeTax(9, 2_000)).toBe(7);
    expect(amountBeforeTax(0, 2_000)).toBe(0);
  });
});
