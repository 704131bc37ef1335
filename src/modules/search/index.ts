import { compactGeoCells } from '../../db/dialect/geo-cell-compaction.js';
import type { AppModule, Platform } from '../module.js';
import type { PropertiesServices } from '../properties/index.js';
import type { IndexFeed } from './engine/index-feed.service.js';
import { SearchEngine } from './engine/search-engine.service.js';
import { createSearchIndex } from './engine/search-index.js';
import { searchRoutes } from './search.routes.js';
import { SearchService } from './search.service.js';

export interface SearchServices {
  /** Listing search (docs/api.md 4.4, 4.5): the public lists, the directory's listing pages, saved searches' matches. */
  search: SearchService;
  /** The in-process search index and its position in the change log; undefined with SEARCH_ENGINE=sql. */
  searchIndex: IndexFeed | undefined;
}

/** Listing search: filters, keywords, geo, facets, map clusters; and the geo cell aggregates it reads. */
export function createSearchModule(platform: Platform, { properties }: Pick<PropertiesServices, 'properties'>): AppModule<SearchServices> {
  const { config, database, stamps, log } = platform;
  const index = createSearchIndex(platform);
  const search = new SearchService(
    database.db,
    stamps,
    properties,
    config.listings.defaultCurrency,
    index ? new SearchEngine(database.db, index.feed) : undefined,
  );
  return {
    services: { search, searchIndex: index?.feed },
    routes: async (api) => {
      await api.register(searchRoutes, { search });
    },
    jobs: [
      {
        name: 'geo-cells-compaction',
        intervalMs: config.geoCellsCompactMs,
        run: async () => {
          const folded = await compactGeoCells(database.db);
          if (folded > 0) log.debug({ folded }, 'geo cell changes compacted');
        },
      },
    ],
    // The index follows the change log in every process (engine/index-follower.service.ts), so it is started
    // here rather than scheduled as a job, which would run in one process per period.
    ...(index
      ? {
          gauges: index.gauges,
          isReady: () => index.isReady(),
          prepare: () => index.prepare(),
          start: () => index.start(),
          stop: () => index.stop(),
        }
      : {}),
  };
}

export { boxOfCircle, boxOfPolygon, inBox } from './geo/geo.js';
export type { RadiusCircle } from './geo/geo.js';
export { matchesListing } from './matcher/search-matcher.js';
export type { MatchableListing } from './matcher/search-matcher.js';
export { searchQueryParams, searchQueryString } from './query/search-canonical.js';
export { isPlainListing } from './query/search-plain.js';
export { normalizeSavedSearchQuery, normalizeSearchQuery } from './query/search-query.js';
export { SavedSearchQueryObject, SearchQuery as SearchQueryParams } from './query/search-query.schemas.js';
export type { SEARCH_ALIASES, SavedSearchFields, SearchQueryInput } from './query/search-query.schemas.js';
export { TAXONOMY_OF } from './query/search-terms.js';
export type { ResolvedSearch } from './query/search-terms.js';
export { TAXONOMY_FILTERS } from './query/search-types.js';
export type { GeoPoint, NumberRange, SearchBox, SearchQuery, TaxonomyFilter } from './query/search-types.js';
export { SearchAnswer } from './search.schemas.js';
export type { SearchResult, SearchService } from './search.service.js';
