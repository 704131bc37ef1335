import { deinterleave } from '../../../lib/geo-grid.js';
import type { CellRelation, GridCell } from '../geo/geo-cells.js';
import type { NumberRange, SearchBox } from '../query/search-types.js';
import { bitsCheck, type Check, checkOf, rangeBounds, rangeCheck } from './engine-checks.js';
import { leastOf } from './engine-columns.js';
import { INDEX_CELL_LEVEL, type ListingIndex } from './listing-index.js';
import { orderOf, termOrderOf } from './engine-orders.js';
import { forEachCell } from './engine-regions.js';
import { hasBit, type Posting, setBit, slotsOfBits } from './postings.js';

/**
 * Where the candidates of a search come from (engine-match.ts plans and intersects them): term, word, agent
 * and author postings, the states searched, ids, a stretch of the price order, the index cells of a region.
 * Each source also says how to check a candidate that came from elsewhere.
 */

/** Where candidates may come from, and how to check those that came from elsewhere. */
export interface Source {
  /** About how many slots `collect` gives. */
  estimate: number;
  /** The source's slots, each once, in a new array the caller may overwrite. */
  collect(): Int32Array;
  /** Keeps the candidates that belong to the source (undefined: an exact check among the plan's decides). */
  contains?: Check;
  /** The source's slots as a bitmap, when it keeps them so: several such sources are intersected word by word. */
  bits?: Uint32Array;
  /** The words of `bits` outside which it has none set (absent: any word may have bits). */
  span?: readonly [from: number, to: number];
  /** Sets the bit of each of its slots, a few times cheaper a slot than `collect` (an intersection takes it so). */
  mark?: (marks: Uint32Array) => void;
  /**
   * Its slots whose bit is set in `marks`, a bitmap whose `count` set bits all lie in words `from` to `to`:
   * `collect` filtered, by whichever of the two is shorter to go through.
   */
  collectMarked?: (marks: Uint32Array, [from, to]: [number, number], count: number) => Int32Array;
  /** Sources whose rules every slot it gives already passes: when it drives, they are neither intersected nor checked. */
  covers?: readonly Source[];
}

/**
 * How many times the slots of an intersection of bitmaps may be outnumbered by those of the source that would
 * otherwise lead it, and still drive instead: listing a shared slot and checking it costs a few times testing a
 * lead's slot against the bitmap. The 1,000 requests of the bench's (f) at 100,000 listings took 21.1–21.6 µs
 * each led by their price ranges, 20.0–20.5 driven by their shared slots, 17.2–18.0 with this choice (2 to 8
 * measured alike), and 16–17 once a price range prices the shared slots as it lists them (`priceRangeSource`).
 */
export const SHARED_PER_LEAD = 4;

export function postingSource(index: ListingIndex, postings: readonly Posting[]): Source {
  const estimate = postings.reduce((sum, posting) => sum + posting.length, 0);
  const only = postings.length === 1 ? postings[0]! : undefined;
  return {
    estimate,
    collect() {
      if (only) {
        const slots = new Int32Array(only.length);
        only.copyInto(slots, 0);
        return slots;
      }
      // A union: the lists marked in one bitmap, so that a slot in several is collected once.
      const words = (index.slotCount + 31) >>> 5;
      const marks = new Uint32Array(words);
      for (const posting of postings) posting.markInto(marks);
      return slotsOfBits(marks, words);
    },
    ...(only?.words ? { bits: only.words, span: only.wordSpan() } : {}),
    contains: only?.words
      ? bitsCheck(only.words)
      : only
        ? checkOf((slot) => only.has(slot))
        : checkOf((slot) => {
            for (const posting of postings) if (posting.has(slot)) return true;
            return false;
          }),
  };
}

/**
 * The live listings in the states searched (published; sold too with `include_sold`): the index's bitmaps of
 * them. Every search has this source; it drives only a search with no other (every listing is a candidate).
 * Checked or driving, it leaves only live slots: the other sources may hold removed ones.
 */
export function statesSource(index: ListingIndex, includeSold: boolean): Source {
  const bits = includeSold ? index.liveBits : index.publishedBits;
  return {
    estimate: index.size,
    bits,
    collect: () => slotsOfBits(bits, (index.slotCount + 31) >>> 5),
    contains: bitsCheck(bits),
  };
}

/** The listings of the ids (ascending, unique). */
export function idsSource(index: ListingIndex, ids: readonly number[]): Source {
  const slots = ids.map((id) => index.slotOf(id)).filter((slot) => slot >= 0);
  const wanted = new Set(slots);
  return {
    estimate: slots.length,
    collect: () => Int32Array.from(slots),
    contains: checkOf((slot) => wanted.has(slot)),
  };
}

/**
 * The slots whose price lies in the range: one stretch of the price order, found by binary search; its own
 * check is the range's.
 */
export function priceRangeSource(index: ListingIndex, range: NumberRange): Source | undefined {
  if (range.min === undefined && range.max === undefined) return undefined;
  const order = orderOf(index, 'a_price');
  const [from, to] = priceStretch(index, order, 'a_price', range);
  const { price } = index;
  const [least, most] = rangeBounds(price, range);
  return {
    estimate: to - from,
    collect: () => order.slice(from, to),
    contains: rangeCheck(price, range)!,
    mark(marks) {
      for (let i = from; i < to; i++) setBit(marks, order[i]!);
    },
    collectMarked(marks, [fromWord, toWord], count) {
      const slots = new Int32Array(count);
      let kept = 0;
      if (count * SHARED_PER_LEAD < to - from) {
        // The marked slots (a city's apartments beside a price range of every city's), each priced here.
        for (let word = fromWord; word < toWord; word++) {
          let set = marks[word]!;
          while (set !== 0) {
            const lowest = set & -set;
            set ^= lowest;
            const slot = word * 32 + 31 - Math.clz32(lowest);
            const value = price[slot]!;
            if (value >= least && value <= most) slots[kept++] = slot;
          }
        }
        return slots.subarray(0, kept);
      }
      for (let i = from; i < to; i++) {
        const slot = order[i]!;
        if (hasBit(marks, slot)) slots[kept++] = slot;
      }
      return slots.subarray(0, kept);
    },
  };
}

/**
 * The slots of one term priced within the range: a stretch of the term's own price order (engine-orders.ts
 * `termOrderOf`), found by binary search. It stands for the term's source and the price range's together
 * (`covers`): a city's apartments in a price band are then checked among the city's listings in the band, a
 * few hundred to a few thousand, where the city, the price band and their intersection's words are each
 * thousands. It only drives; when another source does, the two it covers check.
 */
export function termPriceSource(
  index: ListingIndex,
  termId: number,
  posting: Posting,
  range: NumberRange,
  covers: readonly Source[],
): Source {
  const order = termOrderOf(index, 'a_price', termId, posting);
  const [from, to] = priceStretch(index, order, 'a_price', range);
  return { estimate: to - from, collect: () => order.slice(from, to), covers };
}

/**
 * Where the listings priced within the range lie in a price order (`a_price` or `d_price`, listings without a
 * price last in both): positions `from` (inclusive) to `to` (exclusive), by binary search.
 */
export function priceStretch(index: ListingIndex, order: Int32Array, sort: 'a_price' | 'd_price', range: NumberRange): [number, number] {
  const { price } = index;
  const least = leastOf(price);
  const { min = -Infinity, max = Infinity } = range;
  // The number of positions whose price is priced and `before` the bound (a prefix of the order).
  const prefix = (before: (value: number) => boolean) => {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const value = price[order[mid]!]!;
      if (value >= least && before(value)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const from = sort === 'a_price' ? prefix((value) => value < min) : prefix((value) => value > max);
  const to = sort === 'a_price' ? prefix((value) => value <= max) : prefix((value) => value >= min);
  return [from, Math.max(from, to)];
}

/** Which index cells a region holds whole, cuts or misses (geo/geo-cells.ts, exact about the grid's quantization). */
export interface RegionCells {
  relation(cell: GridCell): CellRelation;
}

/**
 * The listings of a region: those of the index cells (INDEX_CELL_LEVEL) inside it as they are, those of the
 * cells its edge cuts by the exact test. When another source drives, the exact test decides.
 */
export function regionSource(index: ListingIndex, boxes: readonly SearchBox[], region: RegionCells, check: Check): Source {
  const inside: Posting[] = [];
  const cut: Posting[] = [];
  forEachCell(index, boxes, (cell) => {
    const relation = region.relation({ level: INDEX_CELL_LEVEL, ...deinterleave(cell) });
    if (relation === 'outside') return;
    const posting = index.cellPostings.get(cell);
    if (posting) (relation === 'inside' ? inside : cut).push(posting);
  });
  const sizeOf = (postings: Posting[]) => postings.reduce((sum, posting) => sum + posting.length, 0);
  const insideSize = sizeOf(inside);
  return {
    estimate: insideSize + sizeOf(cut),
    collect() {
      const slots = new Int32Array(insideSize + sizeOf(cut));
      let at = 0;
      for (const posting of cut) at = posting.copyInto(slots, at);
      // The cut cells' slots checked where they lie, at the front; the inside cells' then follow them.
      at = check(slots, at);
      for (const posting of inside) at = posting.copyInto(slots, at);
      return slots.subarray(0, at);
    },
    contains: check,
  };
}
