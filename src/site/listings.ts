import { pageWindow } from '../lib/paging.js';
import type { AuthUser } from '../lib/signed-in-user.js';
import { normalizeSearchQuery, type SearchQueryInput, type SearchResult } from '../modules/search/index.js';
import type { SiteServices } from './site-services.js';

/**
 * A search as GET /properties/search answers it (docs/api.md 4.4): the same parameters, normalized and refused
 * by the same rules, and the same results for the same data.
 */
export async function searchListings(
  services: Pick<SiteServices, 'search'>,
  caller: AuthUser | null,
  raw: SearchQueryInput,
): Promise<SearchResult> {
  const resolved = await services.search.resolve(normalizeSearchQuery(raw));
  return services.search.search(caller, resolved, pageWindow(raw));
}
