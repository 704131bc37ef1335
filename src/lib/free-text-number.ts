/**
 * Numbers as people type them into free-text fields (WordPress themes such as Houzez keep prices, sizes and a
 * floor plan's figures as text): "€1,200.50", "1.200,50 EUR", "From 1 200", "1'200", "497 m²", "1,200 Sq Ft",
 * "0.5 ac". One parser, so that every field reads the same way.
 *
 * Grouping: `,` `.` `'` `’` and spaces (also the no-break spaces locales print) group thousands; the decimal mark
 * is `.` or `,`. When both marks appear, the last one is the decimal mark ("1.200,50", "1,200.50"). A mark that
 * appears more than once groups ("1.200.000"). A single `.` or `,` followed by exactly three digits, after one to
 * three digits that are not "0", groups ("1.200" and "1,200" are 1200); NOTE: so "1.234" reads as 1234, never as
 * one and a bit: in these fields a price written with thousands separators is far more common than a figure with
 * three decimals. Any other single mark is the decimal mark ("2.5", "1,5", "0.125"). Groups after the first have
 * three digits (Indian lakh grouping, "12,34,567", is accepted too); anything else ("1,20,0", "12 34") is refused.
 */

/** An area unit written beside a number: square feet, square metres, acres, hectares. */
export type FreeTextUnit = 'sqft' | 'm2' | 'ac' | 'ha';

export interface FreeTextValue {
  value: number;
  unit?: FreeTextUnit;
  currency?: string;
  words?: string;
}

export type FreeTextNumber =
  /**
   * `currency`: an ISO 4217 code when the text has one, or a symbol that names one currency (€ → EUR). `words`:
   * the words before the number, as written ("From").
   */
  | FreeTextValue
  /** Why the text is no number, for a message after the field's name: "must be of type number (unknown unit)". */
  | { reason: string };

/** Words before a number that do not change it (Houzez's "From" price prefix typed into the price itself). */
const LEADING_WORDS = /^(?:from|starting\s+(?:at|from)|approx(?:\.|imately)?|about|ca\.?|circa|desde|ab|dès|à\s+partir\s+de|~|≈)\s*/iu;

/** Symbols that name one currency; "$" and "kr" name several, so they say nothing about which. */
const SYMBOLS: Record<string, string | undefined> = {
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  '₺': 'TRY',
  '₽': 'RUB',
  '₩': 'KRW',
  '₪': 'ILS',
  '฿': 'THB',
  '₱': 'PHP',
  '₫': 'VND',
  '₦': 'NGN',
  '₴': 'UAH',
  zł: 'PLN',
  R$: 'BRL',
  US$: 'USD',
  A$: 'AUD',
  C$: 'CAD',
  CHF: 'CHF',
  $: undefined,
  kr: undefined,
};

/** ISO 4217 codes as sites type them beside a price (upper case or not). */
const CODES = new Set(
  (
    'AED AUD BGN BHD BRL CAD CHF CLP CNY COP CZK DKK EGP EUR GBP HKD HUF IDR ILS INR ISK JOD JPY KES KRW KWD LKR MAD ' +
    'MXN MYR NGN NOK NZD OMR PEN PHP PKR PLN QAR RON RSD RUB SAR SEK SGD THB TND TRY TWD UAH USD VND ZAR'
  ).split(' '),
);

/** Units by their spelling, lower case, spaces and dots removed, ² as 2. */
const UNITS: Record<string, FreeTextUnit> = {
  sqft: 'sqft',
  sqfeet: 'sqft',
  sqfoot: 'sqft',
  ft2: 'sqft',
  sf: 'sqft',
  squarefeet: 'sqft',
  squarefoot: 'sqft',
  pi2: 'sqft',
  m2: 'm2',
  sqm: 'm2',
  sqmeter: 'm2',
  sqmeters: 'm2',
  sqmetre: 'm2',
  sqmetres: 'm2',
  squaremeter: 'm2',
  squaremeters: 'm2',
  squaremetre: 'm2',
  squaremetres: 'm2',
  mq: 'm2',
  ac: 'ac',
  acre: 'ac',
  acres: 'ac',
  ha: 'ha',
  hectare: 'ha',
  hectares: 'ha',
};

/** The unit a spelling names ("Sq Ft", "m²", "sq. m", "Acres"); undefined for none known. */
export function unitOf(text: string): FreeTextUnit | undefined {
  const compact = text
    .toLowerCase()
    .replace(/[\s.]+/gu, '')
    .replace(/²/gu, '2');
  return Object.hasOwn(UNITS, compact) ? UNITS[compact] : undefined;
}

// Symbols first, longest first, so that "R$" is not read as "$"; then codes and units as words.
const SYMBOL_PATTERN = Object.keys(SYMBOLS)
  .sort((a, b) => b.length - a.length)
  .map((symbol) => symbol.replace(/[$]/gu, '\\$'))
  .join('|');
const CURRENCY_BEFORE = new RegExp(`^(${SYMBOL_PATTERN}|[A-Za-z]{3}(?=[\\s\\d.,]))\\s*`, 'u');
const CURRENCY_AFTER = new RegExp(`\\s*(${SYMBOL_PATTERN}|[A-Za-z]{3})$`, 'u');
// A unit right after the number's last digit: letters, dots, spaces, ², 2 (as in "m2", "ft2").
const UNIT_AFTER = /(?<=\d)\s*([A-Za-z][A-Za-z.\s]*[A-Za-z.²2]|[A-Za-z]²?)$/u;

const PLAIN_DIGITS = /^\d{1,15}$/;
const MARKS_ONLY = /^-?[\d.,' ’]+$/u;
const SPACES = /[\s\u00A0\u202F\u2009]+/gu;
/** The longest text read: a field of more is no number anyone typed, and the regular expressions stay cheap. */
const MAX_LENGTH = 80;

/**
 * The number in `text` with its unit and currency; null for empty text (a field left blank); `{ reason }` when the
 * text is no number this reads.
 */
export function readFreeTextNumber(text: string): FreeTextNumber | null {
  // Most fields hold plain digits or nothing: read those without the general path's expressions.
  if (text === '') return null;
  if (PLAIN_DIGITS.test(text)) return { value: Number(text) };
  let rest = text.replace(SPACES, ' ').trim();
  if (rest === '') return null;
  if (rest.length > MAX_LENGTH) return { reason: 'must be of type number (too long)' };
  if (MARKS_ONLY.test(rest)) {
    // Digits and marks alone ("1,200", "1.5", "1 350 000"): no words, currency or unit to look for.
    const negative = rest.startsWith('-');
    const value = plainNumberOf(negative ? rest.slice(1) : rest);
    return value === undefined ? { reason: 'must be of type number' } : { value: negative ? -value : value };
  }
  const words = LEADING_WORDS.exec(rest)?.[0] ?? '';
  rest = rest.slice(words.length);
  let currency: string | undefined;
  let unit: FreeTextUnit | undefined;

  const negative = rest.startsWith('-');
  if (negative) rest = rest.slice(1).trimStart();
  const before = CURRENCY_BEFORE.exec(rest);
  if (before && isCurrency(before[1]!)) {
    currency = currencyCode(before[1]!) ?? '';
    rest = rest.slice(before[0].length);
  }
  // A unit and a currency may both follow ("1,200 EUR" or "120 m²"), never both at once.
  const after = CURRENCY_AFTER.exec(rest);
  if (after && isCurrency(after[1]!)) {
    if (currency !== undefined) return { reason: 'must be of type number (two currencies)' };
    currency = currencyCode(after[1]!) ?? '';
    rest = rest.slice(0, after.index);
  } else {
    const written = UNIT_AFTER.exec(rest);
    if (written) {
      unit = unitOf(written[1]!);
      if (unit === undefined) return { reason: 'must be of type number (unknown unit)' };
      rest = rest.slice(0, written.index);
    }
  }
  const value = plainNumberOf(rest.trim());
  if (value === undefined) return { reason: 'must be of type number' };
  const read: FreeTextValue = { value: negative ? -value : value };
  if (unit !== undefined) read.unit = unit;
  if (currency) read.currency = currency;
  if (words.trim() !== '') read.words = words.trim();
  return read;
}

function isCurrency(written: string): boolean {
  return Object.hasOwn(SYMBOLS, written) || CODES.has(written.toUpperCase());
}

function currencyCode(written: string): string | undefined {
  return Object.hasOwn(SYMBOLS, written) ? SYMBOLS[written] : written.toUpperCase();
}

const DIGITS = /^\d+$/u;
/** An integer part with one kind of group mark: "1,200,000", "1.200", "1 200", "1'200"; or lakhs: "12,34,567". */
const GROUPED = /^(?:[1-9]\d{0,2}([,.' ’])\d{3}(?:\1\d{3})*|[1-9]\d?(?:,\d{2})+,\d{3})$/u;

/** Digits with grouping and a decimal mark as described at the top; undefined when they are not that. */
function plainNumberOf(text: string): number | undefined {
  if (!/^[\d,.' ’]*\d[\d,.' ’]*$/u.test(text)) return undefined;
  const at = decimalMarkAt(text);
  let integer = at < 0 ? text : text.slice(0, at);
  const fraction = at < 0 ? '' : text.slice(at + 1);
  if (at >= 0 && !DIGITS.test(fraction)) return undefined;
  if (integer === '') integer = '0';
  else if (!DIGITS.test(integer)) {
    if (!GROUPED.test(integer)) return undefined;
    integer = integer.replace(/\D/gu, '');
  }
  const value = Number(fraction === '' ? integer : `${integer}.${fraction}`);
  return Number.isFinite(value) ? value : undefined;
}

/** Where the decimal mark is; -1 when the text has none (its marks all group). */
function decimalMarkAt(text: string): number {
  const comma = text.lastIndexOf(',');
  const dot = text.lastIndexOf('.');
  const at = Math.max(comma, dot);
  if (at < 0 || (comma >= 0 && dot >= 0)) return at;
  // One kind of mark: several of it group; a single one groups only as in "1.200" (see the top).
  if (text.indexOf(text[at]!) !== at) return -1;
  return /^[1-9]\d{0,2}$/u.test(text.slice(0, at)) && /^\d{3}$/u.test(text.slice(at + 1)) ? -1 : at;
}
