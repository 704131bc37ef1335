import type { SearchSort } from '../query/search-types.js';
import type { ListingIndex } from './listing-index.js';

/**
 * The orders of `sortby` over the index (search.repository.ts `inSearchOrder` is the reference): every order ends
 * with the id descending, listings without the sorted value come last in both directions, titles compare by
 * code point as the databases' binary collation does. The orders that depend on the query alone (distance,
 * relevance) are made per search; the others are kept presorted per index, built on first use and brought up
 * to date by merging the slots added since (removed ones are skipped by readers and dropped at the merge).
 */

export type PresortedSort = Exclude<SearchSort, 'distance' | 'relevance'>;
export type SlotComparator = (a: number, b: number) => number;

/** The comparator of a presorted sort over the index's columns. */
export function comparatorOf(index: ListingIndex, sort: PresortedSort): SlotComparator {
  const { ids, publishedAt, price, floorSize, featured, sortTitle } = index;
  const byId: SlotComparator = (a, b) => ids[b]! - ids[a]!;
  switch (sort) {
    case 'd_date':
      return (a, b) => publishedAt[b]! - publishedAt[a]! || byId(a, b);
    case 'a_date':
      return (a, b) => publishedAt[a]! - publishedAt[b]! || byId(a, b);
    case 'a_price':
      return (a, b) => byNumber(price[a]!, price[b]!, 1) || byId(a, b);
    case 'd_price':
      return (a, b) => byNumber(price[a]!, price[b]!, -1) || byId(a, b);
    case 'a_size':
      return (a, b) => byNumber(floorSize[a]!, floorSize[b]!, 1) || byId(a, b);
    case 'd_size':
      return (a, b) => byNumber(floorSize[a]!, floorSize[b]!, -1) || byId(a, b);
    case 'a_title':
      return (a, b) => byCodePoints(sortTitle[a]!, sortTitle[b]!) || byId(a, b);
    case 'd_title':
      return (a, b) => byCodePoints(sortTitle[b]!, sortTitle[a]!) || byId(a, b);
    case 'featured_first':
      return (a, b) => featured[b]! - featured[a]! || publishedAt[b]! - publishedAt[a]! || byId(a, b);
  }
}

/** Values in `direction` (1 ascending, −1 descending), NaN (null) last either way. */
function byNumber(a: number, b: number, direction: 1 | -1): number {
  const aNull = Number.isNaN(a);
  const bNull = Number.isNaN(b);
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? 1 : -1;
  return a === b ? 0 : (a < b ? -1 : 1) * direction;
}

/**
 * Code-point order, as UTF-8 bytes compare (SQLite's BINARY, PostgreSQL's "C"): UTF-16 units compare alike
 * except surrogates, which stand for code points above every unit from U+E000 to U+FFFF.
 */
export function byCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit < 0xe000) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

interface KeptOrder {
  slots: Int32Array;
  /** Slots below this number are in `slots` (if alive). */
  upTo: number;
  /** The index's compaction count when made: compaction renumbers slots. */
  compactions: number;
}

const kept = new WeakMap<ListingIndex, Map<PresortedSort, KeptOrder>>();

/** The index's live slots in the order of `sort` (it may hold slots removed since: readers test `alive`). */
export function orderOf(index: ListingIndex, sort: PresortedSort): Int32Array {
  let orders = kept.get(index);
  if (!orders) kept.set(index, (orders = new Map()));
  const known = orders.get(sort);
  if (known && known.compactions === index.compactions && known.upTo === index.slotCount) return known.slots;
  const compare = comparatorOf(index, sort);
  const from = known && known.compactions === index.compactions ? known.upTo : 0;
  const added = liveSlots(index, from, index.slotCount).sort(compare);
  const slots = from === 0 ? added : merge(known!.slots, added, index.alive, compare);
  orders.set(sort, { slots, upTo: index.slotCount, compactions: index.compactions });
  return slots;
}

function liveSlots(index: ListingIndex, from: number, to: number): Int32Array {
  const slots = new Int32Array(to - from);
  let length = 0;
  for (let slot = from; slot < to; slot++) if (index.alive[slot] === 1) slots[length++] = slot;
  return slots.subarray(0, length);
}

/** The sorted `old` (its dead slots dropped) and the sorted `added`, merged. */
function merge(old: Int32Array, added: Int32Array, alive: Uint8Array, compare: SlotComparator): Int32Array {
  const merged = new Int32Array(old.length + added.length);
  let length = 0;
  let j = 0;
  for (let i = 0; i < old.length; i++) {
    const slot = old[i]!;
    if (alive[slot] !== 1) continue;
    while (j < added.length && compare(added[j]!, slot) < 0) merged[length++] = added[j++]!;
    merged[length++] = slot;
  }
  while (j < added.length) merged[length++] = added[j++]!;
  return merged.subarray(0, length);
}
