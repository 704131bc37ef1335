import { deinterleave, unitVector } from '../../../lib/geo-grid.js';
import { queryTerms } from '../../../lib/search-tokens.js';
import { boxOfCircle, boxOfPolygon, crossesEdge, minimumDot, polygonEdges, radiusKmOf } from '../geo/geo.js';
import { BoxCells, type CellRelation, CircleCells, type GridCell } from '../geo/geo-cells.js';
import type { ResolvedSearch } from '../query/search-terms.js';
import {
  type FacetName,
  LOCATION_FILTERS,
  type NumberRange,
  type SearchBox,
  TERM_FILTERS,
  type TaxonomyFilter,
} from '../query/search-types.js';
import { INDEX_CELL_LEVEL, type ListingIndex, NULL_INT, PUBLISH, SOLD } from './listing-index.js';
import { orderOf } from './engine-orders.js';
import { boxTest, forEachCell } from './engine-regions.js';
import { forEachSetBit, hasBit, intersectWords, type Posting, setBit } from './postings.js';

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

/** Where candidates may come from, and how to test one that came from elsewhere. */
interface Source {
  /** About how many slots `each` visits. */
  estimate: number;
  each(visit: (slot: number) => void): void;
  /** Whether `each` may visit a slot twice (a union of lists). */
  repeats: boolean;
  /** Whether a slot belongs to the source (undefined: an exact test in `tests` decides). */
  contains?: (slot: number) => boolean;
  /** The source's slots as a bitmap, when it keeps them so: several such sources are intersected word by word. */
  bits?: Uint32Array;
  /** Sets the bit of each of its slots, a few times cheaper a slot than `each` (an intersection takes it so). */
  mark?: (marks: Uint32Array) => void;
}

/** How many times a source marked by `mark` may outnumber the smallest bitmap and still join their intersection. */
const MARK_ADVANTAGE = 4;
/** About how many words an AND of bitmaps goes through in the time a candidate takes to visit and test (measured). */
const WORDS_PER_VISIT = 8;

type Test = (slot: number) => boolean;

interface Plan {
  sources: Source[];
  tests: Test[];
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
  // Dense filters (a city, a type, the states searched) kept as bitmaps: their intersection, a few thousand ANDs,
  // drives instead of testing each on every candidate of the smallest source. A source not much larger than the
  // smallest of them that can mark its slots (a price range) joins as a bitmap of its own, and so does any
  // source smaller than that: marking its slots costs less than testing the candidates left.
  let driven = new Set([driver]);
  if (bitmaps.length >= 2 && words * bitmaps.length < driver.estimate * WORDS_PER_VISIT) {
    const least = Math.min(...bitmaps.map((source) => source.estimate));
    const marked = plan.sources.filter(
      (source) => source.bits === undefined && source.estimate <= (source.mark ? MARK_ADVANTAGE * least : least),
    );
    driver = intersectionSource(bitmaps, marked, words);
    driven = new Set([...bitmaps, ...marked]);
  }
  // The other sources' tests first, the most selective first: a candidate most often fails one of them.
  const tests: Test[] = plan.sources
    .filter((source) => !driven.has(source) && source.contains)
    .sort((a, b) => a.estimate - b.estimate)
    .map((source) => source.contains!);
  tests.push(...plan.tests);
  const alive = index.alive;
  const found = new SlotList(Math.min(driver.estimate, index.slotCount));
  // A bitmap: a byte a slot was a megabyte to allocate and clear per search at a million listings.
  const seen = driver.repeats ? new Uint32Array((index.slotCount + 31) >>> 5) : undefined;
  const visit = (slot: number) => {
    if (alive[slot] !== 1) return;
    if (seen) {
      if (hasBit(seen, slot)) return;
      setBit(seen, slot);
    }
    for (let i = 0; i < tests.length; i++) if (!tests[i]!(slot)) return;
    found.push(slot);
  };
  driver.each(visit);
  return found.values();
}

/** The slots every one of the sources holds, ascending: the bitmaps' words ANDed, the others' slots marked first. */
function intersectionSource(bitmaps: readonly Source[], marked: readonly Source[], words: number): Source {
  const marks = new Uint32Array(words).fill(0xffffffff);
  for (const source of bitmaps) intersectWords(marks, source.bits!);
  for (const source of marked) {
    const own = new Uint32Array(words);
    if (source.mark) source.mark(own);
    else source.each((slot) => setBit(own, slot));
    intersectWords(marks, own);
  }
  return {
    estimate: Math.min(...[...bitmaps, ...marked].map((source) => source.estimate)),
    repeats: false,
    each: (visit) => forEachSetBit(marks, words, visit),
  };
}

/** A growable list of slots. */
class SlotList {
  private slots: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.slots = new Int32Array(Math.max(16, Math.min(capacity, 1 << 16)));
  }

  push(slot: number): void {
    if (this.length === this.slots.length) {
      const grown = new Int32Array(this.slots.length * 2);
      grown.set(this.slots);
      this.slots = grown;
    }
    this.slots[this.length++] = slot;
  }

  values(): Int32Array {
    return this.slots.subarray(0, this.length);
  }
}

/** The sources and tests of a search; undefined when a rule can match nothing (an unknown term or word). */
function planOf(index: ListingIndex, { search, referenceIds }: EngineSearch, except?: FacetName): Plan | undefined {
  const { query, termIds } = search;
  const sources: Source[] = [];
  const tests: Test[] = [];
  sources.push(statesSource(index, query.include_sold === true));

  for (const name of [...TERM_FILTERS, ...LOCATION_FILTERS] as TaxonomyFilter[]) {
    const ids = termIds[name];
    if (ids === undefined || except === name) continue;
    if (ids.length === 0) return undefined;
    if (name === 'feature') {
      for (const id of ids) {
        const posting = index.termPostings.get(id);
        if (!posting) return undefined;
        sources.push(postingSource([posting]));
      }
    } else {
      const postings = ids.flatMap((id) => index.termPostings.get(id) ?? []);
      if (postings.length === 0) return undefined;
      sources.push(postingSource(postings));
    }
  }

  if (query.keyword !== undefined) {
    for (const word of queryTerms(query.keyword)) {
      const posting = index.wordPostings.get(word);
      if (!posting) return undefined;
      sources.push(postingSource([posting]));
    }
  }
  if (query.agent_id !== undefined && !addPostings(sources, agentPostings(index, query.agent_id))) return undefined;
  if (query.agency_id !== undefined && !addPostings(sources, agencyPostings(index, query.agency_id))) return undefined;
  if (search.scope) {
    const postings = search.scope.kind === 'agent' ? agentPostings(index, search.scope.id) : agencyPostings(index, search.scope.id);
    if (!addPostings(sources, postings)) return undefined;
  }
  if (query.user_id !== undefined && !addPostings(sources, [index.authorPostings.get(query.user_id)])) return undefined;
  if (query.ids !== undefined) sources.push(idsSource(index, query.ids));
  if (query.reference !== undefined)
    sources.push(
      idsSource(
        index,
        [...(referenceIds ?? [])].sort((a, b) => a - b),
      ),
    );

  const price = except === 'price' ? undefined : query.price;
  // The price range is a source (a stretch of the price order) whose own test is the range's.
  const priceTests: Test[] = [];
  addRange(priceTests, index.price, price);
  const priceSource = price ? priceRangeSource(index, price) : undefined;
  if (priceSource) sources.push({ ...priceSource, contains: priceTests[0]! });
  addRange(tests, index.floorSize, query.size);
  addRange(tests, index.landSize, query.land_size);
  if (except !== 'bedrooms') addIntRange(tests, index.bedrooms, query.bedrooms);
  if (except !== 'bathrooms') addIntRange(tests, index.bathrooms, query.bathrooms);
  addIntRange(tests, index.yearBuilt, query.year_built);
  if (query.currency !== undefined) {
    const code = index.currencyOf(query.currency);
    if (code < 0) return undefined;
    const { currency } = index;
    tests.push((slot) => currency[slot] === code);
  }
  if (query.garage !== undefined) addIntRange(tests, index.garage, { min: query.garage });
  if (query.featured) {
    const { featured } = index;
    tests.push((slot) => featured[slot] === 1);
  }

  if (query.circle?.radius !== undefined) {
    const circle = { ...query.circle, radius: query.circle.radius };
    const [x, y, z] = unitVector(circle.latitude, circle.longitude);
    const least = minimumDot(radiusKmOf(circle));
    const { geoX, geoY, geoZ } = index;
    // `>=` is false for a listing without coordinates (NaN), as SQL's comparison with null is.
    const inCircle: Test = (slot) => geoX[slot]! * x + geoY[slot]! * y + geoZ[slot]! * z >= least;
    sources.push(regionSource(index, boxOfCircle(circle), new CircleCells(circle), inCircle));
  }
  if (query.box !== undefined) sources.push(regionSource(index, [query.box], new BoxCells(query.box), boxTest(index, query.box)));
  if (query.polygon !== undefined) {
    const bounds = boxOfPolygon(query.polygon);
    sources.push(regionSource(index, [bounds], new BoxCells(bounds), boxTest(index, bounds)));
    const edges = polygonEdges(query.polygon);
    const { latitude, longitude } = index;
    tests.push((slot) => {
      const point = { latitude: latitude[slot]!, longitude: longitude[slot]! };
      let crossings = 0;
      for (const edge of edges) if (crossesEdge(point, edge)) crossings++;
      return crossings % 2 === 1;
    });
  }
  return { sources, tests };
}

/** Adds the union of the postings as a source; false when there is none (nothing matches). */
function addPostings(sources: Source[], postings: readonly (Posting | undefined)[]): boolean {
  const known = postings.filter((posting): posting is Posting => posting !== undefined);
  if (known.length === 0) return false;
  sources.push(postingSource(known));
  return true;
}

function agentPostings(index: ListingIndex, agentId: number): (Posting | undefined)[] {
  return [index.agentPostings.get(agentId)];
}

/** An agency's listings (docs/api.md 12): its own, and those naming one of its agents. */
function agencyPostings(index: ListingIndex, agencyId: number): (Posting | undefined)[] {
  return [index.agencyPostings.get(agencyId), ...[...index.agentsOf(agencyId)].map((agentId) => index.agentPostings.get(agentId))];
}

function postingSource(postings: readonly Posting[]): Source {
  const estimate = postings.reduce((sum, posting) => sum + posting.length, 0);
  return {
    estimate,
    repeats: postings.length > 1,
    each(visit) {
      for (const posting of postings) posting.each(visit);
    },
    ...(postings.length === 1 && postings[0]!.words ? { bits: postings[0]!.words } : {}),
    contains:
      postings.length === 1
        ? (slot) => postings[0]!.has(slot)
        : (slot) => {
            for (const posting of postings) if (posting.has(slot)) return true;
            return false;
          },
  };
}

/**
 * The live listings in the states searched (published; sold too with `include_sold`): the index's bitmaps of
 * them. Every search has this source; it drives only a search with no other (every listing is a candidate).
 */
function statesSource(index: ListingIndex, includeSold: boolean): Source {
  const bits = includeSold ? index.liveBits : index.publishedBits;
  const { status } = index;
  return {
    estimate: index.size,
    repeats: false,
    bits,
    each: (visit) => forEachSetBit(bits, (index.slotCount + 31) >>> 5, visit),
    contains: includeSold ? (slot) => status[slot] === PUBLISH || status[slot] === SOLD : (slot) => status[slot] === PUBLISH,
  };
}

/** The listings of the ids (ascending, unique). */
function idsSource(index: ListingIndex, ids: readonly number[]): Source {
  const slots = ids.map((id) => index.slotOf(id)).filter((slot) => slot >= 0);
  const wanted = new Set(slots);
  return {
    estimate: slots.length,
    repeats: false,
    each(visit) {
      for (const slot of slots) visit(slot);
    },
    contains: (slot) => wanted.has(slot),
  };
}

/** The slots whose price lies in the range: one stretch of the price order, found by binary search. */
function priceRangeSource(index: ListingIndex, range: NumberRange): Source | undefined {
  if (range.min === undefined && range.max === undefined) return undefined;
  const order = orderOf(index, 'a_price');
  const [from, to] = priceStretch(index, order, 'a_price', range);
  return {
    estimate: to - from,
    repeats: false,
    each(visit) {
      for (let i = from; i < to; i++) visit(order[i]!);
    },
    mark(marks) {
      for (let i = from; i < to; i++) setBit(marks, order[i]!);
    },
  };
}

/**
 * Where the listings priced within the range lie in a price order (`a_price` or `d_price`, listings without a
 * price last in both): positions `from` (inclusive) to `to` (exclusive), by binary search.
 */
export function priceStretch(index: ListingIndex, order: Int32Array, sort: 'a_price' | 'd_price', range: NumberRange): [number, number] {
  const { price } = index;
  const { min = -Infinity, max = Infinity } = range;
  // The number of positions whose price is priced and `before` the bound (a prefix of the order).
  const prefix = (before: (value: number) => boolean) => {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const value = price[order[mid]!]!;
      if (!Number.isNaN(value) && before(value)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const from = sort === 'a_price' ? prefix((value) => value < min) : prefix((value) => value > max);
  const to = sort === 'a_price' ? prefix((value) => value <= max) : prefix((value) => value >= min);
  return [from, Math.max(from, to)];
}

/** Inclusive bounds on a float column (NaN, a null, never passes). */
function addRange(tests: Test[], column: Float64Array, range?: NumberRange): void {
  if (range === undefined) return;
  const { min, max } = range;
  if (min !== undefined && max !== undefined) tests.push((slot) => column[slot]! >= min && column[slot]! <= max);
  else if (min !== undefined) tests.push((slot) => column[slot]! >= min);
  else if (max !== undefined) tests.push((slot) => column[slot]! <= max);
}

/** Inclusive bounds on an integer column (NULL_INT, a null, never passes). */
function addIntRange(tests: Test[], column: Int32Array, range?: NumberRange): void {
  if (range === undefined || (range.min === undefined && range.max === undefined)) return;
  const min = range.min ?? -Infinity;
  const max = range.max ?? Infinity;
  tests.push((slot) => {
    const value = column[slot]!;
    return value !== NULL_INT && value >= min && value <= max;
  });
}

/** Which index cells a region holds whole, cuts or misses (geo/geo-cells.ts, exact about the grid's quantization). */
interface RegionCells {
  relation(cell: GridCell): CellRelation;
}

/**
 * The listings of a region: those of the index cells (INDEX_CELL_LEVEL) inside it as they are, those of the
 * cells its edge cuts by the exact test. When another source drives, the exact test decides.
 */
function regionSource(index: ListingIndex, boxes: readonly SearchBox[], region: RegionCells, test: Test): Source {
  const inside: Posting[] = [];
  const cut: Posting[] = [];
  forEachCell(index, boxes, (cell) => {
    const relation = region.relation({ level: INDEX_CELL_LEVEL, ...deinterleave(cell) });
    if (relation === 'outside') return;
    const posting = index.cellPostings.get(cell);
    if (posting) (relation === 'inside' ? inside : cut).push(posting);
  });
  return {
    estimate: [...inside, ...cut].reduce((sum, posting) => sum + posting.length, 0),
    repeats: false,
    each(visit) {
      for (const posting of inside) posting.each(visit);
      const tested = (slot: number) => {
        if (test(slot)) visit(slot);
      };
      for (const posting of cut) posting.each(tested);
    },
    contains: test,
  };
}
