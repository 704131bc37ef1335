/**
 * The pure parts of Explore: the filter state and its URL form (shareable, reloadable), the API queries it
 * makes (docs/api.md 4.4 and 4.5), facet selections, and the map's bounding box.
 */
import type { AnswerData, operations } from '@realty-api/client';

/** Orders of GET /properties/search (docs/api.md 4.4); `relevance` needs a keyword. */
export const SORTS = [
  'relevance',
  'd_date',
  'a_date',
  'a_price',
  'd_price',
  'a_title',
  'd_title',
  'a_size',
  'd_size',
  'featured_first',
] as const;
export type Sort = (typeof SORTS)[number];

/** The facets Explore shows, in the order of its filter panel. */
export const FACETS = ['type', 'status', 'city', 'bedrooms', 'currency', 'price'] as const;
export type FacetName = (typeof FACETS)[number];

/** One count of a facet as the search answers it; `value` is a slug, a number of rooms, a currency code or a price range. */
export type FacetCount = NonNullable<AnswerData<'/realty-api/v1/properties/search', 'get'>['facets']>[string][number];

/**
 * A range of the price facet (docs/api.md 4.4): prices of one currency and of one status (for sale, for rent,
 * …), never a mix.
 */
export type PriceBucket = Extract<FacetCount['value'], object>;

/** The price filter, from a facet range or typed: either end may be open. Its currency is the state's. */
interface PriceFilter {
  min: number | null;
  max: number | null;
}

export interface MapView {
  lat: number;
  lng: number;
  zoom: number;
}

export interface ExploreState {
  keyword: string;
  types: string[];
  statuses: string[];
  cities: string[];
  bedrooms: number | null;
  /** Only listings priced in it ('' any); the price facet's ranges are in it (else the site's currency). */
  currency: string;
  price: PriceFilter | null;
  /** '' is the API's default order (relevance with a keyword, else newest). */
  sort: Sort | '';
  page: number;
  /** Where the map looks; null: fitted to the results. */
  view: MapView | null;
  /** Whether the list shows only the listings inside the map's box. */
  inView: boolean;
}

export const EMPTY_STATE: ExploreState = {
  keyword: '',
  types: [],
  statuses: [],
  cities: [],
  bedrooms: null,
  currency: '',
  price: null,
  sort: '',
  page: 1,
  view: null,
  inView: false,
};

/** Query parameter names of the console's own URL (short, readable when shared). */
const KEYS = {
  keyword: 'q',
  types: 'type',
  statuses: 'status',
  cities: 'city',
  bedrooms: 'beds',
  currency: 'cur',
  price: 'price',
  sort: 'sort',
  page: 'page',
  view: 'map',
  inView: 'in_view',
} as const;

const SLUG = /^[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*$/u;
const NUMBER = '(\\d{1,15}(?:\\.\\d{1,6})?)';
const PRICE = new RegExp(`^${NUMBER}?-${NUMBER}?$`);
const CURRENCY = /^[A-Za-z]{3}$/;
const VIEW = /^(\d{1,2})\/(-?\d{1,2}(?:\.\d{1,8})?)\/(-?\d{1,3}(?:\.\d{1,8})?)$/;
const MAX_KEYWORD = 200;
const MAX_VALUES = 50;

/** Slugs from a comma list: well-formed ones only, each once, in order. */
function slugList(raw: string | null): string[] {
  if (!raw) return [];
  const seen = new Set<string>();
  for (const part of raw.split(',')) {
    const value = part.trim();
    if (SLUG.test(value) && seen.size < MAX_VALUES) seen.add(value);
  }
  return [...seen];
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** A map view rounded as the URL keeps it: whole zoom levels, coordinates to 5 decimals (about a metre). */
export function normalizeView(view: MapView): MapView {
  return {
    zoom: Math.min(22, Math.max(0, Math.round(view.zoom))),
    lat: roundTo(Math.min(85, Math.max(-85, view.lat)), 5) || 0,
    lng: roundTo(wrapLongitude(view.lng), 5) || 0,
  };
}

/** The state a URL's query string describes; anything malformed is left out, never an error. */
export function parseState(params: URLSearchParams): ExploreState {
  const keyword = (params.get(KEYS.keyword) ?? '').trim().slice(0, MAX_KEYWORD);
  const bedsText = params.get(KEYS.bedrooms) ?? '';
  const beds = /^\d{1,2}$/.test(bedsText) ? Number(bedsText) : null;
  const price = priceFilterOf(params.get(KEYS.price) ?? '');
  const currencyText = params.get(KEYS.currency) ?? '';
  const sortText = params.get(KEYS.sort) ?? '';
  const sort = (SORTS as readonly string[]).includes(sortText) ? (sortText as Sort) : '';
  const pageText = params.get(KEYS.page) ?? '';
  const page = /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : 1;
  const viewMatch = VIEW.exec(params.get(KEYS.view) ?? '');
  const view = viewMatch ? normalizeView({ zoom: Number(viewMatch[1]), lat: Number(viewMatch[2]), lng: Number(viewMatch[3]) }) : null;
  return {
    keyword,
    types: slugList(params.get(KEYS.types)),
    statuses: slugList(params.get(KEYS.statuses)),
    cities: slugList(params.get(KEYS.cities)),
    bedrooms: beds,
    currency: CURRENCY.test(currencyText) ? currencyText.toUpperCase() : '',
    price,
    sort: sort === 'relevance' && !keyword ? '' : sort,
    page,
    view,
    inView: params.get(KEYS.inView) === '1',
  };
}

/** `100-200`, `100-` or `-200`: the price filter of the URL; null when malformed, empty or inverted. */
function priceFilterOf(text: string): PriceFilter | null {
  const match = PRICE.exec(text);
  if (!match || (match[1] === undefined && match[2] === undefined)) return null;
  const [min, max] = [match[1] === undefined ? null : Number(match[1]), match[2] === undefined ? null : Number(match[2])];
  return min !== null && max !== null && min > max ? null : { min, max };
}

/** The query string of a state: defaults are left out, so the plain page is plain `/explore`. */
export function serializeState(state: ExploreState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.keyword) params.set(KEYS.keyword, state.keyword);
  if (state.types.length) params.set(KEYS.types, state.types.join(','));
  if (state.statuses.length) params.set(KEYS.statuses, state.statuses.join(','));
  if (state.cities.length) params.set(KEYS.cities, state.cities.join(','));
  if (state.bedrooms !== null) params.set(KEYS.bedrooms, String(state.bedrooms));
  if (state.currency) params.set(KEYS.currency, state.currency);
  if (state.price) params.set(KEYS.price, `${state.price.min ?? ''}-${state.price.max ?? ''}`);
  if (state.sort) params.set(KEYS.sort, state.sort);
  if (state.page > 1) params.set(KEYS.page, String(state.page));
  if (state.view) {
    const view = normalizeView(state.view);
    params.set(KEYS.view, `${view.zoom}/${view.lat}/${view.lng}`);
  }
  if (state.inView) params.set(KEYS.inView, '1');
  return params;
}

/**
 * The query string of a state as the address bar shows it: `?type=villa,condo&map=5/25.76/-80.19`, with the
 * commas and slashes of its lists and map view left readable (URLSearchParams would write %2C and %2F).
 */
export function stateSearch(state: ExploreState): string {
  const parts = [...serializeState(state)].map(
    ([key, value]) => `${key}=${encodeURIComponent(value).replace(/%2C/gi, ',').replace(/%2F/gi, '/')}`,
  );
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Whether any filter (not the page, order or map view) is set: "Clear filters" has something to do. */
export function hasFilters(state: ExploreState): boolean {
  return (
    state.keyword !== '' ||
    state.types.length > 0 ||
    state.statuses.length > 0 ||
    state.cities.length > 0 ||
    state.bedrooms !== null ||
    state.currency !== '' ||
    state.price !== null
  );
}

/** The state without filters, keeping the map view, the order (unless it needed the keyword) and the list mode. */
export function clearFilters(state: ExploreState): ExploreState {
  return { ...EMPTY_STATE, view: state.view, inView: state.inView, sort: state.sort === 'relevance' ? '' : state.sort };
}

export type Query = Record<string, string | number>;

/** The filters of docs/api.md 4.4 that the state sets: shared by the list, the facets and the map. */
export function filterQuery(state: ExploreState): Query {
  const query: Query = {};
  if (state.keyword) query.keyword = state.keyword;
  if (state.types.length) query.type = state.types.join(',');
  if (state.statuses.length) query.status = state.statuses.join(',');
  if (state.cities.length) query.city = state.cities.join(',');
  if (state.bedrooms !== null) query.bedrooms = state.bedrooms;
  if (state.currency) query.currency = state.currency;
  if (state.price?.min != null) query.min_price = state.price.min;
  if (state.price?.max != null) query.max_price = state.price.max;
  return query;
}

/** GET /properties/search: the filters, the order, a page, the facets, and the map's box when the list follows it. */
export function listQuery(state: ExploreState, perPage: number, box: BoundingBox | null): Query {
  const query: Query = { ...filterQuery(state), page: state.page, per_page: perPage, facets: FACETS.join(',') };
  if (state.sort && (state.sort !== 'relevance' || state.keyword)) query.sortby = state.sort;
  if (state.inView && box) Object.assign(query, box);
  return query;
}

/** GET /properties/search/map: the same filters inside the box, at the map's zoom. */
export function clusterQuery(state: ExploreState, box: BoundingBox, zoom: number): Query {
  return { ...filterQuery(state), ...box, zoom: apiZoom(zoom) };
}

/** The API's zoom parameter: a whole number 0–22. */
function apiZoom(zoom: number): number {
  return Number.isFinite(zoom) ? Math.min(22, Math.max(0, Math.round(zoom))) : 0;
}

// ----- facets -----

export type Facets = Partial<Record<FacetName, FacetCount[]>>;

function samePrice(filter: PriceFilter | null, value: unknown): boolean {
  return !!filter && isPriceBucket(value) && value.min === filter.min && value.max === filter.max;
}

export function isPriceBucket(value: unknown): value is PriceBucket {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PriceBucket).min === 'number' &&
    typeof (value as PriceBucket).max === 'number'
  );
}

const LISTS = { type: 'types', status: 'statuses', city: 'cities' } as const;

/** Whether the facet value is part of the state's filters. */
export function isSelected(state: ExploreState, facet: FacetName, value: FacetCount['value']): boolean {
  switch (facet) {
    case 'type':
    case 'status':
    case 'city':
      return typeof value === 'string' && state[LISTS[facet]].includes(value);
    case 'bedrooms':
      return state.bedrooms !== null && value === state.bedrooms;
    case 'currency':
      return value === state.currency;
    case 'price':
      return samePrice(state.price, value);
  }
}

/**
 * The state after ticking (or unticking) a facet value: types, statuses and cities are "any of" lists, bedrooms
 * and price one choice each (`null` value: any). Back to the first page, since the results change.
 */
export function selectFacet(state: ExploreState, facet: FacetName, value: FacetCount['value'] | null, on: boolean): ExploreState {
  const next = { ...state, page: 1 };
  switch (facet) {
    case 'type':
    case 'status':
    case 'city': {
      const key = LISTS[facet];
      const rest = state[key].filter((item) => item !== value);
      next[key] = on && typeof value === 'string' ? [...rest, value] : rest;
      return next;
    }
    case 'bedrooms':
      next.bedrooms = on && typeof value === 'number' ? value : null;
      return next;
    case 'currency':
      // A price filter is a number of the currency it was set in: another currency's is meaningless.
      next.currency = on && typeof value === 'string' ? value : '';
      next.price = null;
      return next;
    case 'price':
      if (!on || !isPriceBucket(value)) return { ...next, price: null };
      next.price = { min: value.min, max: value.max };
      next.currency = value.currency;
      // The range counts one market's listings (for sale, for rent): choosing it chooses that market too.
      if (value.status && state.statuses.length === 0) next.statuses = [value.status];
      return next;
  }
}

/** The state with a typed price filter (either end open; both empty: none) in `currency`, back on the first page. */
export function filterPrice(state: ExploreState, min: number | null, max: number | null, currency: string): ExploreState {
  const price = min === null && max === null ? null : min !== null && max !== null && min > max ? { min: max, max: min } : { min, max };
  return { ...state, page: 1, price, currency: price ? currency : state.currency };
}

/**
 * The options a facet offers: the answer's counts, plus each selected value the answer left out (zero counts
 * are omitted), so that a selection can always be undone. Price ranges and bedrooms in ascending order.
 */
export function facetOptions(state: ExploreState, facet: FacetName, counts: readonly FacetCount[] | undefined): FacetCount[] {
  const options = [...(counts ?? [])];
  const missing: FacetCount[] = [];
  switch (facet) {
    case 'type':
    case 'status':
    case 'city':
      for (const slug of state[LISTS[facet]]) {
        if (!options.some((option) => option.value === slug)) missing.push({ value: slug, name: slug, count: 0 });
      }
      break;
    case 'bedrooms':
      if (state.bedrooms !== null && !options.some((option) => option.value === state.bedrooms)) {
        missing.push({ value: state.bedrooms, name: String(state.bedrooms), count: 0 });
      }
      break;
    case 'currency':
      if (state.currency && !options.some((option) => option.value === state.currency)) {
        missing.push({ value: state.currency, name: state.currency, count: 0 });
      }
      break;
    case 'price': {
      // A typed filter with an open end is no range of the facet: the min/max inputs show it instead.
      const { price } = state;
      if (price && price.min !== null && price.max !== null && !options.some((option) => samePrice(price, option.value))) {
        const range = { min: price.min, max: price.max, currency: state.currency, status: null };
        missing.push({ value: range, name: `${price.min}–${price.max}`, count: 0 });
      }
      break;
    }
  }
  const all = [...options, ...missing];
  if (facet === 'bedrooms') all.sort((a, b) => Number(a.value) - Number(b.value));
  if (facet === 'price') all.sort((a, b) => (a.value as PriceBucket).min - (b.value as PriceBucket).min);
  return all;
}

/** A stable key for a facet value (React keys, input values). */
export function facetKey(value: FacetCount['value']): string {
  return isPriceBucket(value) ? `${value.min}-${value.max}` : String(value);
}

// ----- the map's box -----

/** docs/api.md 4.5: the box of a map search; `ne_lng` < `sw_lng` when it crosses the antimeridian. */
export type BoundingBox = Pick<operations['getPropertiesSearchMap']['parameters']['query'], 'ne_lat' | 'ne_lng' | 'sw_lat' | 'sw_lng'>;

/** A longitude in [-180, 180). */
export function wrapLongitude(lng: number): number {
  const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
  return Object.is(wrapped, -0) ? 0 : wrapped;
}

const clampLat = (lat: number) => Math.min(90, Math.max(-90, lat));
/** `value` rounded to 5 decimals away from the box's inside (never inwards, whatever the binary noise). */
function outward(value: number, direction: 'up' | 'down'): number {
  const round = direction === 'up' ? Math.ceil : Math.floor;
  const holds = (candidate: number) => (direction === 'up' ? candidate >= value : candidate <= value);
  for (const candidate of [round(roundTo(value * 1e5, 6)) / 1e5, round(value * 1e5) / 1e5]) {
    if (holds(candidate)) return candidate || 0;
  }
  return value;
}

/**
 * The API box of a map's bounds (Leaflet's, whose longitudes run past ±180 once the map is panned across
 * the antimeridian): latitudes clamped, longitudes wrapped into [-180, 180], the whole world when the view
 * is 360° wide or more, and `ne_lng < sw_lng` for a view across the antimeridian. Rounded outwards to 5
 * decimals, so that a listing on the edge of the view is still inside.
 */
export function boxFromBounds(bounds: { south: number; west: number; north: number; east: number }): BoundingBox {
  const south = clampLat(outward(Math.min(bounds.south, bounds.north), 'down'));
  const north = clampLat(outward(Math.max(bounds.south, bounds.north), 'up'));
  const west = outward(bounds.west, 'down');
  const east = outward(bounds.east, 'up');
  if (!(east - west < 360)) return { ne_lat: north, ne_lng: 180, sw_lat: south, sw_lng: -180 };
  const swLng = wrapLongitude(west);
  let neLng = wrapLongitude(east);
  // The view's east edge on the antimeridian itself: 180, not -180 (which would say "across it").
  if (neLng === -180 && east > west) neLng = 180;
  return { ne_lat: north, ne_lng: roundTo(neLng, 5), sw_lat: south, sw_lng: roundTo(swLng, 5) };
}

/** Whether a point lies in the box (across the antimeridian too): what the API's box filter matches. */
export function boxContains(box: BoundingBox, lat: number, lng: number): boolean {
  if (lat < box.sw_lat || lat > box.ne_lat) return false;
  const x = wrapLongitude(lng) === -180 && lng > 0 ? 180 : wrapLongitude(lng);
  return box.sw_lng <= box.ne_lng ? x >= box.sw_lng && x <= box.ne_lng : x >= box.sw_lng || x <= box.ne_lng;
}

/**
 * The longitude at which to draw a point on a map centred on `centerLng`: the copy of the point (±360°)
 * nearest the centre, so that markers appear on the side of the antimeridian the user is looking at.
 */
export function placeLongitude(lng: number, centerLng: number): number {
  return centerLng + wrapLongitude(lng - centerLng);
}
