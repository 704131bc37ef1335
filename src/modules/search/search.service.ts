import type { Kysely } from 'kysely';
import type { CacheStamps } from '../../db/cache-versions.js';
import type { Executor } from '../../db/executor.js';
import type { DB } from '../../db/schema/index.js';
import { AnswerCache } from '../../lib/answer-cache.js';
import type { ListAnswer, ListItem } from '../../http/list-answer.js';
import { type PageWindow, pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import type { PropertySummaryRecord, PropertiesService } from '../properties/index.js';
import { distanceKm, KM_PER_MILE } from './geo/geo.js';
import { clustersInBox, clustersOfMatches, type MapClusters } from './geo/geo-cells.repository.js';
import { searchConditions, searchedStates } from './query/search-filters.repository.js';
import { type MapSearch, normalizeSearchQuery } from './query/search-query.js';
import type { SearchQueryInput } from './query/search-query.schemas.js';
import { isPlainListing } from './query/search-plain.js';
import type { SearchEngine } from './engine/search-engine.service.js';
import type { FacetCount } from './facets/facet-counts.js';
import { countFacets } from './facets/search-facets.repository.js';
import { type ListingScope, type ResolvedSearch } from './query/search-terms.js';
import { resolveTerms } from './query/search-terms.repository.js';
import type { MatchableListing } from './matcher/search-matcher.js';
import { loadMatchableListings } from './matcher/search-matcher.repository.js';
import type { SearchCircle, SearchQuery, SearchSort } from './query/search-types.js';
import { findSearchPage } from './search.repository.js';

export interface SearchResult {
  properties: PropertySummaryRecord[];
  pagination: ReturnType<typeof paginationOf>;
  facets?: Record<string, FacetCount[]>;
}

/** A search's answer with its summaries as cached and their distances beside them. */
interface SearchPage extends Omit<SearchResult, 'properties'> {
  entries: SummaryEntry[];
}

/** A summary in a search's answer, with the distance a search with a centre gives it (docs/api.md 4.4). */
interface SummaryEntry {
  summary: PropertySummaryRecord;
  distance?: number;
}

/** Digits a result's `distance` keeps (a metre in km, about 1.6 m in miles). */
const DISTANCE_DIGITS = 3;
/** Distinct term selections whose ids are kept (a few hundred bytes each). */
const TERM_SELECTIONS_KEPT = 10_000;

/**
 * Listing search (docs/api.md 4.4): GET /properties, /properties/search, /agents/{id}/properties and
 * /agencies/{id}/properties, and the saved searches' matches. The in-process engine picks, counts and facets
 * the ids (engine/search-engine.service.ts); with SEARCH_ENGINE=sql, the SQL does (search.repository.ts,
 * index-driven), and it stays the reference the engine is tested against. The summaries come from
 * PropertiesService, built in a fixed number of queries and cached per listing.
 */
export class SearchService {
  /** The term ids of a search's term parameters, while the terms stamp holds: most searches name the same few terms. */
  private readonly termIds = new AnswerCache<ResolvedSearch['termIds']>(TERM_SELECTIONS_KEPT);

  constructor(
    private readonly db: Kysely<DB>,
    private readonly stamps: CacheStamps,
    private readonly properties: PropertiesService,
    /** The price facet’s currency when a search names none (DEFAULT_CURRENCY). */
    private readonly defaultCurrency: string,
    /** Absent with SEARCH_ENGINE=sql. */
    private readonly engine?: SearchEngine,
  ) {}

  /** What search-matcher.ts needs of these listings, read in the caller's transaction (saved-search alerts). */
  matchableListings(db: Executor, ids: readonly number[]): Promise<MatchableListing[]> {
    return loadMatchableListings(db, ids);
  }

  /** The term slugs of a search resolved in the caller's transaction, uncached (what `resolve` runs on a miss). */
  resolveTermsIn(db: Executor, query: SearchQuery): Promise<ResolvedSearch> {
    return resolveTerms(db, query);
  }

  /** Resolves the term slugs of a normalized search (search-query.ts) once; `scope` limits it to one owner's listings. */
  async resolve(query: SearchQuery, scope?: ListingScope): Promise<ResolvedSearch> {
    if (!query.terms) return resolveTerms(this.db, query, scope);
    const key = JSON.stringify(query.terms);
    // Read before the terms, so that a change made meanwhile leaves the answer under the old stamp.
    const stamp = await this.stamps.current('terms');
    const known = this.termIds.get(key, stamp);
    if (known) return { query, termIds: known, ...(scope ? { scope } : {}) };
    const resolved = await resolveTerms(this.db, query, scope);
    this.termIds.set(key, stamp, Object.freeze(resolved.termIds));
    return resolved;
  }

  /**
   * GET /properties and /properties/search: the answer, and how it may be sent (http/list-answer.ts). The plain
   * published list comes whole from PropertiesService's page cache, the same object while the data holds; an
   * anonymous search is spliced from the summaries' kept JSON; a signed-in caller's answer carries their
   * favorites and is private.
   */
  async answer(caller: AuthUser | null, raw: SearchQueryInput): Promise<ListAnswer> {
    const query = normalizeSearchQuery(raw);
    const window = pageWindow(raw);
    if (isPlainListing(query)) {
      const page = await this.properties.listPublished(caller, window, query.sortby);
      return { visibility: caller ? 'private' : 'kept', data: page };
    }
    const { entries, ...rest } = await this.page(caller, await this.resolve(query), window);
    if (caller) return { visibility: 'private', data: { properties: entries.map(withDistance), ...rest } };
    const items = entries.map(({ summary, distance }): ListItem => ({
      value: summary,
      ...(distance === undefined ? {} : { appended: { distance } }),
    }));
    return { visibility: 'spliced', list: { field: 'properties', schema: 'PropertySummary', items }, rest };
  }

  /** A search's page of summaries, for the lists of other modules (an agent's listings, a saved search's matches, the website). */
  async search(caller: AuthUser | null, search: ResolvedSearch, window: PageWindow): Promise<SearchResult> {
    const { entries, ...rest } = await this.page(caller, search, window);
    return { properties: entries.map(withDistance), ...rest };
  }

  /** A search's page with each summary as PropertiesService keeps it and its distance beside it. */
  private async page(caller: AuthUser | null, search: ResolvedSearch, window: PageWindow): Promise<SearchPage> {
    const { query } = search;
    const sort: SearchSort = query.sortby ?? (query.keyword !== undefined ? 'relevance' : 'd_date');
    const { ids, total, facets } = this.engine
      ? await this.engine.search(search, sort, window, this.priceCurrencyOf(search))
      : await this.sqlSearch(search, sort, window);
    // A page past the last match (or of no match) needs no summaries, nor the stamps that vouch for them.
    const summaries = ids.length === 0 ? [] : await this.properties.summaries(caller, ids);
    const entries = summaries.map((summary) => ({ summary, ...(query.circle ? distanceOf(summary, query.circle) : {}) }));
    return { entries, pagination: paginationOf(total, window), ...(facets ? { facets } : {}) };
  }

  /** The currency the price facet counts in: the search's, else the site's default (docs/api.md 4.4). */
  private priceCurrencyOf({ query }: ResolvedSearch): string {
    return query.currency ?? this.defaultCurrency;
  }

  /** The page, total and facets from SQL: the reference search. */
  private async sqlSearch(search: ResolvedSearch, sort: SearchSort, window: PageWindow) {
    const { query } = search;
    const [page, facets] = await Promise.all([
      findSearchPage(this.db, search, sort, window),
      query.facets ? countFacets(this.db, search, query.facets, this.priceCurrencyOf(search)) : undefined,
    ]);
    return { ...page, ...(facets ? { facets } : {}) };
  }

  /**
   * Map clusters (docs/api.md 4.5). Without filters beyond the box (and `include_sold`) they come from the geo cell
   * aggregates, at a cost that does not grow with the listings; with filters, from one grouped query over the
   * matching listings in the box.
   */
  async map({ filters, box, zoom }: MapSearch): Promise<MapClusters> {
    const search = await this.resolve(filters);
    if (this.engine) return this.engine.map(search, box, zoom);
    const { box: _box, include_sold: _states, ...others } = search.query;
    if (Object.keys(others).length === 0) return clustersInBox(this.db, searchedStates(search.query), box, zoom);
    return clustersOfMatches(this.db, searchConditions(this.db, search), box, zoom);
  }
}

/** The summary with its distance as its last field (the summary schema's), or as it is without one. */
function withDistance({ summary, distance }: SummaryEntry): PropertySummaryRecord {
  return distance === undefined ? summary : { ...summary, distance };
}

/** The great-circle distance of the summary from the search's centre, in the search's unit (none without coordinates). */
function distanceOf(summary: PropertySummaryRecord, centre: SearchCircle): { distance?: number } {
  const { latitude, longitude } = summary.address;
  if (latitude === null || longitude === null) return {};
  const km = distanceKm(centre, { latitude, longitude });
  const distance = centre.unit === 'mi' ? km / KM_PER_MILE : km;
  return { distance: Number(distance.toFixed(DISTANCE_DIGITS)) };
}
