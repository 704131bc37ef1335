/**
 * The console's formatting of amounts, prices, numbers and dates in the reader's language (always the page's
 * i18n language): Arabic gets Arabic-Indic digits, French its spaces, and so on. Pure functions of their inputs.
 */
import type { Schemas } from '@realty-api/client';

/** How many decimals an amount shows; the currency's own by default. */
export interface FractionDigits {
  minimumFractionDigits?: number;
  maximumFractionDigits?: number;
}

/**
 * An amount in its currency, in the reader's language ("$19.00", "19,00 $US", "١٩٫٠٠ US$"). A code Intl refuses
 * gives the number and the code ("5 XX1"), never a crash of the page.
 */
export function formatMoney(amount: number, currency: string, language: string, digits: FractionDigits = {}): string {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency, ...digits }).format(amount);
  } catch {
    const maximumFractionDigits = digits.maximumFractionDigits ?? 2;
    return `${new Intl.NumberFormat(language, { maximumFractionDigits }).format(amount)} ${currency}`;
  }
}

/** What a listing says of its price (docs/api.md 4.1); the prefix and postfix may be left out. */
export type ListingPrice = Pick<Schemas['PropertySummary'], 'price' | 'currency'> &
  Partial<Pick<Schemas['PropertySummary'], 'price_prefix' | 'price_postfix'>>;

/**
 * The prefixes and postfixes agents write most (Houzez's own suggestions among them), by their folded text →
 * the common message that says them in the reader's language. Any other text is the agent's own and is shown
 * as written.
 */
const PRICE_WORDS: Readonly<Record<string, string>> = {
  from: 'common.price_from',
  'start from': 'common.price_from',
  'starting from': 'common.price_from',
  'starting at': 'common.price_from',
  '/month': 'common.price_per_month',
  '/mo': 'common.price_per_month',
  'per month': 'common.price_per_month',
  '/week': 'common.price_per_week',
  'per week': 'common.price_per_week',
  '/night': 'common.price_per_night',
  'per night': 'common.price_per_night',
  '/day': 'common.price_per_day',
  'per day': 'common.price_per_day',
  '/year': 'common.price_per_year',
  '/yr': 'common.price_per_year',
  'per year': 'common.price_per_year',
};

/** A prefix or postfix in the reader's language when it is one of the common ones, else as written. */
function priceWords(text: string, t: ((key: string) => string) | undefined): string {
  const key = PRICE_WORDS[text.toLowerCase().replace(/\s+/g, ' ')];
  return key && t ? t(key) : text;
}

/**
 * A listing's price in the reader's language and the listing's currency, with its prefix and postfix ("From
 * $10/week"), the common ones translated when `t` is given; null when the listing gives no price.
 */
export function formatListingPrice(
  listing: ListingPrice,
  language: string,
  digits: FractionDigits = {},
  t?: (key: string) => string,
): string | null {
  if (listing.price === null || listing.price === undefined || !Number.isFinite(listing.price)) return null;
  const amount = formatMoney(listing.price, listing.currency, language, digits);
  const prefix = listing.price_prefix?.trim();
  const postfix = listing.price_postfix?.trim();
  const after = postfix ? priceWords(postfix, t) : '';
  // A translated postfix is a word of its own ("par mois"); a slash keeps to the amount ("/month").
  const joined = after === '' ? amount : after.startsWith('/') ? `${amount}${after}` : `${amount} ${after}`;
  return [prefix ? priceWords(prefix, t) : '', joined].filter(Boolean).join(' ');
}

/** A count in the reader's digits (Arabic-Indic in Arabic). */
export function formatCount(count: number, language: string): string {
  return count.toLocaleString(language);
}

/** A plain number with grouping and at most two decimals, in the reader's digits. */
export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value);
}

/** A date of an ISO timestamp ("Nov 26, 2026"; `long`: "November 26, 2026"). */
export function formatDate(value: string, language: string, style: 'medium' | 'long' = 'medium'): string {
  return new Date(value).toLocaleDateString(language, { dateStyle: style });
}

/** A date and time of an ISO timestamp, short ("Nov 26, 2026, 3:04 PM"; `long`: "November 26, 2026 at 3:04 PM"). */
export function formatDateTime(value: string, language: string, style: 'medium' | 'long' = 'medium'): string {
  return new Intl.DateTimeFormat(language, { dateStyle: style, timeStyle: 'short' }).format(new Date(value));
}

/** A number of bedrooms as a reader says it: 0 is a studio ("Studio", in the page's language), else the number. */
export function formatBedrooms(bedrooms: number, language: string, t: (key: string) => string): string {
  return bedrooms === 0 ? t('common.studio') : formatNumber(bedrooms, language);
}
