import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  activityData,
  formatDay,
  formatMonth,
  hasValues,
  CHARTED_STATES,
  type ListingStatesAnswer,
  listingStatesData,
  monthsBetween,
  revenueData,
  seriesTotals,
} from './chart-data';

const upper = (value: string) => value.toUpperCase();

describe('listingStatesData', () => {
  it('gives every state in lifecycle order, 0 for missing ones, unknown states after', () => {
    // An answer of a later API, with a state this console does not know and without some it does.
    const states = { sold: 2, pending: 3, publish: 4, archived: 1 } as unknown as ListingStatesAnswer['states'];
    const data = listingStatesData({ total: 9, states }, upper, 'Listings');
    expect(data.keys).toEqual([...CHARTED_STATES, 'archived']);
    expect(data.labels[1]).toBe('PENDING');
    expect(data.series).toHaveLength(1);
    expect(data.series[0]!.label).toBe('Listings');
    expect(data.series[0]!.values).toEqual([0, 3, 4, 0, 0, 0, 2, 1]);
  });
});

describe('activityData', () => {
  it('makes one series of listings and one of leads, oldest day first', () => {
    const data = activityData(
      {
        from: '2026-11-24',
        to: '2026-11-26',
        days: [
          { date: '2026-11-26', listings: 1, leads: 0 },
          { date: '2026-11-24', listings: 3, leads: 5 },
          { date: '2026-11-25', listings: 0, leads: 2 },
        ],
        totals: { listings: 4, leads: 7 },
      },
      (date) => date.slice(8),
      { listings: 'New listings', leads: 'New leads' },
    );
    expect(data.keys).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    expect(data.labels).toEqual(['24', '25', '26']);
    expect(data.series.map((series) => series.key)).toEqual(['listings', 'leads']);
    expect(data.series[0]!.values).toEqual([3, 0, 1]);
    expect(data.series[1]!.values).toEqual([5, 2, 0]);
    expect(seriesTotals(data)).toEqual([4, 7]);
  });
});

describe('revenueData', () => {
  it('keeps one series per currency, never adding across them, sorted by code', () => {
    const sums = { invoices: 0, amount: 0, tax: 0, total: 0 };
    const data = revenueData(
      {
        from: '2026-09',
        to: '2026-11',
        currencies: [
          { currency: 'USD', ...sums, months: [{ month: '2026-11', invoices: 1, amount: 99.5, tax: 0, total: 99.5 }] },
          {
            currency: 'EUR',
            ...sums,
            months: [
              { month: '2026-09', invoices: 1, amount: 10, tax: 2, total: 12 },
              { month: '2026-10', invoices: 0, amount: 0, tax: 0, total: 0 },
            ],
          },
        ],
      },
      (month) => month,
    );
    expect(data.keys).toEqual(['2026-09', '2026-10', '2026-11']);
    expect(data.series.map((series) => series.key)).toEqual(['EUR', 'USD']);
    expect(data.series[0]!.values).toEqual([10, 0, 0]);
    expect(data.series[1]!.values).toEqual([0, 0, 99.5]);
    expect(hasValues(data)).toBe(true);
  });

  it('has the window’s months and no series when nothing was paid', () => {
    const data = revenueData({ from: '2025-12', to: '2026-02', currencies: [] }, (month) => month);
    expect(data.keys).toEqual(['2025-12', '2026-01', '2026-02']);
    expect(data.series).toEqual([]);
    expect(hasValues(data)).toBe(false);
  });

  it('keeps every amount of every currency: each series sums to its currency’s months (property)', () => {
    const month = fc.integer({ min: 0, max: 23 }).map((index) => `2025-${String((index % 12) + 1).padStart(2, '0')}`);
    const currency = fc.record({
      currency: fc.constantFrom('EUR', 'USD', 'GBP', 'AED', 'MXN'),
      months: fc.uniqueArray(fc.record({ month, amount: fc.integer({ min: 0, max: 1_000_000 }) }), { selector: (entry) => entry.month }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(currency, { selector: (entry) => entry.currency }), (currencies) => {
        const answer = {
          from: '2025-01',
          to: '2025-12',
          currencies: currencies.map((entry) => ({
            currency: entry.currency,
            invoices: 0,
            amount: 0,
            tax: 0,
            total: 0,
            months: entry.months.map((m) => ({ ...m, invoices: 1, tax: 0, total: m.amount })),
          })),
        };
        const data = revenueData(answer, (m) => m);
        expect(data.keys).toHaveLength(12);
        expect(data.series).toHaveLength(currencies.length);
        for (const series of data.series) {
          expect(series.values).toHaveLength(data.keys.length);
          const source = currencies.find((entry) => entry.currency === series.key)!;
          expect(series.values.reduce((a, b) => a + b, 0)).toBe(source.months.reduce((a, b) => a + b.amount, 0));
        }
      }),
    );
  });
});

describe('monthsBetween', () => {
  it('crosses a year and refuses nonsense', () => {
    expect(monthsBetween('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthsBetween('2026-02', '2025-11')).toEqual([]);
    expect(monthsBetween('2026-13', '2026-14')).toEqual([]);
  });
});

describe('formatting', () => {
  it('formats UTC days and months in the language', () => {
    expect(formatDay('2026-11-01', 'en')).toBe('Nov 1');
    expect(formatMonth('2026-01', 'en')).toBe('Jan 2026');
    expect(formatDay('nonsense', 'en')).toBe('nonsense');
  });
});
