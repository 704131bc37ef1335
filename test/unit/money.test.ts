import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basisPointsToPercent, fromMinor, minorDigits, percentToBasisPoints, taxOf, toMinor } from '../../src/lib/money.js';

/** Currencies of every precision the service meets: 2 decimals, none (JPY), three (KWD, BHD). */
const CURRENCIES = ['USD', 'EUR', 'JPY', 'KWD', 'BHD'] as const;

/** Minor amounts whose major form has at most 15 significant digits: every one a double holds exactly as text. */
const minorAmount = fc.integer({ min: 0, max: 999_999_999_999_999 });

/** The decimal text of a minor amount in a currency (1999 USD → "19.99"), written without floating point. */
function decimalText(minor: number, digits: number): string {
  if (digits === 0) return String(minor);
  const text = String(minor).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

describe('minorDigits', () => {
  it('knows the ISO 4217 precision of a currency, in any letter case', () => {
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('eur')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('KWD')).toBe(3);
    expect(minorDigits('BHD')).toBe(3);
  });
});

describe('toMinor and fromMinor', () => {
  it('round-trip every amount with no more decimals than its currency has', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CURRENCIES), minorAmount, (currency, minor) => {
        const major = fromMinor(minor, currency);
        expect(toMinor(major, currency)).toBe(minor);
        // The number is the decimal the client would write, not a binary neighbour of it.
        expect(major).toBe(Number(decimalText(minor, minorDigits(currency))));
      }),
    );
  });

  it('read decimal numbers as written, however they look in binary', () => {
    expect(toMinor(19.99, 'USD')).toBe(1999);
    expect(toMinor(0.07, 'USD')).toBe(7);
    expect(toMinor(99_999.99, 'USD')).toBe(9_999_999);
    expect(toMinor(1_234_567.89, 'EUR')).toBe(123_456_789);
    expect(toMinor(21_474_836.47, 'USD')).toBe(2_147_483_647);
    expect(toMinor(1500, 'JPY')).toBe(1500);
    expect(toMinor(1.234, 'KWD')).toBe(1234);
    expect(toMinor(0.005, 'BHD')).toBe(5);
    expect(toMinor(12, 'KWD')).toBe(12_000);
    expect(toMinor(0, 'USD')).toBe(0);
  });

  it('refuse any amount with more decimals than its currency has', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCIES),
        fc.integer({ min: 0, max: 999_999_999_999 }),
        fc.integer({ min: 1, max: 9 }),
        (currency, minor, extra) => {
          const amount = Number(`${decimalText(minor, minorDigits(currency))}${minorDigits(currency) === 0 ? '.' : ''}${extra}`);
          expect(toMinor(amount, currency)).toBeUndefined();
        },
      ),
    );
    expect(toMinor(9.999, 'USD')).toBeUndefined();
    expect(toMinor(1500.5, 'JPY')).toBeUndefined();
    expect(toMinor(1.2345, 'KWD')).toBeUndefined();
    expect(toMinor(0.1 + 0.2, 'USD')).toBeUndefined(); // 0.30000000000000004, not 0.3
    expect(toMinor(1e-7, 'USD')).toBeUndefined();
  });

  it('refuse negative, non-finite and unsafe amounts', () => {
    expect(toMinor(-0.01, 'USD')).toBeUndefined();
    expect(toMinor(Number.NaN, 'USD')).toBeUndefined();
    expect(toMinor(Number.POSITIVE_INFINITY, 'USD')).toBeUndefined();
    expect(toMinor(1e21, 'USD')).toBeUndefined();
    expect(toMinor(Number.MAX_SAFE_INTEGER, 'USD')).toBeUndefined();
  });

  it('give major units with the currency’s precision', () => {
    expect(fromMinor(1999, 'USD')).toBe(19.99);
    expect(fromMinor(5, 'USD')).toBe(0.05);
    expect(fromMinor(1500, 'JPY')).toBe(1500);
    expect(fromMinor(1234, 'KWD')).toBe(1.234);
    expect(fromMinor(1, 'BHD')).toBe(0.001);
  });
});

describe('taxOf', () => {
  it('is the exact tax rounded to the nearest integer, halves up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_147_483_647 }), fc.integer({ min: 0, max: 10_000 }), (amount, rate) => {
        const tax = taxOf(amount, rate);
        expect(Number.isInteger(tax)).toBe(true);
        // In integers: tax is the nearest whole unit, and an exact half goes up (the difference is +0.5, never -0.5).
        const difference = tax * 10_000 - amount * rate;
        expect(difference).toBeGreaterThan(-5_000);
        expect(difference).toBeLessThanOrEqual(5_000);
      }),
    );
  });

  it('rounds a half up and everything else to the nearest unit', () => {
    expect(taxOf(1, 5_000)).toBe(1); // 0.5 → 1
    expect(taxOf(3, 5_000)).toBe(2); // 1.5 → 2
    expect(taxOf(999, 2_000)).toBe(200); // 199.8 → 200
    expect(taxOf(1001, 2_000)).toBe(200); // 200.2 → 200
    expect(taxOf(1999, 750)).toBe(150); // 149.925 → 150
    expect(taxOf(10, 1_250)).toBe(1); // 1.25 → 1
    expect(taxOf(0, 2_000)).toBe(0);
    expect(taxOf(12_345, 0)).toBe(0);
  });

  it('makes total = amount + tax, in integers, with a total that goes back to major units exactly', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCIES),
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (currency, amount, rate) => {
          const total = amount + taxOf(amount, rate);
          expect(Number.isSafeInteger(total)).toBe(true);
          expect(toMinor(fromMinor(total, currency), currency)).toBe(total);
        },
      ),
    );
  });
});

describe('percentToBasisPoints', () => {
  it('converts every percentage with at most two decimals, and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (basisPoints) => {
        const percent = Number(decimalText(basisPoints, 2));
        expect(percentToBasisPoints(percent)).toBe(basisPoints);
        expect(basisPointsToPercent(basisPoints)).toBe(percent);
      }),
    );
    expect(percentToBasisPoints(20)).toBe(2_000);
    expect(percentToBasisPoints(7.5)).toBe(750);
    expect(percentToBasisPoints(33.33)).toBe(3_333);
    expect(percentToBasisPoints(0.01)).toBe(1);
  });

  it('refuses more than two decimals and anything outside 0..100', () => {
    expect(percentToBasisPoints(7.125)).toBeUndefined();
    expect(percentToBasisPoints(0.001)).toBeUndefined();
    expect(percentToBasisPoints(100.01)).toBeUndefined();
    expect(percentToBasisPoints(101)).toBeUndefined();
    expect(percentToBasisPoints(-1)).toBeUndefined();
    expect(percentToBasisPoints(Number.NaN)).toBeUndefined();
  });
});
