import type { SearchSort } from '../query/search-types.js';
import { leastOf } from './engine-columns.js';
import type { ListingIndex } from './listing-index.js';
import { hasBit, type Posting } from './postings.js';

/**
 * The orders of `sortby` over the index (search.repository.ts `inSearchOrder` is the reference): every order ends
 * with the id descending, listings without the sorted value come last in both directions, titles compare by
 * code point as the databases' binary collation does (engine-columns.ts `TextColumn`). The orders that depend on the query alone (distance,
 * relevance) are made per search; the others are kept presorted per index, built on first use and brought up
 * to date by merging the slots added since (removed ones are skipped by readers and dropped at the merge).
 */

export type PresortedSort = Exclude<SearchSort, 'distance' | 'relevance'>;
export type SlotComparator = (a: number, b: number) => number;

/** The comparator of a presorted sort over the index's columns. */
export function comparatorOf(index: ListingIndex, sort: PresortedSort): SlotComparator {
  const { ids, publishedAt, price, floorSize, featuredBits, titles } = index;
  const byId: SlotComparator = (a, b) => ids[b]! - ids[a]!;
  const [leastPrice, leastSize] = [leastOf(price), leastOf(floorSize)];
  const featured = (slot: number) => (hasBit(featuredBits, slot) ? 1 : 0);
  switch (sort) {
    case 'd_date':
      return (a, b) => publishedAt[b]! - publishedAt[a]! || byId(a, b);
    case 'a_date':
      return (a, b) => publishedAt[a]! - publishedAt[b]! || byId(a, b);
    case 'a_price':
      return (a, b) => byNumber(price[a]!, price[b]!, 1, leastPrice) || byId(a, b);
    case 'd_price':
      return (a, b) => byNumber(price[a]!, price[b]!, -1, leastPrice) || byId(a, b);
    case 'a_size':
      return (a, b) => byNumber(floorSize[a]!, floorSize[b]!, 1, leastSize) || byId(a, b);
    case 'd_size':
      return (a, b) => byNumber(floorSize[a]!, floorSize[b]!, -1, leastSize) || byId(a, b);
    case 'a_title':
      return (a, b) => titles.compare(a, b) || byId(a, b);
    case 'd_title':
      return (a, b) => titles.compare(b, a) || byId(a, b);
    case 'featured_first':
      return (a, b) => featured(b) - featured(a) || publishedAt[b]! - publishedAt[a]! || byId(a, b);
  }
}

/** Values in `direction` (1 ascending, −1 descending), nulls (below `least`) last either way. */
function byNumber(a: number, b: number, direction: 1 | -1, least: number): number {
  const aNull = !(a >= least);
  const bNull = !(b >= least);
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? 1 : -1;
  return a === b ? 0 : (a < b ? -1 : 1) * direction;
}

interface KeptOrder {
  slots: Int32Array;
  /** Slots below this number are in `slots` (if live). */
  upTo: number;
  /** The index's compaction count when made: compaction renumbers slots. */
  compactions: number;
}

/** The orders kept for an index: over all its slots, and over single terms' slots (`termOrderOf`). */
interface KeptOrders {
  whole: Map<PresortedSort, KeptOrder>;
  ofTerms: Map<string, KeptOrder>;
}

const kept = new WeakMap<ListingIndex, KeptOrders>();

/**
 * Term orders are made for places (engine-match.ts): a listing lies in one country, state, city and area, so
 * the orders of every place hold it four times at most (4 bytes each: 16 MB at a million listings).
 */
const TERM_ORDER_SLOTS_PER_LISTING = 4;

function keptOrders(index: ListingIndex): KeptOrders {
  let orders = kept.get(index);
  if (!orders) kept.set(index, (orders = { whole: new Map(), ofTerms: new Map() }));
  return orders;
}

/** The index's live slots in the order of `sort` (it may hold slots removed since: readers test `liveBits`). */
export function orderOf(index: ListingIndex, sort: PresortedSort): Int32Array {
  const { whole } = keptOrders(index);
  return upToDate(index, whole.get(sort), sort, (order) => whole.set(sort, order));
}

/** Bytes held by the orders kept for the index (presorted and per term): made on use, so none right after a build. */
export function ordersMemory(index: ListingIndex): number {
  const orders = kept.get(index);
  if (!orders) return 0;
  let bytes = 0;
  for (const { slots } of [...orders.whole.values(), ...orders.ofTerms.values()]) bytes += slots.buffer.byteLength;
  return bytes;
}

/**
 * The live slots of one term's posting in the order of `sort` (it may hold slots removed since, as `orderOf`):
 * a stretch of a city's price order is the city's listings in a price range and nothing else
 * (engine-sources.ts `termPriceSource`). Made from the index's order on first use, then kept up to date the
 * same way. The term orders kept hold at most TERM_ORDER_SLOTS_PER_LISTING slots per live listing together:
 * past that they start over.
 */
export function termOrderOf(index: ListingIndex, sort: PresortedSort, termId: number, posting: Posting): Int32Array {
  const { ofTerms } = keptOrders(index);
  const key = `${sort}:${termId}`;
  return upToDate(
    index,
    ofTerms.get(key),
    sort,
    (order) => {
      let held = order.slots.length;
      for (const [other, { slots }] of ofTerms) if (other !== key) held += slots.length;
      if (held > TERM_ORDER_SLOTS_PER_LISTING * index.size) ofTerms.clear();
      ofTerms.set(key, order);
    },
    posting,
  );
}

/**
 * `known` if it holds every slot of the index, else brought up to date: the slots added since merged in, or
 * made anew after a compaction. With a posting, only its slots, taken from the index's whole order when made anew.
 */
function upToDate(
  index: ListingIndex,
  known: KeptOrder | undefined,
  sort: PresortedSort,
  keep: (order: KeptOrder) => void,
  posting?: Posting,
): Int32Array {
  if (known && known.compactions === index.compactions && known.upTo === index.slotCount) return known.slots;
  const compare = comparatorOf(index, sort);
  let slots: Int32Array;
  if (known && known.compactions === index.compactions) {
    const added = liveSlots(index, known.upTo, index.slotCount, posting).sort(compare);
    slots = merge(known.slots, added, index.liveBits, compare);
  } else if (posting) {
    slots = liveOf(orderOf(index, sort), index.liveBits, posting);
  } else {
    slots = liveSlots(index, 0, index.slotCount).sort(compare);
  }
  keep({ slots, upTo: index.slotCount, compactions: index.compactions });
  return slots;
}

/** The live slots from `from` to `to` (of the posting, when given), ascending. */
function liveSlots(index: ListingIndex, from: number, to: number, posting?: Posting): Int32Array {
  const slots = new Int32Array(to - from);
  let length = 0;
  for (let slot = from; slot < to; slot++) if (index.isLive(slot) && (!posting || posting.has(slot))) slots[length++] = slot;
  return slots.subarray(0, length);
}

/** The live slots of `order` that the posting holds, in their order. */
function liveOf(order: Int32Array, live: Uint32Array, posting: Posting): Int32Array {
  const slots = new Int32Array(Math.min(order.length, posting.length));
  let length = 0;
  for (let i = 0; i < order.length && length < slots.length; i++) {
    const slot = order[i]!;
    if (hasBit(live, slot) && posting.has(slot)) slots[length++] = slot;
  }
  return slots.subarray(0, length);
}

/** The sorted `old` (its dead slots dropped) and the sorted `added`, merged. */
function merge(old: Int32Array, added: Int32Array, live: Uint32Array, compare: SlotComparator): Int32Array {
  const merged = new Int32Array(old.length + added.length);
  let length = 0;
  let j = 0;
  for (let i = 0; i < old.length; i++) {
    const slot = old[i]!;
    if (!hasBit(live, slot)) continue;
    while (j < added.length && compare(added[j]!, slot) < 0) merged[length++] = added[j++]!;
    merged[length++] = slot;
  }
  while (j < added.length) merged[length++] = added[j++]!;
  return merged.subarray(0, length);
}
