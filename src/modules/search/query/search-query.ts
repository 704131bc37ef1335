// From validated query parameters (search-query.schemas.ts) to the canonical search (search-types.ts), and back
// to the canonical query string a saved search stores (docs/api.md 7, 12).
import { Ajv, type ValidateFunction } from 'ajv';
import { Type } from 'typebox';
import { AppError, type FieldError } from '../../../lib/errors.js';
import { parseQueryString } from '../../../http/querystring.js';
import { jsonValidator } from '../../../http/validation.js';
import type { MessageKey, MessageParams } from '../../../i18n/index.js';
import {
  MAX_ID,
  MAX_IDS,
  MAX_LIST_ITEMS,
  MAX_POLYGON_VERTICES,
  MAX_RADIUS_MI,
  MIN_POLYGON_VERTICES,
  type MapQueryInput,
  SavedSearchParams,
  type SavedSearchParamsInput,
  SavedSearchQueryObject,
  type SavedSearchQueryObjectInput,
  SEARCH_ALIASES,
  type SearchQueryInput,
} from './search-query.schemas.js';
import {
  FACET_NAMES,
  type FacetName,
  type GeoPoint,
  type NumberRange,
  type RadiusUnit,
  type SearchBox,
  type SearchCircle,
  type SearchFilters,
  type SearchQuery,
  type SearchSort,
  TAXONOMY_FILTERS,
} from './search-types.js';

/** A map request (docs/api.md 4.5): the listings `filters` selects (the box among them), clustered at `zoom` over `box`. */
export interface MapSearch {
  filters: SearchFilters & { box: SearchBox };
  box: SearchBox;
  zoom: number;
}

/** Parameters as Ajv leaves them: scalars coerced, lists still text. */
type Params = Readonly<Record<string, string | number | boolean | undefined>>;

/** The search of a validated GET /properties/search query; a rule spanning several parameters broken → 400. */
export function normalizeSearchQuery(raw: SearchQueryInput): SearchQuery {
  const reader = new ParamReader(raw);
  // Paging is pageWindow()'s (lib/paging.ts); read here only to refuse a `paged` contradicting `page`.
  reader.number('page');
  const query: SearchQuery = readFilters(reader);
  const sortby = readSort(reader, query);
  if (sortby) query.sortby = sortby;
  const facets = reader.read('facets', (value, field) => readFacets(reader, value, field));
  if (facets) query.facets = facets.value;
  return reader.result(query);
}

/** The filters, box and zoom of a validated GET /properties/search/map query. */
export function normalizeMapQuery(raw: MapQueryInput): MapSearch {
  const reader = new ParamReader(raw);
  const filters = reader.result(readFilters(reader));
  // The schema requires every corner, so there is always a box.
  const box = filters.box!;
  return { filters: { ...filters, box }, box, zoom: raw.zoom };
}

/**
 * A saved search's parameters, validated as a query string is (the app's settings for values that arrive as
 * text, http/validation.ts: coerced to their declared types), under the body field they came in, so that
 * errors name `query.min_price` or `query_string.min_price`. Compiled at the first saved search, not when the
 * module loads (start-up time).
 */
let validateSavedParams: ValidateFunction | undefined;
function savedParamsValidator(): ValidateFunction {
  return (validateSavedParams ??= new Ajv({
    removeAdditional: false,
    allErrors: true,
    useDefaults: true,
    strict: false,
    coerceTypes: 'array',
  }).compile(Type.Object({ query: Type.Optional(SavedSearchParams), query_string: Type.Optional(SavedSearchParams) })));
}
const validateSavedObject = jsonValidator<{ query: SavedSearchQueryObjectInput }>(Type.Object({ query: SavedSearchQueryObject }));

/**
 * The search a saved search's body describes (docs/api.md 7): its `query` object, or its `query_string` (with or
 * without the leading `?`). Both are read by the rules of GET /properties/search; paging and facets are refused.
 * Throws what request validation throws for a value breaking the schema (the error handler answers the same 400),
 * and AppError 400 for a rule spanning several parameters; fields are named `query.<name>` or `query_string.<name>`.
 */
export function normalizeSavedSearchQuery(input: SavedSearchQueryObjectInput | string): SearchQuery {
  const field = typeof input === 'string' ? 'query_string' : 'query';
  // URLSearchParams (under parseQueryString) skips a leading `?` itself.
  const params = typeof input === 'string' ? parseQueryString(input) : objectAsText(validateSavedObject({ query: input }).query);
  const wrapper = { [field]: params };
  const validateParams = savedParamsValidator();
  if (!validateParams(wrapper)) {
    throw Object.assign(new Error('saved search validation failed'), { validation: validateParams.errors, validationContext: 'body' });
  }
  const valid = wrapper[field] as SavedSearchParamsInput;
  const reader = new ParamReader(valid, `${field}.`);
  const query: SearchQuery = readFilters(reader);
  const sortby = readSort(reader, query);
  if (sortby) query.sortby = sortby;
  return reader.result(query);
}

/** The typed values of a `query` object as a query string would give them. */
function objectAsText(query: SavedSearchQueryObjectInput): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : String(value)]),
  );
}

// Reading parameters

/** Each canonical parameter that has an alias → that alias. */
const ALIAS_OF: ReadonlyMap<string, string> = new Map(Object.entries(SEARCH_ALIASES).map(([alias, name]) => [name, alias]));

interface Given<T> {
  value: T;
  /** The name the client used, for errors. */
  field: string;
}

/** Reads validated parameters, resolving aliases and collecting every broken rule, one per field. */
class ParamReader {
  private readonly errors: FieldError[] = [];

  constructor(
    private readonly params: Params,
    /** Put before every field name in errors (a saved search's body field). */
    private readonly fieldPrefix = '',
  ) {}

  /**
   * A parameter given by its name or its alias, read by `parse` (undefined: no filter, or a broken rule it
   * reported). Both names with different meanings → 400 on the alias.
   */
  read<T>(name: string, parse: (value: string | number | boolean, field: string) => T | undefined): Given<T> | undefined {
    const own = this.readOne(name, parse);
    const alias = ALIAS_OF.get(name);
    const aliased = alias === undefined ? undefined : this.readOne(alias, parse);
    if (own && aliased && JSON.stringify(own.value) !== JSON.stringify(aliased.value))
      this.fail(aliased.field, 'rule_alias_conflict', { name: own.field });
    return own ?? aliased;
  }

  /** Whether the parameter was given, by its name or its alias. */
  has(name: string): boolean {
    const alias = ALIAS_OF.get(name);
    return this.params[name] !== undefined || (alias !== undefined && this.params[alias] !== undefined);
  }

  number(name: string): Given<number> | undefined {
    // `+ 0` turns -0 into 0, so that `-0` and `0` are one search and print alike.
    return this.read(name, (value) => (typeof value === 'number' ? value + 0 : undefined));
  }

  /**
   * Trimmed; blank is absent. A lone surrogate (possible in a JSON body, never in a decoded URL) becomes U+FFFD,
   * as URL decoding would make it, so that the canonical query string can be encoded.
   */
  text(name: string): string | undefined {
    return this.read(
      name,
      (value) =>
        String(value)
          .replace(/[\uD800-\uDFFF]/gu, '\uFFFD')
          .trim() || undefined,
    )?.value;
  }

  /** `true` filters; `false` is the default, so it is absent. */
  flag(name: string): true | undefined {
    return this.read(name, (value) => (value === true ? true : undefined))?.value;
  }

  /** Notes a broken rule (the first for each field); undefined, for parsers to return. */
  fail(field: string, key: MessageKey, params?: MessageParams): undefined {
    const path = this.fieldPrefix + field;
    if (!this.errors.some((error) => error.field === path)) this.errors.push({ field: path, key, ...(params ? { params } : {}) });
    return undefined;
  }

  /** `value`, unless a rule was broken. */
  result<T>(value: T): T {
    if (this.errors.length > 0) throw new AppError('validation_failed', 'validation_failed', this.errors);
    return value;
  }

  private readOne<T>(field: string, parse: (value: string | number | boolean, field: string) => T | undefined): Given<T> | undefined {
    const value = this.params[field];
    if (value === undefined) return undefined;
    const parsed = parse(value, field);
    return parsed === undefined ? undefined : { value: parsed, field };
  }
}

function readFilters(reader: ParamReader): SearchFilters {
  const filters: SearchFilters = {};
  const keyword = reader.text('keyword');
  if (keyword) filters.keyword = keyword;
  for (const name of TAXONOMY_FILTERS) {
    const values = reader.read(name, (value, field) => readTerms(reader, String(value), field));
    if (values) (filters.terms ??= {})[name] = values.value;
  }
  const price = readRange(reader, 'min_price', 'max_price');
  if (price) filters.price = price;
  const currency = reader.text('currency');
  if (currency) filters.currency = currency.toUpperCase();
  const size = readRange(reader, 'min_size', 'max_size');
  if (size) filters.size = size;
  const landSize = readRange(reader, 'min_land_size', 'max_land_size');
  if (landSize) filters.land_size = landSize;
  const bedrooms = readCount(reader, 'bedrooms', 'min_beds', 'max_beds');
  if (bedrooms) filters.bedrooms = bedrooms;
  const bathrooms = readCount(reader, 'bathrooms', 'min_baths', 'max_baths');
  if (bathrooms) filters.bathrooms = bathrooms;
  const garage = reader.number('garage');
  if (garage) filters.garage = garage.value;
  const yearBuilt = readRange(reader, 'min_year_built', 'max_year_built');
  if (yearBuilt) filters.year_built = yearBuilt;
  if (reader.flag('featured')) filters.featured = true;
  for (const name of ['agent_id', 'agency_id', 'user_id'] as const) {
    const id = reader.number(name);
    if (id) filters[name] = id.value;
  }
  const ids = reader.read('ids', (value, field) => readIds(reader, String(value), field));
  if (ids) filters.ids = ids.value;
  const reference = reader.text('reference');
  if (reference) filters.reference = reference;
  const circle = readCircle(reader);
  if (circle) filters.circle = circle;
  const box = readBox(reader);
  if (box) filters.box = box;
  const polygon = reader.read('polygon', (value, field) => readPolygon(reader, String(value), field));
  if (polygon) filters.polygon = polygon.value;
  if (reader.flag('include_sold')) filters.include_sold = true;
  return filters;
}

/** `sortby`, left out when it is the default (so that equal searches have one canonical form). */
function readSort(reader: ParamReader, filters: SearchFilters): SearchSort | undefined {
  const sortby = reader.read('sortby', (value) => String(value) as SearchSort)?.value;
  if (sortby === 'relevance' && filters.keyword === undefined) reader.fail('keyword', 'rule_required');
  if (sortby === 'distance' && filters.circle === undefined) {
    for (const name of ['latitude', 'longitude']) if (!reader.has(name)) reader.fail(name, 'rule_required');
  }
  const byDefault: SearchSort = filters.keyword === undefined ? 'd_date' : 'relevance';
  return sortby === byDefault ? undefined : sortby;
}

/** Trimmed, blanks dropped, first occurrences kept in order. */
function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}

/** A slug as slugify() makes them (letters and digits of any script, single hyphens), or a term id. */
const TERM_VALUE = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;
/** Digits without a leading zero are an id (search-terms.ts reads them so); `007` stays a slug. */
const TERM_ID = /^[1-9][0-9]*$/;

function readTerms(reader: ParamReader, text: string, field: string): string[] | undefined {
  const values = splitList(text.toLowerCase());
  if (values.length === 0) return undefined;
  if (values.length > MAX_LIST_ITEMS) return reader.fail(field, 'rule_max_items', { limit: MAX_LIST_ITEMS });
  if (values.some((value) => value.length > 200 || !TERM_VALUE.test(value))) return reader.fail(field, 'rule_slug_list');
  if (values.some((value) => TERM_ID.test(value) && Number(value) > MAX_ID)) return reader.fail(field, 'rule_maximum', { limit: MAX_ID });
  return values;
}

/** Unique and ascending. */
function readIds(reader: ParamReader, text: string, field: string): number[] | undefined {
  const values = splitList(text);
  if (values.length === 0) return undefined;
  if (values.some((value) => !TERM_ID.test(value) || Number(value) > MAX_ID)) return reader.fail(field, 'rule_integer_list');
  const ids = [...new Set(values.map(Number))].sort((a, b) => a - b);
  if (ids.length > MAX_IDS) return reader.fail(field, 'rule_max_items', { limit: MAX_IDS });
  return ids;
}

function readFacets(reader: ParamReader, value: string | number | boolean, field: string): FacetName[] | undefined {
  const names = splitList(String(value).toLowerCase());
  if (names.length === 0) return undefined;
  if (!names.every((name): name is FacetName => (FACET_NAMES as readonly string[]).includes(name))) {
    return reader.fail(field, 'rule_enum', { values: FACET_NAMES.join(', ') });
  }
  return names;
}

interface Bounds {
  min?: Given<number>;
  max?: Given<number>;
}

function readBounds(reader: ParamReader, minName: string, maxName: string): Bounds {
  const min = reader.number(minName);
  const max = reader.number(maxName);
  if (min && max && min.value > max.value) reader.fail(min.field, 'rule_maximum', { limit: max.value });
  // Assigned rather than spread from conditional objects: every search reads six ranges, and the spreads were
  // most of the time it took to read a query.
  const bounds: Bounds = {};
  if (min) bounds.min = min;
  if (max) bounds.max = max;
  return bounds;
}

function asRange({ min, max }: Bounds): NumberRange | undefined {
  if (!min && !max) return undefined;
  const range: NumberRange = {};
  if (min) range.min = min.value;
  if (max) range.max = max.value;
  return range;
}

function readRange(reader: ParamReader, minName: string, maxName: string): NumberRange | undefined {
  return asRange(readBounds(reader, minName, maxName));
}

/** An exact count (the range N..N), or bounds; both at once is ambiguous. */
function readCount(reader: ParamReader, exactName: string, minName: string, maxName: string): NumberRange | undefined {
  const exact = reader.number(exactName);
  const bounds = readBounds(reader, minName, maxName);
  const bound = bounds.min ?? bounds.max;
  if (exact && bound) reader.fail(bound.field, 'rule_exact_and_range', { name: exact.field });
  return exact ? { min: exact.value, max: exact.value } : asRange(bounds);
}

/** `latitude` and `longitude` go together; `radius` and `radius_unit` (also the unit of each result's `distance`) need them. */
function readCircle(reader: ParamReader): SearchCircle | undefined {
  const latitude = reader.number('latitude');
  const longitude = reader.number('longitude');
  const radius = reader.number('radius');
  const unit = reader.read('radius_unit', (value) => String(value) as RadiusUnit);
  if (latitude && !longitude) reader.fail('longitude', 'rule_required');
  if (longitude && !latitude) reader.fail('latitude', 'rule_required');
  if (radius && !latitude && !longitude) {
    reader.fail('latitude', 'rule_required');
    reader.fail('longitude', 'rule_required');
  }
  if (unit && !latitude && !longitude) reader.fail('latitude', 'rule_required');
  if (radius && unit?.value === 'mi' && radius.value > MAX_RADIUS_MI) reader.fail(radius.field, 'rule_maximum', { limit: MAX_RADIUS_MI });
  if (!latitude || !longitude) return undefined;
  return {
    latitude: latitude.value,
    longitude: longitude.value,
    ...(radius ? { radius: radius.value } : {}),
    unit: unit?.value ?? 'km',
  };
}

/** All four corners or none; the south edge not north of the north edge (east and west may cross the antimeridian). */
function readBox(reader: ParamReader): SearchBox | undefined {
  const north = reader.number('ne_lat');
  const east = reader.number('ne_lng');
  const south = reader.number('sw_lat');
  const west = reader.number('sw_lng');
  const corners = { ne_lat: north, ne_lng: east, sw_lat: south, sw_lng: west };
  if (!north && !east && !south && !west) return undefined;
  for (const [name, corner] of Object.entries(corners)) if (!corner) reader.fail(name, 'rule_required');
  if (!north || !east || !south || !west) return undefined;
  if (south.value > north.value) reader.fail(south.field, 'rule_maximum', { limit: north.value });
  return { north: north.value, south: south.value, east: east.value, west: west.value };
}

/** A decimal number, as a coordinate is written (no hex, no `Infinity`, no blank). */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** `lat lng,lat lng,...`, white space around and between the numbers tolerated. */
function readPolygon(reader: ParamReader, text: string, field: string): GeoPoint[] | undefined {
  const pairs = text
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean);
  if (pairs.length === 0) return undefined;
  const vertices: GeoPoint[] = [];
  for (const pair of pairs) {
    const numbers = pair.split(/\s+/);
    if (numbers.length !== 2 || !numbers.every((number) => DECIMAL.test(number)))
      return reader.fail(field, 'rule_polygon', { min: MIN_POLYGON_VERTICES, max: MAX_POLYGON_VERTICES });
    const [latitude, longitude] = numbers.map((number) => Number(number) + 0) as [number, number];
    if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180))
      return reader.fail(field, 'rule_polygon', { min: MIN_POLYGON_VERTICES, max: MAX_POLYGON_VERTICES });
    vertices.push({ latitude, longitude });
  }
  const [first, last] = [vertices[0]!, vertices[vertices.length - 1]!];
  if (vertices.length > 1 && first.latitude === last.latitude && first.longitude === last.longitude) vertices.pop();
  if (vertices.length > MAX_POLYGON_VERTICES) return reader.fail(field, 'rule_max_items', { limit: MAX_POLYGON_VERTICES });
  if (vertices.length < MIN_POLYGON_VERTICES)
    return reader.fail(field, 'rule_polygon', { min: MIN_POLYGON_VERTICES, max: MAX_POLYGON_VERTICES });
  return vertices;
}
