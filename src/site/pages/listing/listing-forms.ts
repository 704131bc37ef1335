import { type Static, Type } from 'typebox';
import { translate, type Language } from '../../../i18n/index.js';
import { ContactBody } from '../../../modules/leads/index.js';
import type { FormState } from '../../components/Form.js';
import { formattersFor } from '../../format.js';
import type { FieldMessages } from '../../forms.js';
import { fill } from '../../texts.js';
import { listingText } from './listing.text.js';
import { MORTGAGE_DEFAULTS, MORTGAGE_LIMITS } from './mortgage.js';
import type { CalculatorState } from './MortgageCalculator.js';

/** What every form of the page posts besides its own fields: the signed-in visitor's token and the honeypot. */
const FormFrame = {
  csrf: Type.Optional(Type.String({ maxLength: 200 })),
  website: Type.Optional(Type.String({ maxLength: 2000 })),
};

export const ListingParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 400 }) });

/** The contact form: the fields of POST /properties/{id}/contact, checked by the same schema. */
export const ContactFormBody = Type.Object({ ...ContactBody.properties, ...FormFrame }, { additionalProperties: false });
export type ContactFormInput = Static<typeof ContactFormBody>;

/** The viewing request: the contact fields but the message, which the preferred day and time start. */
export const ViewingFormBody = Type.Object(
  {
    name: ContactBody.properties.name,
    email: ContactBody.properties.email,
    phone: ContactBody.properties.phone,
    user_type: ContactBody.properties.user_type,
    date: Type.String({ format: 'date' }),
    time: Type.Optional(Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9])?$' })),
    message: Type.Optional(Type.String({ maxLength: 4000 })),
    ...FormFrame,
  },
  { additionalProperties: false },
);
export type ViewingFormInput = Static<typeof ViewingFormBody>;

export const ReviewFormBody = Type.Object(
  {
    rating: Type.String({ pattern: '^[1-5]$' }),
    title: Type.Optional(Type.String({ maxLength: 200 })),
    content: Type.String({ minLength: 1, maxLength: 5000 }),
    ...FormFrame,
  },
  { additionalProperties: false },
);
export type ReviewFormInput = Static<typeof ReviewFormBody>;

/**
 * A blank required field reads "is required" rather than the schema's "at least 1 character", and a blank field is
 * checked by nothing else.
 */
export function withRequiredBlanks(messages: FieldMessages, body: unknown, required: readonly string[], lang: Language): FieldMessages {
  const values = (body ?? {}) as Record<string, unknown>;
  const fixed: Record<string, string> = { ...messages };
  for (const name of required) {
    const value = values[name];
    if (value === undefined || (typeof value === 'string' && value.trim() === '')) fixed[name] = translate(lang, 'rule_required');
  }
  return fixed;
}

/** A preferred day earlier than yesterday (UTC, so that no time zone finds today refused) is a mistake. */
export function viewingDateMessages(date: string, lang: Language, now = new Date()): FieldMessages {
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  return date < yesterday ? { date: listingText[lang].date_past } : {};
}

/** The lead's message of a viewing request: the day and time asked for, then what the visitor added. */
export function viewingMessage(input: ViewingFormInput, lang: Language): string {
  const t = listingText[lang];
  const time = input.time ? fill(t.viewing_lead_time, { time: input.time }) : '';
  const intro = fill(t.viewing_lead, { date: `${formattersFor(lang).date(`${input.date}T12:00:00Z`)} (${input.date})`, time });
  const added = input.message?.trim() ?? '';
  return added ? `${intro}\n\n${added}` : intro;
}

/** The GET parameters the listing page reads; any other (utm_…) is let through and ignored. */
export const ListingQuery = Type.Object(
  {
    sent: Type.Optional(Type.String({ maxLength: 20 })),
    reviews_page: Type.Optional(Type.String({ maxLength: 20 })),
    calc_price: Type.Optional(Type.String({ maxLength: 30 })),
    calc_down: Type.Optional(Type.String({ maxLength: 30 })),
    calc_rate: Type.Optional(Type.String({ maxLength: 30 })),
    calc_years: Type.Optional(Type.String({ maxLength: 30 })),
  },
  { additionalProperties: true },
);
export type ListingQueryInput = Static<typeof ListingQuery>;

const SENT_FORMS = ['contact', 'viewing', 'review'] as const;
export type SentForm = (typeof SENT_FORMS)[number];

/** The page of reviews asked for; anything but a page number is the first. */
export function reviewsPageOf(query: ListingQueryInput): number {
  const page = Number(query.reviews_page);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

export function sentFormOf(query: ListingQueryInput): SentForm | undefined {
  return SENT_FORMS.find((form) => form === query.sent);
}

const CALCULATOR_FIELDS = [
  ['calc_price', 'price'],
  ['calc_down', 'downPercent'],
  ['calc_rate', 'ratePercent'],
  ['calc_years', 'years'],
] as const;

/**
 * The calculator's figures: the listing's price and the defaults, or what its GET form asked; a figure that is
 * not a number within the field's bounds is shown beside its field and the default used instead.
 */
export function calculatorOf(query: ListingQueryInput, price: number | null, lang: Language): CalculatorState {
  const input: Record<(typeof CALCULATOR_FIELDS)[number][1], number> = { price: price ?? 0, ...MORTGAGE_DEFAULTS };
  const values: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const [field, key] of CALCULATOR_FIELDS) {
    const raw = query[field];
    if (raw === undefined || raw.trim() === '') continue;
    values[field] = raw;
    const value = Number(raw);
    const { min, max } = MORTGAGE_LIMITS[key];
    if (!Number.isFinite(value)) errors[field] = translate(lang, 'rule_type', { type: 'number' });
    else if (value < min) errors[field] = translate(lang, 'rule_minimum', { limit: min });
    else if (value > max) errors[field] = translate(lang, 'rule_maximum', { limit: max });
    else input[key] = key === 'years' ? Math.round(value) : value;
  }
  const form: FormState = { values, errors };
  return { input, form };
}
