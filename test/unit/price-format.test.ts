import { describe, expect, it } from 'vitest';
import { formatPrice } from '../../src/modules/properties/price-format.js';

describe('formatPrice', () => {
  it('is empty without a price', () => {
    expect(formatPrice(null, 'USD', 'From', '/month')).toBe('');
  });

  it('shows whole units with grouping in the currency’s symbol', () => {
    expect(formatPrice(250000, 'USD', '', '')).toBe('$250,000');
    expect(formatPrice(1500, 'EUR', '', '')).toBe('€1,500');
    expect(formatPrice(0, 'GBP', '', '')).toBe('£0');
    expect(formatPrice(1234567, 'AED', '', '')).toBe('AED\u00a01,234,567'); // a no-break space, as Intl writes it
  });

  it('shows cents only when the amount has them', () => {
    expect(formatPrice(1500.5, 'USD', '', '')).toBe('$1,500.50');
    expect(formatPrice(99.99, 'EUR', '', '')).toBe('€99.99');
    // Decided on the amount as shown: sub-cent digits that round away show no ".00".
    expect(formatPrice(999.999, 'USD', '', '')).toBe('$1,000');
    expect(formatPrice(1500.001, 'USD', '', '')).toBe('$1,500');
  });

  it('puts the prefix before (with a space) and the postfix right after', () => {
    expect(formatPrice(1500, 'USD', 'From', '/month')).toBe('From $1,500/month');
    expect(formatPrice(1500, 'USD', '', '/month')).toBe('$1,500/month');
    expect(formatPrice(1500, 'USD', 'From', '')).toBe('From $1,500');
  });

  it('formats codes without a symbol by the code, and large amounts exactly', () => {
    expect(formatPrice(5, 'XYZ', '', '')).toBe('XYZ\u00a05');
    expect(formatPrice(9_999_999_999_999, 'USD', '', '')).toBe('$9,999,999,999,999');
  });

  it('gives the same text on repeated calls (formatters are reused per currency and precision)', () => {
    expect(formatPrice(10, 'USD', '', '')).toBe('$10');
    expect(formatPrice(10.25, 'USD', '', '')).toBe('$10.25');
    expect(formatPrice(10, 'USD', '', '')).toBe('$10');
  });
});
