import type { Taxonomy } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { slugify, sortKey } from '../../lib/slug.js';
import type { TermEndpoint, TermQueryInput } from './taxonomies.schemas.js';

const MAX_IDS = 100;
/** Ids are 32-bit on PostgreSQL; a larger number is a client error, not a driver error. */
const MAX_ID = 2_147_483_647;
const MAX_SLUGS = 50;

export type TermOrderBy = 'name' | 'count' | 'id' | 'slug';

/** A term listing query with WordPress term-query semantics (docs/api.md 1.2), normalized and bounded. */
export interface TermFilter {
  taxonomy: Taxonomy;
  hideEmpty: boolean;
  orderBy: TermOrderBy;
  descending: boolean;
  /** Undefined: all terms (`number=0`). */
  limit: number | undefined;
  offset: number;
  parent: number | undefined;
  /** Folded with sortKey(), compared against the folded name and the slug. */
  search: string | undefined;
  include: number[] | undefined;
  exclude: number[] | undefined;
  slugs: string[] | undefined;
  locationParent: { taxonomy: Taxonomy; id: number } | { taxonomy: Taxonomy; slug: string } | undefined;
}

const KEY_PARAMETERS = [
  'hide_empty',
  'orderby',
  'order',
  'number',
  'offset',
  'parent',
  'search',
  'include',
  'exclude',
  'slug',
  'country',
  'state',
  'city',
] as const;

/**
 * A cache key for a term listing query, unambiguous (each value length-prefixed) and cheap: it is built on
 * every request, where JSON.stringify of the query measured as the costliest line of the cached path.
 */
export function termQueryKey(endpoint: TermEndpoint, query: TermQueryInput): string {
  let key = endpoint.taxonomy;
  for (const name of KEY_PARAMETERS) {
    const value = query[name];
    key += value === undefined ? '|' : `|${String(value).length}:${value}`;
  }
  return key;
}

/** Turns the schema-validated query into a TermFilter; list sizes beyond the 0.6 limits are a 400. */
export function parseTermQuery(endpoint: TermEndpoint, query: TermQueryInput): TermFilter {
  const search = query.search?.trim();
  const location = endpoint.locationFilter;
  const locationValue = location ? query[location.param]?.trim() : undefined;
  return {
    taxonomy: endpoint.taxonomy,
    hideEmpty: query.hide_empty === 'true' || query.hide_empty === '1',
    orderBy: (query.orderby ?? 'name') as TermOrderBy,
    descending: query.order?.toUpperCase() === 'DESC',
    limit: query.number === undefined || query.number === 0 ? undefined : query.number,
    offset: query.offset ?? 0,
    parent: query.parent,
    search: search ? sortKey(search) : undefined,
    include: query.include === undefined ? undefined : integerList('include', query.include),
    exclude: query.exclude === undefined ? undefined : integerList('exclude', query.exclude),
    slugs: query.slug === undefined ? undefined : slugList(query.slug),
    locationParent:
      location && locationValue
        ? /^[0-9]{1,10}$/.test(locationValue)
          ? { taxonomy: location.parentTaxonomy, id: locationId(location.param, locationValue) }
          : { taxonomy: location.parentTaxonomy, slug: slugify(locationValue) }
        : undefined,
  };
}

function integerList(field: string, value: string): number[] {
  const ids = [...new Set(value.split(',').map(Number))];
  if (ids.some((id) => id > MAX_ID)) throw AppError.invalidField(field, 'rule_integer_list');
  if (ids.length > MAX_IDS) throw AppError.invalidField(field, 'rule_max_items', { limit: MAX_IDS });
  return ids;
}

function slugList(value: string): string[] {
  const slugs = [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (slugs.length > MAX_SLUGS) throw AppError.invalidField('slug', 'rule_max_items', { limit: MAX_SLUGS });
  if (slugs.length === 0) throw AppError.invalidField('slug', 'rule_slug_list');
  return slugs;
}

function locationId(field: string, value: string): number {
  const id = Number(value);
  if (id > MAX_ID) throw AppError.invalidField(field, 'rule_maximum', { limit: MAX_ID });
  return id;
}
