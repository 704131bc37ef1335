import { LISTING_STATES, type ListingState } from '../../db/schema/index.js';
import { fromMinor } from '../../lib/money.js';
import type { PaidInvoicesOfMonth } from './stats.repository.js';
import type { CalendarWindow } from './stats-windows.js';
import type { DailyActivityRecord, ListingStatesRecord, RevenueRecord } from './stats.schemas.js';

/** Every state of docs/api.md 4.3, in its order, 0 where no listing is in it. */
export function toListingStates(counts: readonly { state: ListingState; count: number }[]): ListingStatesRecord {
  const states = Object.fromEntries(LISTING_STATES.map((state) => [state, 0])) as Record<ListingState, number>;
  for (const { state, count } of counts) if (state in states) states[state] = count;
  return { total: Object.values(states).reduce((sum, n) => sum + n, 0), states };
}

/** Every day of the window with its counts, 0 where a day has none. */
export function toDailyActivity(
  window: CalendarWindow,
  listings: ReadonlyMap<string, number>,
  leads: ReadonlyMap<string, number>,
): DailyActivityRecord {
  const days = window.periods.map((date) => ({ date, listings: listings.get(date) ?? 0, leads: leads.get(date) ?? 0 }));
  return {
    from: window.periods[0]!,
    to: window.periods.at(-1)!,
    days,
    totals: {
      listings: days.reduce((sum, day) => sum + day.listings, 0),
      leads: days.reduce((sum, day) => sum + day.leads, 0),
    },
  };
}

interface MinorSums {
  invoices: number;
  amountMinor: number;
  taxMinor: number;
  totalMinor: number;
}

const NO_SUMS: MinorSums = { invoices: 0, amountMinor: 0, taxMinor: 0, totalMinor: 0 };

/**
 * One series per currency (by code), every month of the window in each, 0 where nothing was paid in it. Sums stay
 * integers in minor units until the one conversion to major units, so they add up exactly.
 */
export function toRevenue(window: CalendarWindow, rows: readonly PaidInvoicesOfMonth[]): RevenueRecord {
  const byCurrency = new Map<string, Map<string, MinorSums>>();
  for (const row of rows) {
    let months = byCurrency.get(row.currency);
    if (!months) byCurrency.set(row.currency, (months = new Map()));
    months.set(row.month, row);
  }
  const currencies = [...byCurrency.keys()].sort().map((currency) => {
    const months = byCurrency.get(currency)!;
    const series = window.periods.map((month) => ({ month, sums: months.get(month) ?? NO_SUMS }));
    const whole = series.reduce<MinorSums>(
      (sum, { sums }) => ({
        invoices: sum.invoices + sums.invoices,
        amountMinor: sum.amountMinor + sums.amountMinor,
        taxMinor: sum.taxMinor + sums.taxMinor,
        totalMinor: sum.totalMinor + sums.totalMinor,
      }),
      NO_SUMS,
    );
    return {
      currency,
      ...inMajorUnits(whole, currency),
      months: series.map(({ month, sums }) => ({ month, ...inMajorUnits(sums, currency) })),
    };
  });
  return { from: window.periods[0]!, to: window.periods.at(-1)!, currencies };
}

function inMajorUnits(sums: MinorSums, currency: string) {
  return {
    invoices: sums.invoices,
    amount: fromMinor(sums.amountMinor, currency),
    tax: fromMinor(sums.taxMinor, currency),
    total: fromMinor(sums.totalMinor, currency),
  };
}
