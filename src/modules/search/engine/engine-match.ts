import { queryTerms } from '../../../lib/search-tokens.js';
import { boxOfCircle, boxOfPolygon } from '../geo/geo.js';
import { BoxCells, CircleCells, PolygonCells } from '../geo/geo-cells.js';
import type { ResolvedSearch } from '../query/search-terms.js';
import { type FacetName, LOCATION_FILTERS, type NumberRange, TERM_FILTERS, type TaxonomyFilter } from '../query/search-types.js';
import { bitsCheck, type Check, checkOf, circleCheck, rangeCheck } from './engine-checks.js';
import type { NumberColumn } from './engine-columns.js';
import { boxTest, polygonTest } from './engine-regions.js';
import {
  idsSource,
  postingSource,
  priceRangeSource,
  regionSource,
  SHARED_PER_LEAD,
  type Source,
  statesSource,
  termPriceSource,
} from './engine-sources.js';
import type { ListingIndex } from './listing-index.js';
import { countBits, hasBit, intersectWords, type Posting, setBit, slotsOfBits } from './postings.js';

/**
 * Which listings of the index a search matches: the rules of query/search-filters.repository.ts (the reference),
 * over the columns and postings of engine/listing-index.ts. The smallest source of candidates (engine-sources.ts:
 * a term, a word, an agent, the grid cells of a region, a price range of the price order, the ids) drives, or
 * the intersection of the dense ones; every other rule is tested on each candidate.
 */

/** A search as the engine runs it: the references it names already confirmed against the database. */
export interface EngineSearch {
  search: ResolvedSearch;
  /** The ids of listings whose reference equals the `reference` filter (present when the search has one). */
  referenceIds?: ReadonlySet<number>;
  /** The ids of listings whose reference equals the keyword (relevance puts them first). */
  keywordReferenceIds?: ReadonlySet<number>;
}

/** How many times a source marked by `mark` may outnumber the smallest bitmap and still join their intersection. */
const MARK_ADVANTAGE = 4;
/** About how many words an AND of bitmaps goes through in the time a candidate takes to collect and check (measured). */
const WORDS_PER_VISIT = 8;

/** The term filters, then the location ones: the order their sources are made in. */
const TAXONOMY_FILTERS_MATCHED: readonly TaxonomyFilter[] = [...TERM_FILTERS, ...LOCATION_FILTERS];
const LOCATION_TAXONOMY_FILTERS: ReadonlySet<TaxonomyFilter> = new Set(LOCATION_FILTERS);

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
  // What the smallest source covers (a city within a price range covers the city and the range) takes no part.
  const covered = new Set(driver.covers);
  const bitmaps = plan.sources.filter((source) => source.bits !== undefined && !covered.has(source));
  const words = (index.slotCount + 31) >>> 5;
  const span = sharedSpan(bitmaps, words);
  // Dense filters (a city, a type, the states searched) kept as bitmaps: their intersection, a few thousand ANDs,
  // drives instead of checking each on every candidate of the smallest source. A source not much larger than the
  // smallest of them that can mark its slots (a price range) joins as a bitmap of its own, and so does any
  // source smaller than that: marking its slots costs less than checking the candidates left.
  // A driver that covers others (a city within a price range) leaves few candidates, each tested against the
  // remaining bitmaps by one bit: worth a word of an AND, not the WORDS_PER_VISIT of a candidate that the
  // intersection spares more checks. The 1,000 requests of the bench's (f) at 100,000 listings (a city's
  // apartments in a price band) took 24-34 µs each intersected, 15-17 driven by the city's stretch.
  const wordsPerCandidate = covered.size > 0 ? 1 : WORDS_PER_VISIT;
  let driven = new Set([driver, ...covered]);
  if (bitmaps.length >= 2 && (span[1] - span[0]) * bitmaps.length < driver.estimate * wordsPerCandidate) {
    const least = Math.min(...bitmaps.map((source) => source.estimate));
    const marked = plan.sources.filter(
      (source) => source.bits === undefined && !covered.has(source) && source.estimate <= (source.mark ? MARK_ADVANTAGE * least : least),
    );
    driver = intersectionSource(bitmaps, marked, words, span);
    driven = new Set([...bitmaps, ...marked, ...covered]);
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

  // Location filters of one term each: the one with the fewest listings may drive within a price range.
  let place: { termId: number; posting: Posting; source: Source } | undefined;
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
      const source = postingSource(index, postings);
      sources.push(source);
      const posting = postings[0]!;
      if (ids.length === 1 && LOCATION_TAXONOMY_FILTERS.has(name) && (!place || posting.length < place.posting.length))
        place = { termId: ids[0]!, posting, source };
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
  if (priceSource && place) sources.push(termPriceSource(index, place.termId, place.posting, price!, [place.source, priceSource]));
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
  if (query.currency !== undefined && except !== 'currency') {
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
