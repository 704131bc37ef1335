import { type Static, Type } from 'typebox';
import { LISTING_STATES } from '../../db/schema/index.js';

/** Who reads the dashboards' figures (docs/api.md 13). */
export const STATS_READERS = ['administrator', 'manager'] as const;

export const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;
export const DEFAULT_MONTHS = 12;
const MAX_MONTHS = 120;

const Count = Type.Integer({ minimum: 0 });
const DAY = { pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' };

export const ListingStates = Type.Object({
  total: Type.Integer({ minimum: 0, description: 'Every listing, whatever its state' }),
  states: Type.Object(
    Object.fromEntries(LISTING_STATES.map((state) => [state, Count])) as Record<(typeof LISTING_STATES)[number], typeof Count>,
    { description: 'Listings per state of docs/api.md 4.3; every state is present, 0 when it has none' },
  ),
});
export type ListingStatesRecord = Static<typeof ListingStates>;

export const ActivityQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_DAYS,
        default: DEFAULT_DAYS,
        description: `How many UTC days, ending today (default ${DEFAULT_DAYS}, at most ${MAX_DAYS})`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type ActivityInput = Static<typeof ActivityQuery>;

export const DailyActivity = Type.Object({
  from: Type.String({ ...DAY, description: 'The first day of the window (UTC), `YYYY-MM-DD`' }),
  to: Type.String({ ...DAY, description: 'The last day of the window: today (UTC)' }),
  days: Type.Array(
    Type.Object({
      date: Type.String({ ...DAY, description: 'A UTC day, `YYYY-MM-DD`' }),
      listings: Type.Integer({ minimum: 0, description: 'Listings created that day, whatever their state now' }),
      leads: Type.Integer({ minimum: 0, description: 'Leads (contact-form messages) received that day' }),
    }),
    { description: 'Every day of the window, oldest first; 0 on days without any' },
  ),
  totals: Type.Object({ listings: Count, leads: Count }, { description: 'The sums over the window' }),
});
export type DailyActivityRecord = Static<typeof DailyActivity>;

export const RevenueQuery = Type.Object(
  {
    months: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_MONTHS,
        default: DEFAULT_MONTHS,
        description: `How many UTC calendar months, ending with this one (default ${DEFAULT_MONTHS}, at most ${MAX_MONTHS})`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type RevenueInput = Static<typeof RevenueQuery>;

const MONTH = { pattern: '^[0-9]{4}-[0-9]{2}$' };
const Money = Type.Number({ minimum: 0, description: 'In major units of the currency' });
const Sums = {
  invoices: Type.Integer({ minimum: 0, description: 'Paid invoices' }),
  amount: Money,
  tax: Money,
  total: Type.Number({ minimum: 0, description: 'amount + tax, in major units of the currency' }),
};

export const Revenue = Type.Object({
  from: Type.String({ ...MONTH, description: 'The first month of the window (UTC), `YYYY-MM`' }),
  to: Type.String({ ...MONTH, description: 'The last month of the window: this month (UTC)' }),
  currencies: Type.Array(
    Type.Object({
      currency: Type.String({ description: 'ISO 4217 code, as invoiced' }),
      ...Sums,
      months: Type.Array(Type.Object({ month: Type.String({ ...MONTH, description: 'A UTC month, `YYYY-MM`' }), ...Sums }), {
        description: 'Every month of the window, oldest first; 0 in months without a payment in this currency',
      }),
    }),
    {
      description:
        'One entry per currency with a paid invoice in the window, by code; amounts are never converted or added ' +
        'across currencies. Empty when nothing was paid.',
    },
  ),
});
export type RevenueRecord = Static<typeof Revenue>;
