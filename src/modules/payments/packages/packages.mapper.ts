import type { Selectable } from 'kysely';
import type { BillingPeriod, PackagesTable } from '../../../db/schema/index.js';
import { basisPointsToPercent, formatAmount, fromMinor, minorDigits, taxOf } from '../../../lib/money.js';
import type { PackageRecord } from './packages.schemas.js';

export type PackageRow = Selectable<PackagesTable>;

/** The package record (docs/api.md 10): money in major units, the tax rate as a percentage. */
export function toPackage(row: PackageRow): PackageRecord {
  const totalMinor = row.price_minor + taxOf(row.price_minor, row.tax_rate_bp);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    price: fromMinor(row.price_minor, row.currency),
    currency: row.currency,
    tax_rate: basisPointsToPercent(row.tax_rate_bp),
    total_price: fromMinor(totalMinor, row.currency),
    formatted_price: formatPackagePrice(totalMinor, row.currency, row.billing_period, row.billing_frequency),
    listings_included: row.listings_included,
    featured_included: row.featured_included,
    billing_period: row.billing_period,
    billing_frequency: row.billing_frequency,
    visible: row.visible === 1,
    popular: row.popular === 1,
    order: row.sort_order,
  };
}

/**
 * Display text of a package's price, as listings show theirs (lib/money.ts formatAmount: English, the
 * currency's narrow symbol; whole units unless there is a fraction) followed by the billing rhythm:
 * "$119.88 / year", "$30 / 3 months", and the bare amount for a one-time package. Decided on the minor units,
 * so a fraction shows with all of the currency's decimals (KWD 1.250, not 1.25).
 */
function formatPackagePrice(totalMinor: number, currency: string, period: BillingPeriod, frequency: number): string {
  const digits = minorDigits(currency);
  const fraction = totalMinor % 10 ** digits !== 0 ? digits : 0;
  const amount = formatAmount(fromMinor(totalMinor, currency), currency, fraction);
  if (period === 'one_time') return amount;
  return frequency === 1 ? `${amount} / ${period}` : `${amount} / ${frequency} ${period}s`;
}
