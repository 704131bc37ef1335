import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBedrooms, formatCount, formatDate, formatDateTime, formatListingPrice, formatMoney, formatNumber } from './format';
import { common } from './i18n/common';
import { LANGUAGES } from './i18n/languages';

describe('formatMoney', () => {
  it('formats in the currency and the language', () => {
    expect(formatMoney(19, 'USD', 'en')).toBe('$19.00');
    expect(formatMoney(1234.5, 'EUR', 'fr')).toMatch(/^1\s234,50\s€$/);
    expect(formatMoney(1234.5, 'EUR', 'en')).toBe('€1,234.50');
    expect(formatMoney(0, 'USD', 'es')).toMatch(/0,00/);
    expect(formatMoney(399, 'AED', 'ar')).toContain('د.إ');
  });

  it('never throws on an unknown currency code', () => {
    expect(formatMoney(5, 'not a code', 'en')).toBe('5 not a code');
    expect(formatMoney(19, 'XX1', 'en')).toBe('19 XX1');
    expect(formatMoney(5, 'XX1', 'en')).toBe('5 XX1');
  });

  it('shows every amount with its value, whatever the language', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom('en', 'es', 'fr'), (cents, language) => {
        const text = formatMoney(cents / 100, 'USD', language);
        expect(text.replace(/\D/g, '')).toBe(
          String(cents)
            .padStart(3, '0')
            .replace(/^0+(?=\d{3})/, ''),
        );
      }),
    );
  });
});

describe('formatListingPrice', () => {
  // As the favorites' and matches' cards show prices: whole units.
  const whole = { maximumFractionDigits: 0 };
  // As the table of the caller's listings shows them: up to cents, none when whole.
  const upToCents = { minimumFractionDigits: 0, maximumFractionDigits: 2 };

  it('formats the amount in the reader’s language and the listing’s currency', () => {
    expect(formatListingPrice({ price: 985000, currency: 'USD' }, 'en', whole)).toBe('$985,000');
    expect(formatListingPrice({ price: 1200, currency: 'EUR', price_postfix: '/month' }, 'fr', whole)).toMatch(/^1\s200\s€\/month$/u);
  });

  it('keeps the prefix and the postfix of the listing', () => {
    expect(formatListingPrice({ price: 10, currency: 'USD', price_prefix: 'From', price_postfix: '/week' }, 'en', whole)).toBe(
      'From $10/week',
    );
    expect(formatListingPrice({ price: 1500, currency: 'USD', price_prefix: '', price_postfix: '/month' }, 'en', upToCents)).toBe(
      '$1,500/month',
    );
    expect(formatListingPrice({ price: 250000, currency: 'EUR', price_prefix: 'From', price_postfix: '' }, 'en', upToCents)).toBe(
      'From €250,000',
    );
    expect(formatListingPrice({ price: 99.5, currency: 'USD' }, 'en', upToCents)).toBe('$99.5');
  });

  it('says the common prefixes and postfixes in the reader’s language, and others as written', () => {
    const words: Record<string, string> = { 'common.price_from': 'À partir de', 'common.price_per_month': 'par mois' };
    const t = (key: string) => words[key] ?? key;
    expect(formatListingPrice({ price: 1200, currency: 'EUR', price_prefix: 'From', price_postfix: '/month' }, 'fr', whole, t)).toMatch(
      /^À partir de 1\s200\s€ par mois$/u,
    );
    expect(formatListingPrice({ price: 1200, currency: 'EUR', price_postfix: ' Per  Month ' }, 'fr', whole, t)).toMatch(/€ par mois$/u);
    expect(formatListingPrice({ price: 5, currency: 'EUR', price_prefix: 'Only', price_postfix: '/sqm' }, 'fr', whole, t)).toMatch(
      /^Only 5\s€\/sqm$/u,
    );
  });

  it('answers null without a price, and survives an unknown currency', () => {
    expect(formatListingPrice({ price: null, currency: 'USD' }, 'en', whole)).toBeNull();
    expect(formatListingPrice({ price: null, currency: 'USD', price_prefix: '', price_postfix: '' }, 'en', upToCents)).toBeNull();
    expect(formatListingPrice({ price: 5, currency: 'not a code' }, 'en', whole)).toBe('5 not a code');
    expect(formatListingPrice({ price: 10, currency: 'X1', price_prefix: '', price_postfix: '' }, 'en', upToCents)).toBe('10 X1');
  });

  it('never throws for any finite price, language or currency', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e12 }),
        fc.constantFrom('en', 'ar', 'es', 'fr'),
        fc.string(),
        (price, language, currency) => {
          expect(typeof formatListingPrice({ price, currency }, language, whole)).toBe('string');
        },
      ),
    );
  });
});

describe('numbers and dates', () => {
  it('writes numbers in the reader’s digits', () => {
    expect(formatCount(12345, 'en')).toBe('12,345');
    expect(formatNumber(2.456, 'en')).toBe('2.46');
  });

  it('writes dates in the language', () => {
    expect(formatDate('2026-11-26T12:00:00Z', 'en')).toBe('Nov 26, 2026');
    expect(formatDate('2026-11-26T12:00:00Z', 'en', 'long')).toBe('November 26, 2026');
    expect(formatDateTime('2026-11-26T12:00:00Z', 'en')).toMatch(/^Nov 26, 2026, \d{1,2}:\d{2}\s?[AP]M$/u);
  });
});

describe('formatBedrooms', () => {
  it.each(LANGUAGES)('reads 0 bedrooms as a studio and any other number as the number (%s)', (language) => {
    const t = (key: string) => String(common[language][key.replace(/^common\./, '')]);
    expect(formatBedrooms(0, language, t)).toBe(common[language].studio);
    expect(formatBedrooms(0, language, t)).not.toMatch(/\d|٠/);
    expect(formatBedrooms(3, language, t)).toBe(formatNumber(3, language));
  });
});
