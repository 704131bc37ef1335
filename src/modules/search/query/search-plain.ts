import type { ListSort } from '../../properties/index.js';
import type { SearchQuery } from './search-types.js';

/** The orders the plain published list (PropertiesService.listPublished) serves from its page cache. */
const PLAIN_SORTS: ReadonlySet<string> = new Set<ListSort>([
  'd_date',
  'a_date',
  'a_price',
  'd_price',
  'a_title',
  'd_title',
  'a_size',
  'd_size',
  'featured_first',
]);

/** A search with no filter and no facets, in one of the list orders: every published listing, one page. */
export function isPlainListing(query: SearchQuery): query is SearchQuery & { sortby?: ListSort } {
  const { sortby, ...rest } = query;
  return Object.keys(rest).length === 0 && (sortby === undefined || PLAIN_SORTS.has(sortby));
}
