import { type NumberRange, type SearchQuery, TAXONOMY_FILTERS } from './search-types.js';

/**
 * The canonical form of a search (docs/api.md 12: "A saved search stores canonical parameter names"): what
 * search-query.ts reads back into the same search.
 */

/**
 * The canonical parameters of a search: canonical names only, in one fixed order (that of docs/api.md 4.4), lists
 * joined by commas, numbers in their shortest form, defaults left out. Reading them back gives the same search.
 */
export function searchQueryParams(query: SearchQuery): Record<string, string> {
  const params: Record<string, string> = {};
  const put = (name: string, value: string | number | undefined) => {
    if (value !== undefined) params[name] = String(value);
  };
  const putRange = (range: NumberRange | undefined, minName: string, maxName: string) => {
    put(minName, range?.min);
    put(maxName, range?.max);
  };
  const putCount = (range: NumberRange | undefined, exactName: string, minName: string, maxName: string) => {
    if (range?.min !== undefined && range.min === range.max) put(exactName, range.min);
    else putRange(range, minName, maxName);
  };
  put('keyword', query.keyword);
  for (const name of TAXONOMY_FILTERS) put(name, query.terms?.[name]?.join(','));
  putRange(query.price, 'min_price', 'max_price');
  put('currency', query.currency);
  putRange(query.size, 'min_size', 'max_size');
  putRange(query.land_size, 'min_land_size', 'max_land_size');
  putCount(query.bedrooms, 'bedrooms', 'min_beds', 'max_beds');
  putCount(query.bathrooms, 'bathrooms', 'min_baths', 'max_baths');
  put('garage', query.garage);
  putRange(query.year_built, 'min_year_built', 'max_year_built');
  if (query.featured) put('featured', 'true');
  put('agent_id', query.agent_id);
  put('agency_id', query.agency_id);
  put('user_id', query.user_id);
  put('ids', query.ids?.join(','));
  put('reference', query.reference);
  put('latitude', query.circle?.latitude);
  put('longitude', query.circle?.longitude);
  put('radius', query.circle?.radius);
  if (query.circle?.unit === 'mi') put('radius_unit', 'mi');
  put('ne_lat', query.box?.north);
  put('ne_lng', query.box?.east);
  put('sw_lat', query.box?.south);
  put('sw_lng', query.box?.west);
  put('polygon', query.polygon?.map((vertex) => `${vertex.latitude} ${vertex.longitude}`).join(','));
  if (query.include_sold) put('include_sold', 'true');
  put('sortby', query.sortby);
  put('facets', query.facets?.join(','));
  return params;
}

/**
 * searchQueryParams as a query string (no leading `?`). Commas and spaces stay readable (`type=a,b`,
 * `polygon=1+2,3+4`): a comma inside one parameter's value is never split, and `+` reads back as a space.
 */
export function searchQueryString(query: SearchQuery): string {
  return Object.entries(searchQueryParams(query))
    .map(([name, value]) => `${name}=${encodeURIComponent(value).replace(/%2C/g, ',').replace(/%20/g, '+')}`)
    .join('&');
}
