import type { ListingState } from '../../../db/schema/index.js';
import { keywordMatches, queryTerms } from '../../../lib/search-tokens.js';
import { inBox, inCircle, inPolygon } from '../geo/geo.js';
import type { ResolvedSearch } from '../query/search-terms.js';
import { LOCATION_FILTERS, type NumberRange, TERM_FILTERS } from '../query/search-types.js';

/** The fields of a listing that the filters of docs/api.md 4.4 read, as the database stores them. */
export interface FilteredListingFields {
  id: number;
  price: number | null;
  currency: string;
  size: number | null;
  land_size: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  garage: number | null;
  year_built: number | null;
  featured: boolean;
  author_id: number | null;
  agency_id: number | null;
  reference: string;
  /** The listing's full-text tokens (search_text). */
  search_text: string;
  latitude: number | null;
  longitude: number | null;
}

/**
 * The columns of `listings` that the matcher and the engine's index both read first, in this order (the index
 * reads its rows as arrays by position: engine/index-rows.repository.ts): `status` and the filtered fields up to
 * `search_text`; each adds its coordinate columns after.
 */
export const FILTERED_COLUMNS = [
  'id',
  'status',
  'price',
  'currency',
  'size',
  'land_size',
  'bedrooms',
  'bathrooms',
  'garage',
  'year_built',
  'featured',
  'author_id',
  'agency_id',
  'reference',
  'search_text',
] as const;

/** What the matcher needs to know of a listing (search-matcher.repository.ts loads it). */
export interface MatchableListing extends FilteredListingFields {
  status: ListingState;
  /** The stored unit vector (geo_x, geo_y, geo_z); null without coordinates. */
  geo: readonly [number, number, number] | null;
  term_ids: ReadonlySet<number>;
  agent_ids: readonly number[];
  /** The agencies of the agents the listing names. */
  agent_agency_ids: readonly number[];
}

/**
 * Whether a listing matches a search: the rules of search-filters.repository.ts, in memory (docs/api.md 7: "Matching must agree
 * exactly with what the search endpoint returns"). The parity test checks the two against each other on both
 * databases. Saved-search alerts run it against each newly published listing.
 */
export function matchesListing(listing: MatchableListing, search: ResolvedSearch): boolean {
  const { query, termIds } = search;
  if (!(listing.status === 'publish' || (query.include_sold && listing.status === 'sold'))) return false;
  for (const name of [...TERM_FILTERS, ...LOCATION_FILTERS]) {
    const ids = termIds[name];
    if (ids === undefined) continue;
    if (ids.length === 0) return false;
    const has = (id: number) => listing.term_ids.has(id);
    if (name === 'feature' ? !ids.every(has) : !ids.some(has)) return false;
  }
  // A range without bounds filters nothing, as in SQL (search-filters.repository.ts adds no condition for it).
  const within = (value: number | null, range?: NumberRange) =>
    range === undefined ||
    (range.min === undefined && range.max === undefined) ||
    (value !== null && (range.min === undefined || value >= range.min) && (range.max === undefined || value <= range.max));
  if (!within(listing.price, query.price)) return false;
  if (!within(listing.size, query.size)) return false;
  if (!within(listing.land_size, query.land_size)) return false;
  if (!within(listing.bedrooms, query.bedrooms)) return false;
  if (!within(listing.bathrooms, query.bathrooms)) return false;
  if (!within(listing.year_built, query.year_built)) return false;
  if (query.currency !== undefined && listing.currency !== query.currency) return false;
  if (query.garage !== undefined && !(listing.garage !== null && listing.garage >= query.garage)) return false;
  if (query.featured && !listing.featured) return false;
  if (query.user_id !== undefined && listing.author_id !== query.user_id) return false;
  if (query.ids !== undefined && !query.ids.includes(listing.id)) return false;
  if (query.reference !== undefined && listing.reference !== query.reference) return false;
  if (query.agent_id !== undefined && !listing.agent_ids.includes(query.agent_id)) return false;
  const ofAgency = (agencyId: number) => listing.agency_id === agencyId || listing.agent_agency_ids.includes(agencyId);
  if (query.agency_id !== undefined && !ofAgency(query.agency_id)) return false;
  if (search.scope && !(search.scope.kind === 'agent' ? listing.agent_ids.includes(search.scope.id) : ofAgency(search.scope.id)))
    return false;
  if (query.keyword !== undefined) {
    const terms = queryTerms(query.keyword);
    if (terms.length > 0 && !keywordMatches(listing.search_text, terms)) return false;
  }
  const point =
    listing.latitude !== null && listing.longitude !== null && listing.geo !== null
      ? { latitude: listing.latitude, longitude: listing.longitude, geo: listing.geo }
      : null;
  if (query.circle?.radius !== undefined && !(point && inCircle(point, { ...query.circle, radius: query.circle.radius }))) return false;
  if (query.box !== undefined && !(point && inBox(point, query.box))) return false;
  if (query.polygon !== undefined && !(point && inPolygon(point, query.polygon))) return false;
  return true;
}
