import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { type PageWindow, pageWindow, paginationOf } from '../../http/pagination.js';
import type { AuthUser } from '../../http/request-context.js';
import type { ListSort, PropertyListRecord } from '../properties/properties.schemas.js';
import type { PropertiesService } from '../properties/properties.service.js';
import { AnswerCache } from './answer-cache.js';
import { findAgencyListingPage, findAgentListingPage, type IdPage } from './directory-pages.js';
import type { DirectoryPropertiesInput } from './directory.schemas.js';

/** Distinct listing pages kept; past this the cache starts over. */
const MAX_CACHED_PAGES = 2000;

/** Whose published listings a page shows (API.md 12). */
export type ListingOwner = { kind: 'agent'; id: number } | { kind: 'agency'; id: number };

const FIND_PAGE: Record<ListingOwner['kind'], (db: Kysely<DB>, id: number, sort: ListSort, window: PageWindow) => Promise<IdPage>> = {
  agent: findAgentListingPage,
  agency: findAgencyListingPage,
};

/**
 * Pages of an agent's or an agency's published listings (GET /agents/{id}/properties, /agencies/{id}/properties).
 * The SQL picks the page's ids; the summaries come from PropertiesService, built in a fixed number of queries
 * and cached. Anonymous answers are kept whole under the directory data version; signed-in callers get the
 * same page with their own `is_favorite`.
 */
export class DirectoryListings {
  private readonly pages = new AnswerCache<PropertyListRecord>(MAX_CACHED_PAGES);

  constructor(
    private readonly db: Kysely<DB>,
    private readonly properties: PropertiesService,
  ) {}

  /** `version` is the directory data version (DirectoryRecords.version), read before the owner was checked. */
  async page(caller: AuthUser | null, owner: ListingOwner, query: DirectoryPropertiesInput, version: string): Promise<PropertyListRecord> {
    const window = pageWindow(query);
    const sort: ListSort = query.sortby ?? 'd_date';
    const key = `${owner.kind}:${owner.id}:${sort}:${window.page}:${window.perPage}`;
    let answer = this.pages.get(key, version);
    if (!answer) {
      const page = await FIND_PAGE[owner.kind](this.db, owner.id, sort, window);
      answer = Object.freeze({ properties: await this.properties.summaries(null, page.ids), pagination: paginationOf(page.total, window) });
      this.pages.set(key, version, answer);
    }
    if (!caller) return answer;
    return { ...answer, properties: await this.properties.summaries(caller, answer.properties.map((property) => property.id)) };
  }
}
