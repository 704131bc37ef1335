import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import type { PageWindow } from '../../../lib/paging.js';
import { queryTerms } from '../../../lib/search-tokens.js';
import type { FacetCount } from '../facets/facet-counts.js';
import type { MapClusters } from '../geo/geo-cells.repository.js';
import type { ResolvedSearch } from '../query/search-terms.js';
import type { SearchBox, SearchSort } from '../query/search-types.js';
import { mapClusters } from './engine-clusters.js';
import { facetCounts } from './engine-facets.js';
import { type EngineSearch, matchSlots } from './engine-match.js';
import { pageOfMatches } from './engine-page.js';
import { listingsWithReference } from './engine-references.repository.js';
import type { IndexFeed } from './index-feed.service.js';
import { hashText, type ListingIndex } from './listing-index.js';
import type { Posting } from './postings.js';

export interface EnginePage {
  ids: number[];
  total: number;
  facets?: Record<string, FacetCount[]>;
}

/**
 * Listing search answered by the in-process index (docs/search-engine.md): the page, the exact total, the facets
 * and the map clusters of docs/api.md 4.4 and 4.5, the same as the SQL search gives for the same data (the parity
 * test holds them to it). Each answer first awaits the feed's `fresh()`, so this process's own writes are in
 * it; then the whole answer is computed in one synchronous step over one state of the index.
 */
export class SearchEngine {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly feed: IndexFeed,
  ) {}

  async search(search: ResolvedSearch, sort: SearchSort, window: PageWindow, priceCurrency: string): Promise<EnginePage> {
    const engineSearch = await this.prepare(search, sort);
    const index = this.feed.index;
    const matches = matchSlots(index, engineSearch);
    const ids = pageOfMatches(index, matches, engineSearch, sort, window);
    const facets = search.query.facets ? facetCounts(index, engineSearch, search.query.facets, matches, priceCurrency) : undefined;
    return { ids, total: matches.length, ...(facets ? { facets } : {}) };
  }

  async map(search: ResolvedSearch, box: SearchBox, zoom: number): Promise<MapClusters> {
    const engineSearch = await this.prepare(search, undefined);
    return mapClusters(this.feed.index, engineSearch, box, zoom);
  }

  /**
   * The search with the references it names confirmed: the index holds a hash of each reference, and the
   * few listings whose hash matches are checked against the database (by primary key).
   */
  private async prepare(search: ResolvedSearch, sort: SearchSort | undefined): Promise<EngineSearch> {
    await this.feed.fresh();
    const { reference, keyword } = search.query;
    const [referenceIds, keywordReferenceIds] = await Promise.all([
      reference === undefined ? undefined : this.withReference(reference),
      sort === 'relevance' && keyword !== undefined ? this.withReference(keyword, wordsOf(this.feed.index, keyword)) : undefined,
    ]);
    return { search, ...(referenceIds ? { referenceIds } : {}), ...(keywordReferenceIds ? { keywordReferenceIds } : {}) };
  }

  /** The listings whose reference is `text`; `within`: a list that holds them all (the keyword's rarest word). */
  private async withReference(text: string, within?: Posting | null): Promise<Set<number>> {
    if (within === null) return new Set();
    const index = this.feed.index;
    const hash = hashText(text);
    const candidates: number[] = [];
    const test = (slot: number) => {
      if (index.referenceHash[slot] === hash && index.isLive(slot)) candidates.push(index.ids[slot]!);
    };
    if (within) within.each(test);
    else for (let slot = 0; slot < index.slotCount; slot++) test(slot);
    return listingsWithReference(this.db, candidates, text);
  }
}

/**
 * The shortest list of a word of the keyword: a listing's reference is among its words (lib/search-tokens.ts),
 * so a listing whose reference is the keyword holds them all. Null when a word is in no listing; undefined
 * when the keyword has no words (every listing is a candidate).
 */
function wordsOf(index: ListingIndex, keyword: string): Posting | null | undefined {
  let shortest: Posting | undefined;
  for (const word of queryTerms(keyword)) {
    const posting = index.wordPostings.get(word);
    if (!posting) return null;
    if (!shortest || posting.length < shortest.length) shortest = posting;
  }
  return shortest;
}
