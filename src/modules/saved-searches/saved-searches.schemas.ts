import { type Static, type TSchema, Type } from 'typebox';
import type { SavedSearchFrequency } from '../../db/schema/index.js';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../lib/paging.js';
import { SavedSearchQueryObject, type SavedSearchFields, type SEARCH_ALIASES } from '../search/index.js';

const INT4_MAX = 2_147_483_647;
/** docs/api.md 0.6: names are at most 200 characters. */
export const MAX_NAME_LENGTH = 200;

const SAVED_SEARCH_FREQUENCIES = ['instant', 'daily', 'weekly'] as const satisfies readonly SavedSearchFrequency[];

/** The canonical search parameters a saved search stores (aliases are converted to these). */
export type CanonicalParam = Exclude<keyof typeof SavedSearchFields, keyof typeof SEARCH_ALIASES>;

/** How each canonical parameter's value is typed in a saved search's `query`. */
export type ParamKind = 'text' | 'terms' | 'ids' | 'number' | 'flag';

/** Every canonical parameter, in the order of docs/api.md 4.4 (the order of the stored query string). */
export const PARAM_KINDS: Readonly<Record<CanonicalParam, ParamKind>> = {
  keyword: 'text',
  type: 'terms',
  status: 'terms',
  label: 'terms',
  feature: 'terms',
  country: 'terms',
  state: 'terms',
  city: 'terms',
  area: 'terms',
  min_price: 'number',
  max_price: 'number',
  currency: 'text',
  min_size: 'number',
  max_size: 'number',
  min_land_size: 'number',
  max_land_size: 'number',
  bedrooms: 'number',
  min_beds: 'number',
  max_beds: 'number',
  bathrooms: 'number',
  min_baths: 'number',
  max_baths: 'number',
  garage: 'number',
  min_year_built: 'number',
  max_year_built: 'number',
  featured: 'flag',
  agent_id: 'number',
  agency_id: 'number',
  user_id: 'number',
  ids: 'ids',
  reference: 'text',
  latitude: 'number',
  longitude: 'number',
  radius: 'number',
  radius_unit: 'text',
  ne_lat: 'number',
  ne_lng: 'number',
  sw_lat: 'number',
  sw_lng: 'number',
  polygon: 'text',
  include_sold: 'flag',
  sortby: 'text',
};

const KIND_SCHEMAS: Record<ParamKind, () => TSchema> = {
  text: () => Type.String(),
  terms: () => Type.Array(Type.String(), { description: 'Term slugs or ids, lower case, as given' }),
  ids: () => Type.Array(Type.Integer(), { description: 'Ascending' }),
  number: () => Type.Number(),
  flag: () => Type.Literal(true, { description: 'Present only when true' }),
};

/** A saved search's `query`: canonical names only, typed values, defaults left out. */
const SavedSearchQueryRecord = Type.Object(
  Object.fromEntries(Object.entries(PARAM_KINDS).map(([name, kind]) => [name, Type.Optional(KIND_SCHEMAS[kind]())])),
  {
    description:
      'The search as it is stored: canonical parameter names of GET /properties/search (aliases converted), lists ' +
      'as arrays, numbers and `true` flags typed, defaults left out. Sent back as `query`, it saves the same search.',
  },
);
export type SavedSearchQueryValue = string | number | true | string[] | number[];
export type SavedSearchQueryRecordValue = Partial<Record<CanonicalParam, SavedSearchQueryValue>>;

export const SavedSearch = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    query: SavedSearchQueryRecord,
    query_string: Type.String({ description: 'The same search as a canonical query string, without the leading `?`' }),
    display_text: Type.String({ description: 'The search’s main filters in words, in the request’s language' }),
    email_alerts: Type.Boolean(),
    frequency: Type.Enum([...SAVED_SEARCH_FREQUENCIES]),
    last_notified_at: Type.Union([Type.String(), Type.Null()], { description: 'When an alert last went out; null before the first' }),
    created_at: Type.String({ description: 'ISO 8601 UTC' }),
  },
  { $id: 'SavedSearch', title: 'SavedSearch' },
);
export interface SavedSearchRecord {
  id: number;
  name: string;
  query: SavedSearchQueryRecordValue;
  query_string: string;
  display_text: string;
  email_alerts: boolean;
  frequency: SavedSearchFrequency;
  last_notified_at: string | null;
  created_at: string;
}

const Name = Type.String({
  maxLength: MAX_NAME_LENGTH,
  description: 'Plain text: HTML tags and control characters are removed, white space trimmed and collapsed',
});
const EmailAlerts = Type.Boolean({ description: 'Mail the new matches (default true)' });
const Frequency = Type.Enum([...SAVED_SEARCH_FREQUENCIES], {
  description: '`instant`: each new match at once; `daily`, `weekly`: one digest per period (default `daily`)',
});

export const CreateSavedSearchBody = Type.Object(
  {
    name: Type.Optional(Name),
    query: Type.Optional(SavedSearchQueryObject),
    query_string: Type.Optional(
      Type.String({ maxLength: 50_000, description: 'The search as a query string of GET /properties/search, with or without `?`' }),
    ),
    email_alerts: Type.Optional(EmailAlerts),
    frequency: Type.Optional(Frequency),
  },
  { additionalProperties: false },
);
export type CreateSavedSearchInput = Static<typeof CreateSavedSearchBody>;

export const UpdateSavedSearchBody = Type.Object(
  { name: Type.Optional(Name), email_alerts: Type.Optional(EmailAlerts), frequency: Type.Optional(Frequency) },
  { additionalProperties: false, description: 'At least one field; the search itself cannot change (save a new one)' },
);
export type UpdateSavedSearchInput = Static<typeof UpdateSavedSearchBody>;

export const SavedSearchIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) }, { additionalProperties: false });

export const SavedSearchesQuery = Type.Object({ ...PageQueryFields }, { additionalProperties: false });
export type SavedSearchesInput = Static<typeof SavedSearchesQuery>;

export const SavedSearchList = Type.Object({ saved_searches: Type.Array(Type.Ref('SavedSearch')), pagination: Pagination });
export interface SavedSearchListRecord {
  saved_searches: SavedSearchRecord[];
  pagination: PaginationRecord;
}

export const SavedSearchDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });
