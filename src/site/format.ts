import type { Language } from '../i18n/index.js';

/** The locale each language formats numbers, prices and dates in. Arabic keeps Western digits, as Gulf portals do. */
const LOCALES: Readonly<Record<Language, string>> = { en: 'en-US', ar: 'ar-u-nu-latn', es: 'es-ES', fr: 'fr-FR' };

const AREA_UNITS: Readonly<Record<Language, Readonly<Record<'sqft' | 'm2', string>>>> = {
  en: { sqft: 'sq ft', m2: 'm²' },
  ar: { sqft: 'قدم²', m2: 'م²' },
  es: { sqft: 'pies²', m2: 'm²' },
  fr: { sqft: 'pi²', m2: 'm²' },
};

/** Number, price, area and date formatting in one language; the Intl objects are made once per language. */
export interface Formatters {
  readonly locale: string;
  number(value: number): string;
  /** `1500` in EUR → "1.500 €" (es), "€1,500" (en); whole units unless the amount has cents. */
  money(amount: number, currency: string): string;
  /** A listing's price with its prefix and postfix ("From €450,000", "$1,500/month"); "" without a price. */
  price(listing: PricedListing): string;
  area(value: number, unit: 'sqft' | 'm2'): string;
  /** A date without its time ("2 December 2026"). */
  date(iso: string): string;
}

interface PricedListing {
  readonly price: number | null;
  readonly currency: string;
  readonly price_prefix: string;
  readonly price_postfix: string;
}

const cache = new Map<Language, Formatters>();

export function formattersFor(lang: Language): Formatters {
  let formatters = cache.get(lang);
  if (!formatters) cache.set(lang, (formatters = makeFormatters(lang)));
  return formatters;
}

function makeFormatters(lang: Language): Formatters {
  const locale = LOCALES[lang];
  const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  const moneyFormats = new Map<string, Intl.NumberFormat[]>();
  const moneyFormat = (currency: string, cents: boolean) => {
    let pair = moneyFormats.get(currency);
    if (!pair) {
      const make = (digits: number) => {
        try {
          return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: 2 });
        } catch {
          // A code Intl does not know: the amount with the code after it.
          return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: 2 });
        }
      };
      moneyFormats.set(currency, (pair = [make(0), make(2)]));
    }
    return pair[cents ? 1 : 0]!;
  };
  const money = (amount: number, currency: string) => {
    const format = moneyFormat(currency, !Number.isInteger(amount));
    const text = format.format(amount);
    return format.resolvedOptions().style === 'currency' ? text : `${text} ${currency}`;
  };
  return {
    locale,
    number: (value) => numbers.format(value),
    money,
    price: ({ price, currency, price_prefix, price_postfix }) => {
      if (price === null) return '';
      return [price_prefix, `${money(price, currency)}${price_postfix}`].filter((part) => part !== '').join(' ');
    },
    area: (value, unit) => `${numbers.format(value)} ${AREA_UNITS[lang][unit]}`,
    date: (iso) => dates.format(new Date(iso)),
  };
}
