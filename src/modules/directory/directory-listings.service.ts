import { pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import type { ListSort, PropertyListRecord, PropertiesService } from '../properties/index.js';
import { type SearchQueryInput, normalizeSearchQuery, isPlainListing, type SearchService } from '../search/index.js';
import { AnswerCache } from '../../lib/answer-cache.js';

/** Distinct listing pages kept; past this the cache starts over. */
const MAX_CACHED_PAGES = 2000;

/** Whose published listings a page shows (docs/api.md 12). */
export type ListingOwner = { kind: 'agent'; id: number } | { kind: 'agency'; id: number };

/**
 * Pages of an agent's or an agency's published listings (GET /agents/{id}/properties, /agencies/{id}/properties).
 * Without search filters the SQL picks the page's ids and anonymous answers are kept whole under the directory
 * data version (signed-in callers get the same page with their own `is_favorite`); with any filter of docs/api.md
 * 4.4 the page is a search limited to the owner's listings (SearchService).
 */
export class DirectoryListings {
  private readonly pages = new AnswerCache<PropertyListRecord>(MAX_CACHED_PAGES);

  constructor(
    private readonly properties: PropertiesService,
    private readonly search: SearchService,
  ) {}

  /** `version` is the directory data version (DirectoryRecords.version), read before the owner was checked. */
  async page(caller: AuthUser | null, owner: ListingOwner, raw: SearchQueryInput, version: string): Promise<PropertyListRecord> {
    const query = normalizeSearchQuery(raw);
    const window = pageWindow(raw);
    if (!isPlainListing(query)) return this.search.search(caller, await this.search.resolve(query, owner), window);
    const sort: ListSort = query.sortby ?? 'd_date';
    const key = `${owner.kind}:${owner.id}:${sort}:${window.page}:${window.perPage}`;
    let answer = this.pages.get(key, version);
    if (!answer) {
      const page = await this.properties.publishedPageOf(owner, sort, window);
      answer = Object.freeze({ properties: await this.properties.summaries(null, page.ids), pagination: paginationOf(page.total, window) });
      this.pages.set(key, version, answer);
    }
    if (!caller) return answer;
    return {
      ...answer,
      properties: await this.properties.summaries(
        caller,
        answer.properties.map((property) => property.id),
      ),
    };
  }
}
