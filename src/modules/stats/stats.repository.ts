import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { ListingState } from '../../db/schema/index.js';

/**
 * The aggregates of the dashboards (docs/api.md 13). Reads only, each one grouped statement over an indexed
 * range, the same on both databases: timestamps are stored as ISO 8601 UTC text (db/schema/index.ts), so a UTC
 * day or month is a prefix of the text (`substr`, the same function on both), and a window is a range of the
 * text, compared in the stored form itself.
 */

/** The UTC day (`YYYY-MM-DD`, 10) or month (`YYYY-MM`, 7) of a stored timestamp column. */
function utcPrefix(column: string, length: 7 | 10): RawBuilder<string> {
  // Literals, not parameters: PostgreSQL must see the GROUP BY expression as the selected one.
  return sql<string>`substr(${sql.ref(column)}, 1, ${sql.lit(length)})`;
}

/** How many listings are in each state, whoever wrote them (listings_status_* indexes cover it). */
export async function countListingsByState(db: Executor): Promise<{ state: ListingState; count: number }[]> {
  const rows = await db
    .selectFrom('listings')
    .select(['status', (eb) => eb.fn.countAll().as('n')])
    .groupBy('status')
    .execute();
  // PostgreSQL returns count(*) as a bigint string, SQLite as a number.
  return rows.map((row) => ({ state: row.status, count: Number(row.n) }));
}

/** Rows created per UTC day in [from, until) (stored timestamps), by day; days without rows are absent. */
export async function countCreatedPerDay(
  db: Executor,
  table: 'listings' | 'leads',
  from: string,
  until: string,
): Promise<Map<string, number>> {
  const day = utcPrefix('created_at', 10);
  // listings_created_idx / leads_created_idx (migration 0015).
  const rows = await db
    .selectFrom(table)
    .select([day.as('day'), (eb) => eb.fn.countAll().as('n')])
    .where('created_at', '>=', from)
    .where('created_at', '<', until)
    .groupBy(day)
    .execute();
  return new Map(rows.map((row) => [row.day, Number(row.n)]));
}

export interface PaidInvoicesOfMonth {
  /** `YYYY-MM`, the UTC month of `paid_at`. */
  month: string;
  currency: string;
  invoices: number;
  amountMinor: number;
  taxMinor: number;
  totalMinor: number;
}

/**
 * Invoices in state `paid`, paid in [from, until), summed per UTC month of payment and currency, in minor units
 * (currencies are never added together). Archived invoices count: archiving hides an invoice from lists but
 * keeps it for accounting (docs/api.md 10), and the money was received. Refunded ones do not.
 */
export async function sumPaidInvoicesPerMonth(db: Executor, from: string, until: string): Promise<PaidInvoicesOfMonth[]> {
  const month = utcPrefix('paid_at', 7);
  // invoices_status_paid_idx (migration 0015).
  const rows = await db
    .selectFrom('invoices')
    .select([
      month.as('month'),
      'currency',
      (eb) => eb.fn.countAll().as('invoices'),
      (eb) => eb.fn.sum<number | string>('amount_minor').as('amount_minor'),
      (eb) => eb.fn.sum<number | string>('tax_minor').as('tax_minor'),
      (eb) => eb.fn.sum<number | string>('total_minor').as('total_minor'),
    ])
    .where('status', '=', 'paid')
    .where('paid_at', '>=', from)
    .where('paid_at', '<', until)
    .groupBy([month, 'currency'])
    .execute();
  // PostgreSQL returns count and sum of integers as bigint strings.
  return rows.map((row) => ({
    month: row.month,
    currency: row.currency,
    invoices: Number(row.invoices),
    amountMinor: Number(row.amount_minor),
    taxMinor: Number(row.tax_minor),
    totalMinor: Number(row.total_minor),
  }));
}
