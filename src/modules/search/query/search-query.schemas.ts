// The search parameters of docs/api.md 4.4 as query-string schemas. Every value arrives as text (http/querystring.ts
// joins repeated parameters with commas), so Ajv coerces the scalars (`min_price=5` → 5, `featured=true` → true)
// and the lists stay strings, split and checked value by value in search-query.ts, which also applies the rules
// that span several parameters.
import { type Static, type TOptional, type TSchema, type TSchemaOptions, Type } from 'typebox';
import { PageQueryFields } from '../../../lib/paging.js';
import { FACET_NAMES, SEARCH_SORTS } from './search-types.js';

/** docs/api.md 0.6. */
export const MAX_LIST_ITEMS = 50;
export const MAX_IDS = 100;
export const MIN_POLYGON_VERTICES = 3;
export const MAX_POLYGON_VERTICES = 100;
/** Just under half the Earth's circumference (about 20,015 km), the farthest two places can be apart. */
const MAX_RADIUS_KM = 20_000;
/** MAX_RADIUS_KM in miles (1 mi = 1.609344 km), rounded down to two decimals. */
export const MAX_RADIUS_MI = Math.floor((MAX_RADIUS_KM / 1.609344) * 100) / 100;
/** Ids are 32-bit on PostgreSQL; a larger number is a client error, not a driver error. */
export const MAX_ID = 2_147_483_647;

/** Houzez-style aliases (docs/api.md 4.4) → the parameter each one stands for. */
export const SEARCH_ALIASES = {
  paged: 'page',
  'min-price': 'min_price',
  'max-price': 'max_price',
  'min-area': 'min_size',
  'max-area': 'max_size',
  'min-beds': 'min_beds',
  'max-beds': 'max_beds',
  'min-baths': 'min_baths',
  'max-baths': 'max_baths',
  lat: 'latitude',
  lng: 'longitude',
  location: 'city',
  areas: 'area',
  states: 'state',
} as const;

// The same bounds as a listing's own values (properties.schemas.ts), so that every stored value can be searched for.
const Money = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 1e13, description }));
const Area = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 1e10, description }));
const Count = (description: string) => Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description }));
const Year = (description: string) => Type.Optional(Type.Integer({ minimum: 1000, maximum: 9999, description }));
const Id = (description: string) => Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description }));
const Latitude = (description: string) => Type.Optional(Type.Number({ minimum: -90, maximum: 90, description }));
const Longitude = (description: string) => Type.Optional(Type.Number({ minimum: -180, maximum: 180, description }));
const Flag = (description: string) => Type.Optional(Type.Boolean({ description }));

const LIST_FORMS = '`a,b` or repeated (`x[]=a&x[]=b`, `x=a&x=b`); blanks and repeats are dropped';
/** 50 values of up to 200 characters and their commas; each value is checked in search-query.ts. */
const TermList = (what: string) =>
  Type.Optional(
    Type.String({
      maxLength: 10_200,
      description: `${what}: term slugs or ids, ${LIST_FORMS}; at most ${MAX_LIST_ITEMS}. Any of them matches`,
    }),
  );
const alias = (of: string) => `Alias of \`${of}\``;

/** Every filter of docs/api.md 4.4 and its alias (not sorting, facets or paging): spread into a querystring schema. */
const SearchFilterFields = {
  keyword: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Full text over title, description, address and reference, with stemming; an exact `reference` match ranks ' +
        'first. Trimmed; blank is no filter',
    }),
  ),
  type: TermList('Property types'),
  status: TermList('Property statuses'),
  label: TermList('Labels'),
  feature: Type.Optional(
    Type.String({
      maxLength: 10_200,
      description: `Features: term slugs or ids, ${LIST_FORMS}; at most ${MAX_LIST_ITEMS}. A listing needs all of them`,
    }),
  ),
  country: TermList('Countries'),
  state: TermList('States'),
  states: TermList(alias('state')),
  city: TermList('Cities'),
  location: TermList(alias('city')),
  area: TermList('Areas (neighbourhoods)'),
  areas: TermList(alias('area')),
  min_price: Money('Lowest price, inclusive, in the listing’s own currency (no conversion)'),
  'min-price': Money(alias('min_price')),
  max_price: Money('Highest price, inclusive'),
  'max-price': Money(alias('max_price')),
  currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code, any case: only listings priced in it' })),
  min_size: Area('Smallest size, inclusive'),
  'min-area': Area(alias('min_size')),
  max_size: Area('Largest size, inclusive'),
  'max-area': Area(alias('max_size')),
  min_land_size: Area('Smallest land size, inclusive'),
  max_land_size: Area('Largest land size, inclusive'),
  bedrooms: Count('Exactly this many bedrooms (not with `min_beds`/`max_beds`)'),
  min_beds: Count('At least this many bedrooms'),
  'min-beds': Count(alias('min_beds')),
  max_beds: Count('At most this many bedrooms'),
  'max-beds': Count(alias('max_beds')),
  bathrooms: Count('Exactly this many bathrooms (not with `min_baths`/`max_baths`)'),
  min_baths: Count('At least this many bathrooms'),
  'min-baths': Count(alias('min_baths')),
  max_baths: Count('At most this many bathrooms'),
  'max-baths': Count(alias('max_baths')),
  garage: Count('At least this many garage places'),
  min_year_built: Year('Built in or after this year'),
  max_year_built: Year('Built in or before this year'),
  featured: Flag('`true`: only featured listings; `false` filters nothing'),
  agent_id: Id('Only listings naming this agent'),
  agency_id: Id('Only listings of this agency'),
  user_id: Id('Only listings created by this user'),
  ids: Type.Optional(
    Type.String({
      maxLength: 2_000,
      description: `Only these listing ids, ${LIST_FORMS}; at most ${MAX_IDS}`,
    }),
  ),
  reference: Type.Optional(Type.String({ maxLength: 200, description: 'Exact reference. Trimmed; blank is no filter' })),
  latitude: Latitude(
    'Centre of the search, with `longitude`: listings within `radius` of it, and the origin of `sortby=distance` ' +
      'and of each result’s `distance`',
  ),
  lat: Latitude(alias('latitude')),
  longitude: Longitude('Centre of the search, with `latitude`'),
  lng: Longitude(alias('longitude')),
  radius: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_RADIUS_KM,
      description:
        `Great-circle distance from the centre (needs \`latitude\` and \`longitude\`), more than 0 and at most ` +
        `${MAX_RADIUS_KM} km (${MAX_RADIUS_MI} mi)`,
    }),
  ),
  radius_unit: Type.Optional(Type.Enum(['km', 'mi'], { description: 'Unit of `radius` (needs it) and of `distance`; default km' })),
  ne_lat: Latitude('North edge of a bounding box; the box needs all four corners'),
  ne_lng: Longitude('East edge of the bounding box; may be west of `sw_lng` for a box crossing the antimeridian'),
  sw_lat: Latitude('South edge of the bounding box; at most `ne_lat`'),
  sw_lng: Longitude('West edge of the bounding box'),
  polygon: Type.Optional(
    Type.String({
      maxLength: 10_000,
      description:
        `\`lat lng,lat lng,...\`: ${MIN_POLYGON_VERTICES} to ${MAX_POLYGON_VERTICES} vertices in order (the ring ` +
        'closes by itself; a last vertex repeating the first is dropped): listings inside the polygon',
    }),
  ),
  include_sold: Flag('`true`: sold listings match too (default: only published ones); `false` is the default'),
};

/** Every parameter of docs/api.md 4.4 but paging: spread into a querystring schema. */
const SearchQueryFields = {
  ...SearchFilterFields,
  sortby: Type.Optional(
    Type.Enum([...SEARCH_SORTS], {
      description:
        'Default `relevance` with a keyword, else `d_date`. `distance` needs `latitude` and `longitude`; ' +
        '`relevance` needs `keyword`. Ties by id, descending',
    }),
  ),
  facets: Type.Optional(
    Type.String({
      maxLength: 1_000,
      description: `Counts to return beside the results: any of ${FACET_NAMES.join(', ')}; ${LIST_FORMS}`,
    }),
  ),
};

/** GET /properties/search and the other listing searches (docs/api.md 4.4). */
export const SearchQuery = Type.Object({ ...PageQueryFields, ...SearchQueryFields }, { additionalProperties: false });
export type SearchQueryInput = Static<typeof SearchQuery>;

/** GET /properties/search/map (docs/api.md 4.5): every filter, a required box and the zoom; no sorting, facets or paging. */
export const MapQuery = Type.Object(
  {
    ...SearchFilterFields,
    ne_lat: Type.Number({ minimum: -90, maximum: 90, description: 'North edge of the map' }),
    ne_lng: Type.Number({ minimum: -180, maximum: 180, description: 'East edge; west of `sw_lng` when the map crosses the antimeridian' }),
    sw_lat: Type.Number({ minimum: -90, maximum: 90, description: 'South edge of the map; at most `ne_lat`' }),
    sw_lng: Type.Number({ minimum: -180, maximum: 180, description: 'West edge of the map' }),
    zoom: Type.Integer({ minimum: 0, maximum: 22, description: 'The map’s zoom level: the larger, the smaller the clusters' }),
  },
  { additionalProperties: false },
);
export type MapQueryInput = Static<typeof MapQuery>;

/** What a saved search may hold (docs/api.md 7): every filter and `sortby`; paging and facets belong to one request. */
export const SavedSearchFields = { ...SearchFilterFields, sortby: SearchQueryFields.sortby };
export const SavedSearchParams = Type.Object(SavedSearchFields, { additionalProperties: false });
export type SavedSearchParamsInput = Static<typeof SavedSearchParams>;

/**
 * A saved search's `query` as a JSON object (docs/api.md 7): the parameter names of a query string (aliases too), and
 * values as a query string would give them, or typed: `"min_price": 100000`, `"featured": true`,
 * `"type": ["apartment", "villa"]` or `"type": "apartment,villa"`. Each value is then read as its text would be
 * (search-query.ts), so both forms follow the same rules.
 */
const SavedValue = Type.Union([
  Type.String({ maxLength: 10_200 }),
  Type.Number(),
  Type.Boolean(),
  Type.Array(Type.Union([Type.String({ maxLength: 200 }), Type.Number()]), { maxItems: MAX_IDS }),
]);

function savedQueryObject<Name extends string>(fields: Record<Name, TSchema>) {
  const properties = Object.fromEntries(
    Object.entries<TSchema>(fields).map(([name, field]) => {
      const { description } = field as TSchemaOptions;
      return [name, Type.Optional({ ...SavedValue, ...(description ? { description } : {}) })];
    }),
  ) as Record<Name, TOptional<typeof SavedValue>>;
  return Type.Object(properties, {
    additionalProperties: false,
    description: 'Search parameters of GET /properties/search (not paging or facets), as text or typed values',
  });
}

export const SavedSearchQueryObject = savedQueryObject(SavedSearchFields);
export type SavedSearchQueryObjectInput = Static<typeof SavedSearchQueryObject>;
