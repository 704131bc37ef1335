import { queryTerms } from '../../../lib/search-tokens.js';
import {
  boxOfCircle,
  boxOfPolygon,
  inBox,
  type RadiusCircle,
  type MatchableListing,
  type ResolvedSearch,
  type NumberRange,
  type SearchBox,
  type SearchQuery,
  type TaxonomyFilter,
} from '../../search/index.js';

/**
 * A saved search's query compiled for the in-memory index (saved-search-index.service.ts): the resolved search that
 * matchesListing decides on, and a prefilter that only rejects what matchesListing would reject too, but
 * without its allocations, so that the many candidates that do not match cost a few comparisons each.
 */

export type TermIds = ResolvedSearch['termIds'];

/** The listing fields a range filter of the matcher reads. */
type RangeField = 'price' | 'size' | 'land_size' | 'bedrooms' | 'bathrooms' | 'year_built';
const RANGES: readonly [RangeField, keyof SearchQuery][] = [
  ['price', 'price'],
  ['size', 'size'],
  ['land_size', 'land_size'],
  ['bedrooms', 'bedrooms'],
  ['bathrooms', 'bathrooms'],
  ['year_built', 'year_built'],
];

/** A term parameter as the listing must satisfy it: one of the ids, or (`feature`) all of them. */
interface TermCheck {
  ids: readonly number[];
  all: boolean;
}

/** The term ids of a set of term parameters, and the checks made of them; shared by every query naming that set. */
export interface TermResolution {
  readonly termIds: TermIds;
  readonly checks: readonly TermCheck[];
}

/** What a compiled query keeps of its set of term parameters (saved-search-index.service.ts keeps the rest). */
export interface SelectionRef {
  readonly key: string;
  readonly resolution: TermResolution;
}

/**
 * One distinct saved query string, shared by every saved search that stores it. `resolved` and `terms` follow
 * the terms (setResolution); the rest is what the query alone says. Empty lists are shared, as are the term
 * parameters of queries naming the same ones: a hundred thousand of these stay in memory.
 */
export interface CompiledQuery {
  readonly queryString: string;
  readonly query: SearchQuery;
  readonly selection: SelectionRef | undefined;
  resolved: ResolvedSearch;
  terms: readonly TermCheck[];
  readonly searchIds: number[];
  /** Bounded ranges as [field, min, max]: the listing's value must be present and inside. */
  readonly ranges: readonly (readonly [RangeField, number, number])[];
  readonly currency: string | undefined;
  readonly includeSold: boolean;
  /** The keyword's words (queryTerms), all of which the listing's search_text must hold; empty: no keyword filter. */
  readonly words: readonly string[];
  /** Per geo filter (circle with a radius, box, polygon), boxes of which the point must lie in one (geo.ts: they hold every point the exact tests admit). */
  readonly regions: readonly (readonly SearchBox[])[];
  /** The lookup in which this query was last looked at (a query may sit in several posting lists). */
  seen: number;
}

const NONE: readonly never[] = Object.freeze([]);
const NO_TERMS: TermResolution = termResolution({});

export function termResolution(termIds: TermIds): TermResolution {
  const checks = (Object.entries(termIds) as [TaxonomyFilter, number[]][]).map(([name, ids]) => ({ ids, all: name === 'feature' }));
  return { termIds, checks: checks.length > 0 ? checks : NONE };
}

/** `query` must be the caller's own: its term parameters become the selection's (equal, and shared). */
export function compileQuery(
  queryString: string,
  query: SearchQuery,
  selection: SelectionRef | undefined,
  terms?: SearchQuery['terms'],
): CompiledQuery {
  if (terms) query.terms = terms;
  const ranges = RANGES.flatMap(([field, name]) => boundsOf(query[name] as NumberRange | undefined, field));
  const regions = regionsOf(query);
  const words = query.keyword === undefined ? [] : queryTerms(query.keyword);
  const compiled: CompiledQuery = {
    queryString,
    query,
    selection,
    resolved: { query, termIds: {} },
    terms: NONE,
    searchIds: [],
    ranges: ranges.length > 0 ? ranges : NONE,
    currency: query.currency,
    includeSold: query.include_sold === true,
    words: words.length > 0 ? words : NONE,
    regions: regions.length > 0 ? regions : NONE,
    seen: 0,
  };
  setResolution(compiled, selection?.resolution ?? NO_TERMS);
  return compiled;
}

export function setResolution(compiled: CompiledQuery, resolution: TermResolution): void {
  compiled.resolved = { query: compiled.query, termIds: resolution.termIds };
  compiled.terms = resolution.checks;
}

/**
 * Only what matchesListing would also reject: a query passing here is then decided by matchesListing.
 * `wordsOf` gives the words of the listing's search_text as keywordMatches splits them, made once per lookup.
 */
export function passesPrefilter(compiled: CompiledQuery, listing: MatchableListing, wordsOf: () => ReadonlySet<string>): boolean {
  if (listing.status !== 'publish' && !(compiled.includeSold && listing.status === 'sold')) return false;
  for (const { ids, all } of compiled.terms) {
    if (ids.length === 0) return false;
    if (all) {
      for (const id of ids) if (!listing.term_ids.has(id)) return false;
    } else if (!hasAny(listing.term_ids, ids)) {
      return false;
    }
  }
  if (compiled.currency !== undefined && listing.currency !== compiled.currency) return false;
  for (const [field, min, max] of compiled.ranges) {
    const value = listing[field];
    if (value === null || value < min || value > max) return false;
  }
  if (compiled.regions.length > 0) {
    const { latitude, longitude } = listing;
    if (latitude === null || longitude === null || listing.geo === null) return false;
    for (const boxes of compiled.regions) if (!boxes.some((box) => inBox({ latitude, longitude }, box))) return false;
  }
  if (compiled.words.length > 0) {
    const words = wordsOf();
    for (const word of compiled.words) if (!words.has(word)) return false;
  }
  return true;
}

/**
 * What to file a query under: its two term parameters named by the fewest saved searches (`refs`), as lists of
 * ids of which a matching listing carries one each (for `feature`, its least named feature, since all are
 * needed); one list when it has one term parameter, none without any; null when a parameter names no existing
 * term (it can match nothing).
 */
export function anchorsOf(compiled: CompiledQuery, refs: (termId: number) => number): (readonly number[])[] | null {
  const choices: { ids: readonly number[]; cost: number }[] = [];
  for (const { ids, all } of compiled.terms) {
    if (ids.length === 0) return null;
    const choice = all ? [ids.reduce((best, id) => (refs(id) < refs(best) ? id : best))] : ids;
    choices.push({ ids: choice, cost: choice.reduce((sum, id) => sum + refs(id), 0) });
  }
  return choices
    .sort((a, b) => a.cost - b.cost)
    .slice(0, 2)
    .map((choice) => choice.ids);
}

function hasAny(termIds: ReadonlySet<number>, ids: readonly number[]): boolean {
  for (const id of ids) if (termIds.has(id)) return true;
  return false;
}

/** A range with a bound, as [field, min, max]; a range without bounds filters nothing (as in matchesListing). */
function boundsOf(range: NumberRange | undefined, field: RangeField): (readonly [RangeField, number, number])[] {
  if (range === undefined || (range.min === undefined && range.max === undefined)) return [];
  return [[field, range.min ?? -Infinity, range.max ?? Infinity]];
}

function regionsOf(query: SearchQuery): SearchBox[][] {
  const regions: SearchBox[][] = [];
  if (query.circle?.radius !== undefined) regions.push(boxOfCircle(query.circle as RadiusCircle));
  if (query.box) regions.push([query.box]);
  if (query.polygon) regions.push([boxOfPolygon(query.polygon)]);
  return regions;
}
