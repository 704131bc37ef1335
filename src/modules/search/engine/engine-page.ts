import type { PageWindow } from '../../../lib/paging.js';
import { queryTerms } from '../../../lib/search-tokens.js';
import { unitVector } from '../../../lib/geo-grid.js';
import type { NumberRange, SearchSort } from '../query/search-types.js';
import type { EngineSearch } from './engine-match.js';
import { priceStretch } from './engine-sources.js';
import { comparatorOf, orderOf, type PresortedSort, type SlotComparator } from './engine-orders.js';
import type { ListingIndex } from './listing-index.js';
import { bitmapOf, hasBit } from './postings.js';

/**
 * One page of a search's matches in the order of `sort` (search.repository.ts `inSearchOrder` is the reference).
 * A page of many matches is read off the presorted order, skipping what does not match: about
 * (page end × listings ÷ matches) steps. A page of few matches, and the orders that depend on the query
 * (distance, relevance), take the best `page end` matches with a bounded heap instead.
 */
export function pageOfMatches(
  index: ListingIndex,
  matches: Int32Array,
  engineSearch: EngineSearch,
  sort: SearchSort,
  window: PageWindow,
): number[] {
  const end = window.offset + window.perPage;
  if (window.offset >= matches.length) return [];
  let best: Int32Array;
  if (sort === 'distance' || sort === 'relevance') {
    // Ranked by position in `matches`, so that the per-query keys sit in an array beside them.
    const { keys, compare } = queryOrder(index, matches, engineSearch, sort);
    // Distances are distinct but for listings at one point: only those at least as near as the `end`-th
    // nearest need the full comparison. Relevance keys are a few small counts, mostly tied: all of them do.
    const positions = sort === 'distance' ? leadingPositions(keys, end) : Int32Array.from(matches.keys());
    best = smallest(positions, end, compare).map((position) => matches[position]!);
  } else if ((sort === 'a_price' || sort === 'd_price') && bounded(engineSearch.search.query.price)) {
    // Every match is priced within the range: they all lie in one stretch of the price order.
    const order = orderOf(index, sort);
    const [from, to] = priceStretch(index, order, sort, engineSearch.search.query.price!);
    best = walkIsCheaper(matches.length, end, to - from)
      ? walkOrder(index, order.subarray(from, to), matches, end)
      : smallest(matches, end, comparatorOf(index, sort));
  } else if (walkIsCheaper(matches.length, end, index.slotCount)) {
    best = walkOrder(index, orderOf(index, sort), matches, end);
  } else {
    best = smallest(matches, end, comparatorOf(index, sort as PresortedSort));
  }
  const ids: number[] = [];
  for (let i = window.offset; i < best.length; i++) ids.push(index.ids[best[i]!]!);
  return ids;
}

/** Whether a range has a bound (one without filters nothing: listings without a price match too). */
function bounded(range: NumberRange | undefined): boolean {
  return range !== undefined && (range.min !== undefined || range.max !== undefined);
}

/** Walking the order visits about end × slots ÷ matches slots; the heap about matches × log2(end). */
function walkIsCheaper(matches: number, end: number, slots: number): boolean {
  return (end * slots) / matches < matches * Math.log2(end + 1);
}

/**
 * The first `end` matches in the order (which may hold removed slots: they are not in `matches`). The matches
 * are marked in a bitmap: a byte a slot was a megabyte to allocate and clear per search at a million listings.
 */
function walkOrder(index: ListingIndex, order: Int32Array, matches: Int32Array, end: number): Int32Array {
  const marks = bitmapOf(matches, index.slotCount);
  const best = new Int32Array(Math.min(end, matches.length));
  let found = 0;
  for (let i = 0; i < order.length && found < best.length; i++) {
    const slot = order[i]!;
    if (hasBit(marks, slot)) best[found++] = slot;
  }
  return best;
}

/** The `count` first of `slots` by `compare`, in order: a max-heap of the best so far. */
function smallest(slots: Int32Array, count: number, compare: SlotComparator): Int32Array {
  if (slots.length <= count * 2) return Int32Array.from(slots).sort(compare).subarray(0, Math.min(count, slots.length));
  const heap = new Int32Array(count);
  let size = 0;
  const siftUp = (at: number) => {
    const slot = heap[at]!;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (compare(heap[parent]!, slot) >= 0) break;
      heap[at] = heap[parent]!;
      at = parent;
    }
    heap[at] = slot;
  };
  const siftDown = (slot: number) => {
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const right = left + 1;
      const worse = right < size && compare(heap[right]!, heap[left]!) > 0 ? right : left;
      if (compare(heap[worse]!, slot) <= 0) break;
      heap[at] = heap[worse]!;
      at = worse;
    }
    heap[at] = slot;
  };
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if (size < count) {
      heap[size++] = slot;
      siftUp(size - 1);
    } else if (compare(slot, heap[0]!) < 0) {
      siftDown(slot);
    }
  }
  return heap.sort(compare);
}

/**
 * The positions whose key is at least the `count`-th largest key, found with a heap of keys alone (a number
 * comparison per position): every one of the first `count` positions by key descending is among them, and
 * usually nothing else. All positions when fewer than `count` keys are numbers (NaN: no key, ranked last).
 */
export function leadingPositions(keys: Float64Array, count: number): Int32Array {
  const heap = new Float64Array(count);
  let size = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (Number.isNaN(key)) continue;
    if (size < count) {
      let at = size++;
      while (at > 0 && heap[(at - 1) >> 1]! > key) {
        heap[at] = heap[(at - 1) >> 1]!;
        at = (at - 1) >> 1;
      }
      heap[at] = key;
    } else if (key > heap[0]!) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= size) break;
        const smaller = left + 1 < size && heap[left + 1]! < heap[left]! ? left + 1 : left;
        if (heap[smaller]! >= key) break;
        heap[at] = heap[smaller]!;
        at = smaller;
      }
      heap[at] = key;
    }
  }
  if (size < count) return Int32Array.from(keys.keys());
  const threshold = heap[0]!;
  const leading: number[] = [];
  for (let i = 0; i < keys.length; i++) if (keys[i]! >= threshold) leading.push(i);
  return Int32Array.from(leading);
}

/**
 * The orders that depend on the query, over positions in `matches` and keys computed once per match:
 * distance (listings without coordinates last, the dot product with the centre descending, as SQL orders it)
 * and relevance (the listings whose reference is the keyword first, then by the keyword's words found in the
 * title, then the newest).
 */
function queryOrder(
  index: ListingIndex,
  matches: Int32Array,
  { search, keywordReferenceIds }: EngineSearch,
  sort: 'distance' | 'relevance',
): { keys: Float64Array; compare: SlotComparator } {
  const { ids, publishedAt } = index;
  const keys = new Float64Array(matches.length);
  const idOf = (position: number) => ids[matches[position]!]!;
  if (sort === 'distance') {
    const [x, y, z] = unitVector(search.query.circle!.latitude, search.query.circle!.longitude);
    const { geoX, geoY, geoZ } = index;
    for (let i = 0; i < matches.length; i++) {
      const slot = matches[i]!;
      keys[i] = geoX[slot]! * x + geoY[slot]! * y + geoZ[slot]! * z;
    }
    const compare: SlotComparator = (a, b) => {
      const ka = keys[a]!;
      const kb = keys[b]!;
      const aNull = Number.isNaN(ka);
      const bNull = Number.isNaN(kb);
      if (aNull || bNull) return aNull === bNull ? idOf(b) - idOf(a) : aNull ? 1 : -1;
      return kb - ka || idOf(b) - idOf(a);
    };
    return { keys, compare };
  }
  const words = queryTerms(search.query.keyword!);
  const titles = words.flatMap((word) => index.titleWordPostings.get(word) ?? []);
  for (let i = 0; i < matches.length; i++) {
    const slot = matches[i]!;
    let hits = 0;
    for (const posting of titles) if (posting.has(slot)) hits++;
    // A reference equal to the keyword outranks any number of title hits; title hits still order such listings.
    keys[i] = keywordReferenceIds?.has(ids[slot]!) ? hits + words.length + 1 : hits;
  }
  return { keys, compare: (a, b) => keys[b]! - keys[a]! || publishedAt[matches[b]!]! - publishedAt[matches[a]!]! || idOf(b) - idOf(a) };
}
