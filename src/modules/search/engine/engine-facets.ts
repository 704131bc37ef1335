import { fittedPriceRanges, type PriceRange, rangeIndexOf } from '../../../lib/price-ranges.js';
import { byCount, type FacetCount } from '../facets/facet-counts.js';
import { TAXONOMY_OF } from '../query/search-terms.js';
import type { FacetName, TaxonomyFilter } from '../query/search-types.js';
import { type EngineSearch, matchSlots } from './engine-match.js';
import { leastOf, type NumberColumn } from './engine-columns.js';
import type { ListingIndex } from './listing-index.js';
import { bitmapOf } from './postings.js';

/**
 * The facet counts of a search (docs/api.md 4.4; facets/search-facets.repository.ts is the reference): each facet
 * counts the listings matching every filter but its own, zero counts left out, by count descending then value.
 * The facets without a filter of their own share the search's matches.
 */
export function facetCounts(
  index: ListingIndex,
  engineSearch: EngineSearch,
  names: readonly FacetName[],
  matches: Int32Array,
): Record<string, FacetCount[]> {
  const counts: Record<string, FacetCount[]> = {};
  for (const name of names) {
    const set = filtersBy(engineSearch, name) ? matchSlots(index, engineSearch, name) : matches;
    counts[name] = countFacet(index, name, set);
  }
  return counts;
}

function isTermFacet(name: FacetName): name is TaxonomyFilter {
  return name in TAXONOMY_OF;
}

/** Whether the search has a filter of the facet's own, which its counts leave out. */
function filtersBy({ search }: EngineSearch, facet: FacetName): boolean {
  return isTermFacet(facet) ? search.termIds[facet] !== undefined : search.query[facet] !== undefined;
}

function countFacet(index: ListingIndex, name: FacetName, slots: Int32Array): FacetCount[] {
  if (name === 'price') return priceCounts(index.price, slots);
  if (name === 'currency') return currencyCounts(index, slots);
  if (name === 'bedrooms' || name === 'bathrooms') return roomCounts(index[name], slots);
  return termCounts(index, TAXONOMY_OF[name], slots);
}

/**
 * Per term of the taxonomy, its listings among `slots`: by testing each of the slots against the term's list
 * when they are few, else by counting the term's slots in a bitmap of `slots` (word by word against a bitmap
 * list), whichever takes fewer steps.
 */
function termCounts(index: ListingIndex, taxonomy: Parameters<ListingIndex['termsOf']>[0], slots: Int32Array): FacetCount[] {
  if (slots.length === 0) return [];
  let marks: Uint32Array | undefined;
  const counts: FacetCount[] = [];
  for (const termId of index.termsOf(taxonomy)) {
    const posting = index.termPostings.get(termId);
    if (!posting) continue;
    let count = 0;
    // A binary search per slot costs about log2(length) steps; a bitmap lookup one.
    const perSlot = posting.isBitmap ? 1 : Math.log2(posting.length + 1);
    if (slots.length * perSlot < posting.countCost) {
      for (let i = 0; i < slots.length; i++) if (posting.has(slots[i]!)) count++;
    } else {
      marks ??= bitmapOf(slots, index.slotCount);
      count = posting.countIn(marks);
    }
    if (count > 0) {
      const term = index.terms.get(termId)!;
      counts.push({ value: term.slug, name: term.name, count });
    }
  }
  return byCount(counts);
}

/** Room counts below this are counted in an array; the rare higher ones in a map. */
const ROOMS_IN_ARRAY = 64;

function roomCounts(column: NumberColumn, slots: Int32Array): FacetCount[] {
  const few = new Int32Array(ROOMS_IN_ARRAY);
  const many = new Map<number, number>();
  const least = leastOf(column);
  for (let i = 0; i < slots.length; i++) {
    const value = column[slots[i]!]!;
    if (value >= 0 && value < ROOMS_IN_ARRAY) few[value]!++;
    else if (value >= least) many.set(value, (many.get(value) ?? 0) + 1);
  }
  few.forEach((count, value) => {
    if (count > 0) many.set(value, count);
  });
  return byCount([...many].map(([value, count]) => ({ value, name: String(value), count })));
}

/** Counts per range of the 10 fitted to the prices of `slots`, lowest to highest (search-facets.repository.ts). */
function priceCounts(price: NumberColumn, slots: Int32Array): FacetCount[] {
  let lowest = Infinity;
  let highest = -Infinity;
  const least = leastOf(price);
  for (let i = 0; i < slots.length; i++) {
    const value = price[slots[i]!]!;
    if (value < least) continue;
    if (value < lowest) lowest = value;
    if (value > highest) highest = value;
  }
  if (lowest === Infinity) return [];
  const ranges = fittedPriceRanges(lowest, highest);
  const counts = new Array<number>(ranges.length).fill(0);
  for (let i = 0; i < slots.length; i++) {
    const value = price[slots[i]!]!;
    if (!(value >= least)) continue;
    const at = rangeIndexOf(ranges, value);
    if (at >= 0) counts[at]!++;
  }
  return byCount(
    ranges.flatMap((range, i) => (counts[i]! > 0 ? [{ value: range, name: `${range.min}–${range.max}`, count: counts[i]! }] : [])),
    (a, b) => (a.value as PriceRange).min - (b.value as PriceRange).min,
  );
}

/** Listings per currency code among `slots` (the code is its own name). */
function currencyCounts(index: ListingIndex, slots: Int32Array): FacetCount[] {
  const perCode = new Int32Array(index.currencies.length);
  const { currency } = index;
  for (let i = 0; i < slots.length; i++) perCode[currency[slots[i]!]!]!++;
  const counts: FacetCount[] = [];
  perCode.forEach((count, code) => {
    if (count > 0) counts.push({ value: index.currencies[code]!, name: index.currencies[code]!, count });
  });
  return byCount(counts);
}
