import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema/index.js';
import { toDailyActivity, toListingStates, toRevenue } from './stats.mapper.js';
import * as repository from './stats.repository.js';
import {
  type ActivityInput,
  DEFAULT_DAYS,
  DEFAULT_MONTHS,
  type DailyActivityRecord,
  type ListingStatesRecord,
  type RevenueInput,
  type RevenueRecord,
} from './stats.schemas.js';
import { dayWindow, monthWindow } from './stats-windows.js';

/**
 * Figures for the administrators' and managers' dashboards (docs/api.md 13; the routes admit those roles only).
 * It reads other modules' tables and never writes: each figure is one grouped statement, and the windows are
 * filled with the periods that have no rows here, not in SQL, so that both databases run the same plain queries.
 */
export class StatsService {
  constructor(private readonly db: Kysely<DB>) {}

  async listingStates(): Promise<ListingStatesRecord> {
    return toListingStates(await repository.countListingsByState(this.db));
  }

  /** New listings and new leads per UTC day, over the `days` days ending today. */
  async dailyActivity(query: ActivityInput, now: Date = new Date()): Promise<DailyActivityRecord> {
    const window = dayWindow(query.days ?? DEFAULT_DAYS, now);
    const [listings, leads] = await Promise.all([
      repository.countCreatedPerDay(this.db, 'listings', window.from, window.until),
      repository.countCreatedPerDay(this.db, 'leads', window.from, window.until),
    ]);
    return toDailyActivity(window, listings, leads);
  }

  /** Paid invoices per UTC month of payment and per currency, over the `months` months ending with this one. */
  async revenue(query: RevenueInput, now: Date = new Date()): Promise<RevenueRecord> {
    const window = monthWindow(query.months ?? DEFAULT_MONTHS, now);
    return toRevenue(window, await repository.sumPaidInvoicesPerMonth(this.db, window.from, window.until));
  }
}
