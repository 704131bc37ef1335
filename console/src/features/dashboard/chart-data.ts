/**
 * The dashboard's pure mapping of the /stats answers (docs/api.md 13) to what a chart draws and what its
 * table reads: labels along one axis, one series of numbers per line or bar set. Formatting of labels is
 * left to functions passed in, so these stay independent of the language.
 */
import type { AnswerData } from '@realty-api/client';
import { LISTING_STATES } from '../listings/types';

/** GET /stats/listings */
export type ListingStatesAnswer = AnswerData<'/realty-api/v1/stats/listings', 'get'>;

/** The listing states, in the order the listings feature shows them; each must be a key of the answer's counts. */
export const CHARTED_STATES: readonly (keyof ListingStatesAnswer['states'])[] = LISTING_STATES;

/** GET /stats/activity */
export type ActivityAnswer = AnswerData<'/realty-api/v1/stats/activity', 'get'>;

/** GET /stats/revenue */
export type RevenueAnswer = AnswerData<'/realty-api/v1/stats/revenue', 'get'>;
/** The sums of a month's invoices a revenue chart can show. */
type Measure = Exclude<keyof RevenueAnswer['currencies'][number]['months'][number], 'month'>;

/** One named set of values, aligned with the chart's labels. `key` is stable (a state, a measure, a currency). */
interface Series {
  key: string;
  label: string;
  values: number[];
}

/** What a chart draws and its table reads: `keys[i]` is the raw value behind `labels[i]`. */
export interface ChartData {
  keys: string[];
  labels: string[];
  series: Series[];
}

/**
 * Listings per state, in the lifecycle order of 4.3; states the API adds later come after, in its order.
 * A missing count reads 0.
 */
export function listingStatesData(answer: ListingStatesAnswer, labelOf: (state: string) => string, seriesLabel: string): ChartData {
  // A later API may count a state this console does not know yet: it is shown after the known ones.
  const states: Readonly<Record<string, number | undefined>> = answer.states;
  const extra = Object.keys(states).filter((state) => !(CHARTED_STATES as readonly string[]).includes(state));
  const keys = [...CHARTED_STATES, ...extra];
  return {
    keys,
    labels: keys.map(labelOf),
    series: [{ key: 'listings', label: seriesLabel, values: keys.map((state) => count(states[state])) }],
  };
}

/** New listings and new leads per day, oldest day first (the API's order kept, sorted in case it is not). */
export function activityData(
  answer: ActivityAnswer,
  dayLabel: (date: string) => string,
  seriesLabels: { listings: string; leads: string },
): ChartData {
  const days = [...answer.days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return {
    keys: days.map((day) => day.date),
    labels: days.map((day) => dayLabel(day.date)),
    series: [
      { key: 'listings', label: seriesLabels.listings, values: days.map((day) => count(day.listings)) },
      { key: 'leads', label: seriesLabels.leads, values: days.map((day) => count(day.leads)) },
    ],
  };
}

/**
 * Revenue (amount before tax) per month, one series per currency, never converted or added across
 * currencies. The months are the union of every currency's months (the API gives each the whole window),
 * oldest first; a month a currency lacks reads 0. An answer without currencies still has the window's months.
 */
export function revenueData(answer: RevenueAnswer, monthLabel: (month: string) => string, measure: Measure = 'amount'): ChartData {
  const months = new Set<string>(monthsBetween(answer.from, answer.to));
  for (const currency of answer.currencies) for (const month of currency.months) months.add(month.month);
  const keys = [...months].sort();
  const currencies = [...answer.currencies].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
  return {
    keys,
    labels: keys.map(monthLabel),
    series: currencies.map((currency) => {
      const byMonth = new Map(currency.months.map((month) => [month.month, month[measure]]));
      return { key: currency.currency, label: currency.currency, values: keys.map((month) => count(byMonth.get(month))) };
    }),
  };
}

/** Every `YYYY-MM` from `from` to `to` inclusive; empty when either is malformed or `to` is before `from`. */
export function monthsBetween(from: string, to: string): string[] {
  const parse = (month: string): number | null => {
    const match = /^(\d{4})-(\d{2})$/.exec(month);
    if (!match) return null;
    const m = Number(match[2]);
    return m >= 1 && m <= 12 ? Number(match[1]) * 12 + (m - 1) : null;
  };
  const start = parse(from);
  const end = parse(to);
  if (start === null || end === null || end < start || end - start > 1200) return [];
  const months: string[] = [];
  for (let index = start; index <= end; index++) {
    months.push(`${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`);
  }
  return months;
}

/** The sum of each series, for the table's last row. */
export function seriesTotals(data: ChartData): number[] {
  return data.series.map((series) => series.values.reduce((sum, value) => sum + value, 0));
}

/** Whether there is anything to draw: some value above 0. */
export function hasValues(data: ChartData): boolean {
  return data.series.some((series) => series.values.some((value) => value > 0));
}

function count(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A UTC day `YYYY-MM-DD` as a short date of the language ("26 Nov"), UTC so the day never shifts. */
export function formatDay(date: string, language: string): string {
  const time = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(time)) return date;
  return new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(time);
}

/** A UTC month `YYYY-MM` as month and year of the language ("Nov 2026"). */
export function formatMonth(month: string, language: string): string {
  const time = Date.parse(`${month}-01T00:00:00Z`);
  if (Number.isNaN(time)) return month;
  return new Intl.DateTimeFormat(language, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(time);
}
