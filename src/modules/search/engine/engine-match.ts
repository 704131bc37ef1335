import { deinterleave } from '../../../lib/geo-grid.js';
import { queryTerms } from '../../../lib/search-tokens.js';
import { boxOfCircle, boxOfPolygon } from '../geo/geo.js';
import { BoxCells, type CellRelation, CircleCells, type GridCell, PolygonCells } from '../geo/geo-cells.js';
import type { ResolvedSearch } from '../query/search-terms.js';
import {
  type FacetName,
  LOCATION_FILTERS,
  type NumberRange,
  type SearchBox,
  TERM_FILTERS,
  type TaxonomyFilter,
} from '../query/search-types.js';
import { bitsCheck, type Check, checkOf, circleCheck, rangeBounds, rangeCheck } from './engine-checks.js';
import { leastOf, type NumberColumn } from './engine-columns.js';
import { INDEX_CELL_LEVEL, type ListingIndex } from './listing-index.js';
import { orderOf } from './engine-orders.js';
import { boxTest, forEachCell, polygonTest } from './engine-regions.js';
import { countBits, hasBit, intersectWords, type Posting, setBit, slotsOfBits } from './postings.js';

/**
 * Which listings of the index a search matches: the rules of query/search-filters.repository.ts (the reference),
 * over the columns and postings of engine/listing-index.ts. The smallest source of candidates drives (a term,
 * a word, an agent, the grid cells of a region, a price range of the price order, the ids), every other rule
 * is tested on each candidate.
 */

/** A search as the engine runs it: the references it names already confirmed against the database. */
export interface EngineSearch {
  search: ResolvedSearch;
  /** The ids of listings whose reference equals the `reference` filter (present when the search has one). */
  referenceIds?: ReadonlySet<number>;
  /** The ids of listings whose reference equals the keyword (relevance puts them first). */
  keywordReferenceIds?: ReadonlySet<number>;
}

/** Where candidates may come from, and how to check those that came from elsewhere. */
interface Source {
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
}

/** How many times a source marked by `mark` may outnumber the smallest bitmap and still join their intersection. */
const MARK_ADVANTAGE = 4;
/** About how many words an AND of bitmaps goes through in the time a candidate takes to collect and check (measured). */
const WORDS_PER_VISIT = 8;

/**
 * How many times the slots of an intersection of bitmaps may be outnumbered by those of the source that would
 * otherwise lead it, and still drive instead: listing a shared slot and checking it costs a few times testing a
 * lead's slot against the bitmap. The 1,000 requests of the bench's (f) at 100,000 listings took 21.1–21.6 µs
 * each led by their price ranges, 20.0–20.5 driven by their shared slots, 17.2–18.0 with this choice (2 to 8
 * measured alike), and 16–17 once a price range prices the shared slots as it lists them (`priceRangeSource`).
 */
const SHARED_PER_LEAD = 4;

/** The term filters, then the location ones: the order their sources are made in. */
const TAXONOMY_FILTERS_MATCHED: readonly TaxonomyFilter[] = [...TERM_FILTERS, ...LOCATION_FILTERS];

interface Plan {
  sources: Source[];
  checks: Check[];
}

/** The slots of the listings the search matches, ascending or not; `except` leaves out the filter of one facet. */
export function matchSlots(index: ListingIndex, engineSearch: EngineSearch, except?: FacetName): Int32Array {
  const plan = planOf(index, engineSearch, except);
  if (plan === undefined) return new Int32Array(0);
  // Every plan has a source: the states searched.
  let driver = plan.sources[0]!;
  for (const source of plan.sources) if (source.estimate < driver.estimate) driver = source;
  const bitmaps = plan.sources.filter((source) => source.bits !== undefined);
  const words = (index.slotCount + 31) >>> 5;
  const span = sharedSpan(bitmaps, words);
  // Dense filters (a city, a type, the states searched) kept as bitmaps: their intersection, a few thousand ANDs,
  // drives instead of checking each on every candidate of the smallest source. A source not much larger than the
  // smallest of them that can mark its slots (a price range) joins as a bitmap of its own, and so does any
  // source smaller than that: marking its slots costs less than checking the candidates left.
  let driven = new Set([driver]);
  if (bitmaps.length >= 2 && (span[1] - span[0]) * bitmaps.length < driver.estimate * WORDS_PER_VISIT) {
    const least = Math.min(...bitmaps.map((source) => source.estimate));
    const marked = plan.sources.filter(
      (source) => source.bits === undefined && source.estimate <= (source.mark ? MARK_ADVANTAGE * least : least),
    );
    driver = intersectionSource(bitmaps, marked, words, span);
    driven = new Set([...bitmaps, ...marked]);
  }
  // The other sources' checks first, the most selective first: a candidate most often fails one of them. The
  // states searched are always a source, driving or checked; their bitmaps hold live slots only.
  const checks: Check[] = plan.sources
    .filter((source) => !driven.has(source) && source.contains)
    .sort((a, b) => a.estimate - b.estimate)
    .map((source) => source.contains!);
  checks.push(...plan.checks);
  const slots = driver.collect();
  let length = slots.length;
  for (const check of checks) length = check(slots, length);
  return slots.subarray(0, length);
}

/** The words where every one of the bitmaps may have bits set (outside them they share none): from, to. */
function sharedSpan(bitmaps: readonly Source[], words: number): [from: number, to: number] {
  let [from, to] = [0, words];
  for (const { span } of bitmaps) {
    if (!span) continue;
    from = Math.max(from, span[0]);
    to = Math.min(to, span[1]);
  }
  return [from, Math.max(from, to)];
}

/**
 * The slots every one of the sources holds. The bitmaps' words within their shared span are ANDed into a copy
 * of the first's; the smallest source to mark then drives instead, its slots tested against that bitmap (any
 * others are marked in first). Marking it into a bitmap of its own, ANDing that and reading the slots back off
 * every word made the whole match of a city, a type and a price range (a few thousand priced listings) about
 * 1.5 times as slow at 100,000.
 */
function intersectionSource(bitmaps: readonly Source[], marked: readonly Source[], words: number, [from, to]: [number, number]): Source {
  const [first, ...others] = bitmaps;
  const marks = intersectionMarks(words, from, to);
  marks.set(first!.bits!.subarray(from, to), from);
  for (const source of others) intersectWords(marks, source.bits!, from, to);
  const [lead, ...rest] = [...marked].sort((a, b) => a.estimate - b.estimate);
  for (const source of rest) {
    const own = new Uint32Array(words);
    if (source.mark) source.mark(own);
    else {
      const slots = source.collect();
      for (let i = 0; i < slots.length; i++) setBit(own, slots[i]!);
    }
    intersectWords(marks, own, from, to);
  }
  return {
    estimate: Math.min(...[...bitmaps, ...marked].map((source) => source.estimate)),
    collect() {
      if (!lead) return slotsOfBits(marks, to, from);
      const count = countBits(marks, from, to);
      if (lead.collectMarked) return lead.collectMarked(marks, [from, to], count);
      // The shared slots drive when they are few beside the lead's, each then checked by the lead's own rule.
      if (lead.contains && count * SHARED_PER_LEAD < lead.estimate) {
        const shared = slotsOfBits(marks, to, from);
        return shared.subarray(0, lead.contains(shared, shared.length));
      }
      const slots = lead.collect();
      let kept = 0;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        if (hasBit(marks, slot)) slots[kept++] = slot;
      }
      return slots.subarray(0, kept);
    },
  };
}

/**
 * The bitmap an intersection is made in, all zeros outside words `from` to `to`, until the next intersection is
 * made (matchSlots collects its intersection at once). One bitmap serves every search in turn (a match is one
 * synchronous step): a new one per search was 12 kB at 100,000 listings, 122 kB at a million, to allocate,
 * clear and collect. Only the words the last search may have set are cleared. A whole bitmap rather than one
 * of the span alone: read at `slot − span start`, the price range's loop below ran half as slow again (most of
 * its slots fall outside the span).
 */
function intersectionMarks(words: number, from: number, to: number): Uint32Array {
  if (scratch.marks.length < words) scratch.marks = new Uint32Array(words);
  else scratch.marks.fill(0, scratch.dirty[0], scratch.dirty[1]);
  scratch.dirty = [from, to];
  return scratch.marks;
}

const scratch = { marks: new Uint32Array(0), dirty: [0, 0] as [number, number] };

/** The sources and checks of a search; undefined when a rule can match nothing (an unknown term or word). */
function planOf(index: ListingIndex, { search, referenceIds }: EngineSearch, except?: FacetName): Plan | undefined {
  const { query, termIds } = search;
  const sources: Source[] = [];
  const checks: Check[] = [];
  sources.push(statesSource(index, query.include_sold === true));

  for (const name of TAXONOMY_FILTERS_MATCHED) {
    const ids = termIds[name];
    if (ids === undefined || except === name) continue;
    if (ids.length === 0) return undefined;
    if (name === 'feature') {
      for (const id of ids) {
        const posting = index.termPostings.get(id);
        if (!posting) return undefined;
        sources.push(postingSource(index, [posting]));
      }
    } else {
      const postings = ids.flatMap((id) => index.termPostings.get(id) ?? []);
      if (postings.length === 0) return undefined;
      sources.push(postingSource(index, postings));
    }
  }

  if (query.keyword !== undefined) {
    for (const word of queryTerms(query.keyword)) {
      const posting = index.wordPostings.get(word);
      if (!posting) return undefined;
      sources.push(postingSource(index, [posting]));
    }
  }
  if (query.agent_id !== undefined && !addPostings(index, sources, agentPostings(index, query.agent_id))) return undefined;
  if (query.agency_id !== undefined && !addPostings(index, sources, agencyPostings(index, query.agency_id))) return undefined;
  if (search.scope) {
    const postings = search.scope.kind === 'agent' ? agentPostings(index, search.scope.id) : agencyPostings(index, search.scope.id);
    if (!addPostings(index, sources, postings)) return undefined;
  }
  if (query.user_id !== undefined && !addPostings(index, sources, [index.authorPostings.get(query.user_id)])) return undefined;
  if (query.ids !== undefined) sources.push(idsSource(index, query.ids));
  if (query.reference !== undefined)
    sources.push(
      idsSource(
        index,
        [...(referenceIds ?? [])].sort((a, b) => a - b),
      ),
    );

  const price = except === 'price' ? undefined : query.price;
  const priceSource = price ? priceRangeSource(index, price) : undefined;
  if (priceSource) sources.push(priceSource);
  const ranges: [NumberColumn, NumberRange | undefined][] = [
    [index.floorSize, query.size],
    [index.landSize, query.land_size],
    [index.bedrooms, except === 'bedrooms' ? undefined : query.bedrooms],
    [index.bathrooms, except === 'bathrooms' ? undefined : query.bathrooms],
    [index.yearBuilt, query.year_built],
    [index.garage, query.garage === undefined ? undefined : { min: query.garage }],
  ];
  for (const [column, range] of ranges) {
    const check = rangeCheck(column, range);
    if (check) checks.push(check);
  }
  if (query.currency !== undefined) {
    const code = index.currencyOf(query.currency);
    if (code < 0) return undefined;
    const { currency } = index;
    checks.push(checkOf((slot) => currency[slot] === code));
  }
  if (query.featured) {
    checks.push(bitsCheck(index.featuredBits));
  }

  if (query.circle?.radius !== undefined) {
    const circle = { ...query.circle, radius: query.circle.radius };
    sources.push(regionSource(index, boxOfCircle(circle), new CircleCells(circle), circleCheck(index, circle)));
  }
  if (query.box !== undefined) sources.push(regionSource(index, [query.box], new BoxCells(query.box), checkOf(boxTest(index, query.box))));
  if (query.polygon !== undefined) {
    const bounds = boxOfPolygon(query.polygon);
    const inPolygon = checkOf(polygonTest(index, query.polygon, bounds));
    sources.push(regionSource(index, [bounds], new PolygonCells(query.polygon, bounds), inPolygon));
  }
  return { sources, checks };
}

/** Adds the union of the postings as a source; false when there is none (nothing matches). */
function addPostings(index: ListingIndex, sources: Source[], postings: readonly (Posting | undefined)[]): boolean {
  const known = postings.filter((posting): posting is Posting => posting !== undefined);
  if (known.length === 0) return false;
  sources.push(postingSource(index, known));
  return true;
}

function agentPostings(index: ListingIndex, agentId: number): (Posting | undefined)[] {
  return [index.agentPostings.get(agentId)];
}

/** An agency's listings (docs/api.md 12): its own, and those naming one of its agents. */
function agencyPostings(index: ListingIndex, agencyId: number): (Posting | undefined)[] {
  return [index.agencyPostings.get(agencyId), ...[...index.agentsOf(agencyId)].map((agentId) => index.agentPostings.get(agentId))];
}

function postingSource(index: ListingIndex, postings: readonly Posting[]): Source {
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
function statesSource(index: ListingIndex, includeSold: boolean): Source {
  const bits = includeSold ? index.liveBits : index.publishedBits;
  return {
    estimate: index.size,
    bits,
    collect: () => slotsOfBits(bits, (index.slotCount + 31) >>> 5),
    contains: bitsCheck(bits),
  };
}

/** The listings of the ids (ascending, unique). */
function idsSource(index: ListingIndex, ids: readonly number[]): Source {
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
function priceRangeSource(index: ListingIndex, range: NumberRange): Source | undefined {
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
interface RegionCells {
  relation(cell: GridCell): CellRelation;
}

/**
 * The listings of a region: those of the index cells (INDEX_CELL_LEVEL) inside it as they are, those of the
 * cells its edge cuts by the exact test. When another source drives, the exact test decides.
 */
function regionSource(index: ListingIndex, boxes: readonly SearchBox[], region: RegionCells, check: Check): Source {
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
