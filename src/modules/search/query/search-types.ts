/**
 * The canonical search (docs/api.md 4.4): what a query string means once aliases are resolved, lists split and
 * values checked. Saved searches store it (section 7), the SQL builder and the in-memory matcher read it.
 * Absent fields do not filter.
 */

export const TERM_FILTERS = ['type', 'status', 'label', 'feature'] as const;
export const LOCATION_FILTERS = ['country', 'state', 'city', 'area'] as const;
type TermFilter = (typeof TERM_FILTERS)[number];
type LocationFilter = (typeof LOCATION_FILTERS)[number];
/** Every parameter naming terms, by slug or id. */
export type TaxonomyFilter = TermFilter | LocationFilter;
export const TAXONOMY_FILTERS: readonly TaxonomyFilter[] = [...TERM_FILTERS, ...LOCATION_FILTERS];

export const SEARCH_SORTS = [
  'd_date',
  'a_date',
  'a_price',
  'd_price',
  'a_title',
  'd_title',
  'a_size',
  'd_size',
  'featured_first',
  'distance',
  'relevance',
] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const FACET_NAMES = [
  'type',
  'status',
  'label',
  'feature',
  'country',
  'state',
  'city',
  'area',
  'bedrooms',
  'bathrooms',
  'price',
  'currency',
] as const;
export type FacetName = (typeof FACET_NAMES)[number];

export type RadiusUnit = 'km' | 'mi';

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/**
 * `latitude`/`longitude` (+ `radius`, `radius_unit`). Without `radius` the point filters nothing: it is only the
 * centre of `sortby=distance` and of each result's `distance`.
 */
export interface SearchCircle extends GeoPoint {
  /** In `unit`; absent: no distance limit. */
  radius?: number;
  unit: RadiusUnit;
}

/** `sw` to `ne`; a box whose west edge is east of its east edge crosses the antimeridian. */
export interface SearchBox {
  north: number;
  south: number;
  east: number;
  west: number;
}

export interface NumberRange {
  min?: number;
  max?: number;
}

/** The filters of docs/api.md 4.4 (everything but sorting, facets and paging). Ranges are inclusive. */
export interface SearchFilters {
  keyword?: string;
  /** Term slugs, or ids written as digits; any of them, except `feature`: all of them. */
  terms?: Partial<Record<TaxonomyFilter, string[]>>;
  price?: NumberRange;
  /** ISO 4217, upper case. */
  currency?: string;
  size?: NumberRange;
  land_size?: NumberRange;
  /** `bedrooms=N` is the range N..N; `min_beds`/`max_beds` its bounds. */
  bedrooms?: NumberRange;
  bathrooms?: NumberRange;
  /** At least this many. */
  garage?: number;
  year_built?: NumberRange;
  /** `true`: only featured (`featured=false` filters nothing). */
  featured?: true;
  agent_id?: number;
  agency_id?: number;
  user_id?: number;
  /** At most 100, unique, ascending. */
  ids?: number[];
  reference?: string;
  /** Listings within this great-circle distance; also the centre of `sortby=distance`. */
  circle?: SearchCircle;
  box?: SearchBox;
  /** 3..100 vertices, in order (closing back to the first is implied). */
  polygon?: GeoPoint[];
  /** `true`: `sold` listings match too (default: only `publish`). */
  include_sold?: true;
}

export interface SearchQuery extends SearchFilters {
  /** Default `relevance` with a keyword, else `d_date`. */
  sortby?: SearchSort;
  facets?: FacetName[];
}
