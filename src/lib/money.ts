/**
 * Money in integer minor units (cents), never floating point: amounts are stored and added as integers and
 * converted to the API's decimal numbers only at the edges. Tax rates are basis points (20 % = 2,000).
 */

const minorDigitsCache = new Map<string, number>();

/** Digits after the decimal point of a currency (ISO 4217: USD 2, JPY 0, KWD 3). */
export function minorDigits(currency: string): number {
  const code = currency.toUpperCase();
  let digits = minorDigitsCache.get(code);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    minorDigitsCache.set(code, digits);
  }
  return digits;
}

/** One formatter per currency and precision: building an Intl.NumberFormat costs far more than using one. */
const displayFormatters = new Map<string, Intl.NumberFormat>();

/**
 * A decimal amount as display text, the way prices show everywhere in the API: English, the currency's narrow
 * symbol, exactly `fractionDigits` decimals ("$1,500", "$119.88", "KWD 1.250").
 */
export function formatAmount(amount: number, currency: string, fractionDigits: number): string {
  const key = `${currency}:${fractionDigits}`;
  let formatter = displayFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    displayFormatters.set(key, formatter);
  }
  return formatter.format(amount);
}

/**
 * A decimal amount (as the API receives it) in minor units. Refuses amounts with more decimals than the
 * currency has, rather than rounding money silently: returns undefined for those and for negative or
 * non-finite amounts.
 */
export function toMinor(amount: number, currency: string): number | undefined {
  if (!Number.isFinite(amount) || amount < 0) return undefined;
  const digits = minorDigits(currency);
  // The decimal text, not the binary value, decides: 19.99 is "19.99", whatever 19.99 * 100 gives. String()
  // writes the shortest decimal that reads back as the same number, which is the one the client sent (up to
  // 15 significant digits); a fixed number of decimals would show binary noise from about 100,000 upwards
  // (99999.99.toFixed(12) is "99999.990000000005").
  const text = String(amount);
  // Exponent forms mean below 1e-6 (more decimals than any currency has) or from 1e21 (beyond safe integers).
  if (text.includes('e')) return undefined;
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > digits) return undefined;
  const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/** Minor units as the API's decimal number (1999 USD → 19.99). */
export function fromMinor(minor: number, currency: string): number {
  return Number((minor / 10 ** minorDigits(currency)).toFixed(minorDigits(currency)));
}

/** Tax on an amount at a rate in basis points, rounded half up to the minor unit (integers only). */
export function taxOf(amountMinor: number, rateBasisPoints: number): number {
  return Math.floor((amountMinor * rateBasisPoints + 5_000) / 10_000);
}

/** A percentage (20, 7.5) in basis points; undefined beyond two decimals or outside 0..100. */
export function percentToBasisPoints(percent: number): number | undefined {
  if (!Number.isFinite(percent) || percent < 0 || percent > 100) return undefined;
  const basisPoints = Math.round(percent * 100);
  return Math.abs(basisPoints - percent * 100) < 1e-6 ? basisPoints : undefined;
}

/** Basis points as the API's percentage (2,000 → 20). */
export function basisPointsToPercent(basisPoints: number): number {
  return basisPoints / 100;
}
