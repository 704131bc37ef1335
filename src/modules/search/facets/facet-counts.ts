import type { PriceRange } from '../../../lib/price-ranges.js';

/**
 * A range of the price facet: prices of one currency and of one status (for sale, for rent, …), so that a
 * facet never adds euros to dirhams, nor a month's rent to a sale price (docs/api.md 4.4).
 */
interface PriceBucket extends PriceRange {
  /** The ISO 4217 code of every price counted. */
  currency: string;
  /** The slug of the status term every counted listing has; null when no priced listing has a status. */
  status: string | null;
}

/** One value of a facet and how many listings have it (docs/api.md 4.4). */
export interface FacetCount {
  /** The term's slug, the number of rooms, or a price range. */
  value: string | number | PriceBucket;
  name: string;
  count: number;
}

/**
 * Facet counts in the order of docs/api.md 4.4: by count descending, then by value (`tie`), compared in
 * JavaScript so that both databases and the search engine give the same order.
 */
export function byCount(counts: FacetCount[], tie: (a: FacetCount, b: FacetCount) => number = byValue): FacetCount[] {
  return counts.sort((a, b) => b.count - a.count || tie(a, b));
}

function byValue(a: FacetCount, b: FacetCount): number {
  if (typeof a.value === 'number' && typeof b.value === 'number') return a.value - b.value;
  const [x, y] = [String(a.value), String(b.value)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A status term and how many of the priced listings have it: what the price facet chooses among. */
export interface StatusCount {
  id: number;
  slug: string;
  count: number;
}

/**
 * The status whose prices the facet ranges: the one most of the priced listings have (ties: the first slug),
 * so that without a status filter the facet shows the market most of the results belong to. Undefined when
 * none has a status.
 */
export function commonestStatus(statuses: readonly StatusCount[]): StatusCount | undefined {
  let best: StatusCount | undefined;
  for (const status of statuses) {
    if (status.count === 0) continue;
    if (!best || status.count > best.count || (status.count === best.count && status.slug < best.slug)) best = status;
  }
  return best;
}

/** The price facet's counts, one per range that holds a price, by count descending, then from the lowest range. */
export function priceFacet(
  ranges: readonly PriceRange[],
  countAt: (index: number) => number,
  of: { currency: string; status: string | null },
): FacetCount[] {
  return byCount(
    ranges.flatMap((range, i) => {
      const count = countAt(i);
      return count > 0 ? [{ value: { ...range, ...of }, name: `${range.min}–${range.max} ${of.currency}`, count }] : [];
    }),
    (a, b) => (a.value as PriceBucket).min - (b.value as PriceBucket).min,
  );
}
