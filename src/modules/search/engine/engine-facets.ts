import { fittedPriceRanges, rangeIndexOf } from '../../../lib/price-ranges.js';
import { byCount, commonestStatus, type FacetCount, priceFacet } from '../facets/facet-counts.js';
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
  priceCurrency: string,
): Record<string, FacetCount[]> {
  const counts: Record<string, FacetCount[]> = {};
  for (const name of names) {
    const set = filtersBy(engineSearch, name) ? matchSlots(index, engineSearch, name) : matches;
    counts[name] = name === 'price' ? priceCounts(index, set, priceCurrency) : countFacet(index, name, set);
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

function countFacet(index: ListingIndex, name: Exclude<FacetName, 'price'>, slots: Int32Array): FacetCount[] {
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

/**
 * The price facet (search-facets.repository.ts is the reference): the 10 ranges fitted to the prices in
 * `currency` of the listings among `slots` that have the commonest status among them.
 */
function priceCounts(index: ListingIndex, slots: Int32Array, currency: string): FacetCount[] {
  const code = index.currencyOf(currency);
  if (code < 0) return [];
  const { price } = index;
  const least = leastOf(price);
  const priced = slots.filter((slot) => index.currency[slot] === code && price[slot]! >= least);
  if (priced.length === 0) return [];
  const statuses = [...index.termsOf('property_status')].map((id) => {
    const posting = index.termPostings.get(id);
    let count = 0;
    if (posting) for (let i = 0; i < priced.length; i++) if (posting.has(priced[i]!)) count++;
    return { id, slug: index.terms.get(id)!.slug, count };
  });
  const status = commonestStatus(statuses);
  const posting = status && index.termPostings.get(status.id)!;
  const counted = posting ? priced.filter((slot) => posting.has(slot)) : priced;
  let lowest = Infinity;
  let highest = -Infinity;
  for (let i = 0; i < counted.length; i++) {
    const value = price[counted[i]!]!;
    if (value < lowest) lowest = value;
    if (value > highest) highest = value;
  }
  const ranges = fittedPriceRanges(lowest, highest);
  const counts = new Array<number>(ranges.length).fill(0);
  for (let i = 0; i < counted.length; i++) {
    const at = rangeIndexOf(ranges, price[counted[i]!]!);
    if (at >= 0) counts[at]!++;
  }
  return priceFacet(ranges, (i) => counts[i]!, { currency, status: status?.slug ?? null });
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
