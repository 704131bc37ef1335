import { boxOfCircle, boxOfPolygon, inBox, type RadiusCircle } from '../search/geo.js';
import type { MatchableListing } from '../search/search-matcher.js';
import type { ResolvedSearch } from '../search/search-terms.js';
import type { NumberRange, SearchBox, SearchQuery, TaxonomyFilter } from '../search/search-types.js';

/**
 * A saved search's query compiled for the in-memory index (saved-search-index.ts): the resolved search that
 * matchesListing decides on, and a prefilter that only rejects what matchesListing would reject too, but
 * without its allocations, so that the many candidates that do not match cost a few comparisons each.
 */

export type TermIds = ResolvedSearch['termIds'];

/** The listing fields a range filter of the matcher reads. */
type RangeField = 'price' | 'size' | 'land_size' | 'bedrooms' | 'bathrooms' | 'year_built';
const RANGES: readonly [RangeField, keyof SearchQuery][] = [
  ['price', 'price'], ['size', 'size'], ['land_size', 'land_size'], ['bedrooms', 'bedrooms'], ['bathrooms', 'bathrooms'], ['year_built', 'year_built'],
];

/** A term parameter as the listing must satisfy it: one of the ids, or (`feature`) all of them. */
interface TermCheck {
  ids: readonly number[];
  all: boolean;
}

/**
 * One distinct saved query string, shared by every saved search that stores it. `resolved` and `terms` follow
 * the terms (setTermIds); the rest is what the query alone says.
 */
export interface CompiledQuery {
  readonly queryString: string;
  readonly query: SearchQuery;
  /** JSON of query.terms (as SearchService keys its resolutions), absent without term parameters. */
  readonly selectionKey: string | undefined;
  resolved: ResolvedSearch;
  terms: readonly TermCheck[];
  readonly searchIds: number[];
  /** Bounded ranges as [field, min, max]: the listing's value must be present and inside. */
  readonly ranges: readonly [RangeField, number, number][];
  readonly currency: string | undefined;
  readonly includeSold: boolean;
  /** Per geo filter (circle with a radius, box, polygon), boxes of which the point must lie in one (geo.ts: they hold every point the exact tests admit). */
  readonly regions: readonly (readonly SearchBox[])[];
  /** The lookup in which this query was last looked at (a query may sit in several posting lists). */
  seen: number;
}

export function compileQuery(queryString: string, query: SearchQuery, termIds: TermIds): CompiledQuery {
  const compiled: CompiledQuery = {
    queryString,
    query,
    selectionKey: query.terms ? JSON.stringify(query.terms) : undefined,
    resolved: { query, termIds: {} },
    terms: [],
    searchIds: [],
    ranges: RANGES.flatMap(([field, name]) => boundsOf(query[name] as NumberRange | undefined, field)),
    currency: query.currency,
    includeSold: query.include_sold === true,
    regions: regionsOf(query),
    seen: 0,
  };
  setTermIds(compiled, termIds);
  return compiled;
}

export function setTermIds(compiled: CompiledQuery, termIds: TermIds): void {
  compiled.resolved = { query: compiled.query, termIds };
  compiled.terms = (Object.entries(termIds) as [TaxonomyFilter, number[]][]).map(([name, ids]) => ({ ids, all: name === 'feature' }));
}

/** Only what matchesListing would also reject: a query passing here is then decided by matchesListing. */
export function passesPrefilter(compiled: CompiledQuery, listing: MatchableListing): boolean {
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
  return true;
}

/**
 * The term ids to file a query under: its term parameter named by the fewest saved searches (`refs`) — for
 * `feature`, the least named of its features, since all are needed; [] when a parameter names no existing term
 * (it can match nothing); undefined without term parameters.
 */
export function anchorOf(compiled: CompiledQuery, refs: (termId: number) => number): readonly number[] | undefined {
  let anchor: readonly number[] | undefined;
  let cost = Infinity;
  for (const { ids, all } of compiled.terms) {
    if (ids.length === 0) return [];
    const choice = all ? [ids.reduce((best, id) => (refs(id) < refs(best) ? id : best))] : ids;
    const choiceCost = choice.reduce((sum, id) => sum + refs(id), 0);
    if (choiceCost < cost) [anchor, cost] = [choice, choiceCost];
  }
  return anchor;
}

function hasAny(termIds: ReadonlySet<number>, ids: readonly number[]): boolean {
  for (const id of ids) if (termIds.has(id)) return true;
  return false;
}

/** A range with a bound, as [field, min, max]; a range without bounds filters nothing (as in matchesListing). */
function boundsOf(range: NumberRange | undefined, field: RangeField): [RangeField, number, number][] {
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
