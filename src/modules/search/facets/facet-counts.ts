import type { PriceRange } from '../../../lib/price-ranges.js';

/** One value of a facet and how many listings have it (docs/api.md 4.4). */
export interface FacetCount {
  /** The term's slug, the number of rooms, or a price range. */
  value: string | number | PriceRange;
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
