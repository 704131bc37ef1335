import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { searchQueryParams, SearchQueryParams, type SearchQuery, type TaxonomyFilter } from '../../../modules/search/index.js';
import type { TermRecord } from '../../../modules/taxonomies/index.js';
import { LANDING_FACETS, RESULTS_PATH } from './landing-paths.js';

/**
 * The results page's query (docs/site.md): the search parameters of GET /properties/search (docs/api.md 4.4)
 * with their own schema and rules, read by the same normalization (listings.ts), and the URLs of searches.
 * Paging is 20 cards a page and the facets are the page's own, so `per_page` and `facets` are not taken; any
 * parameter the schema does not name (utm_*, fbclid…) is ignored rather than refused.
 */

const { per_page: _perPage, facets: _facets, ...searchFields } = SearchQueryParams.properties;

/** The site's own parameters beside the search's: the filter form's place, and the saved-search notice. */
const SITE_FIELDS = {
  place: Type.Optional(
    Type.String({ pattern: '^(city|area):[^,:]{1,200}$', description: 'The filter form’s place: `city:<slug>` or `area:<slug>`' }),
  ),
  saved: Type.Optional(Type.String({ maxLength: 20, description: 'What saving this search did (a notice)' })),
};

export const ResultsQuery = Type.Object({ ...searchFields, ...SITE_FIELDS }, { additionalProperties: true });

/** The search parameters the page reads (aliases included). */
const SEARCH_NAMES: ReadonlySet<string> = new Set(Object.keys(searchFields));
const KNOWN_NAMES: ReadonlySet<string> = new Set([...SEARCH_NAMES, ...Object.keys(SITE_FIELDS)]);

export const RESULTS_PER_PAGE = 20;

/** Requests whose query had empty parameters (a submitted filter form): the page redirects them to the clean URL. */
const hadEmpty = new WeakSet<FastifyRequest>();

/**
 * preValidation: empty parameters are left out before the schema reads them. A GET form sends every field, and
 * an empty number would otherwise be coerced to 0 (`min_price=` is "no minimum", not a minimum of 0).
 */
export async function dropEmptyParams(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === 'string' && value.trim() === '' && KNOWN_NAMES.has(name)) {
      delete query[name];
      hadEmpty.add(request);
    }
  }
}

export function hadEmptyParams(request: FastifyRequest): boolean {
  return hadEmpty.has(request);
}

/** The search parameters of a validated query, without the site's own and the unknown ones. */
export function searchParamsOf(query: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) if (SEARCH_NAMES.has(name) && value !== undefined) params[name] = value;
  return params;
}

/** The parameters of a URL the page does not read (tracking), in their order: a redirect carries them on. */
export function unknownParamsOf(url: string): [string, string][] {
  const at = url.indexOf('?');
  if (at < 0) return [];
  return [...new URLSearchParams(url.slice(at + 1))].filter(([name]) => !KNOWN_NAMES.has(name.endsWith('[]') ? name.slice(0, -2) : name));
}

/** The query's values as typed (for the form after an error): the raw text of every parameter. */
export function rawValuesOf(url: string): Record<string, string> {
  const at = url.indexOf('?');
  const values: Record<string, string> = {};
  if (at >= 0) for (const [name, value] of new URLSearchParams(url.slice(at + 1))) values[name] = value.slice(0, 1000);
  return values;
}

/** A term as the page names it: its slug, its name, and its id when it was looked up (facet values carry none). */
export interface NamedTerm {
  readonly id?: number;
  readonly slug: string;
  readonly name: string;
}

/**
 * The terms a page names, by filter: those its search gives (by slug or by id, as the search resolves them) and
 * the values of its facets, so that a link to a term of either kind can be written as a landing path.
 */
export class TermBook {
  constructor(private readonly terms: ReadonlyMap<TaxonomyFilter, readonly NamedTerm[]>) {}

  find(filter: TaxonomyFilter, value: string): NamedTerm | undefined {
    return this.terms.get(filter)?.find((term) => term.slug === value || (term.id !== undefined && String(term.id) === value));
  }

  /** The term's name, or the value as given when no term has it (the search then matches nothing). */
  name(filter: TaxonomyFilter, value: string): string {
    return this.find(filter, value)?.name ?? value;
  }

  /** This book with more terms of a filter (those it knows already stay first). */
  with(filter: TaxonomyFilter, more: readonly NamedTerm[]): TermBook {
    if (more.length === 0) return this;
    const terms = new Map(this.terms);
    terms.set(filter, [...(this.terms.get(filter) ?? []), ...more]);
    return new TermBook(terms);
  }
}

/** The single known term of a landing facet, if the search names exactly one. */
export function landingTerm(query: SearchQuery, book: TermBook, facet: TaxonomyFilter): NamedTerm | undefined {
  const values = query.terms?.[facet];
  return values?.length === 1 ? book.find(facet, values[0]!) : undefined;
}

/**
 * The URL of a search's results (plain, without the language prefix): each landing facet with one known term in
 * the path, in the canonical order, and every other parameter in the query string, in the canonical order of
 * searchQueryParams; the page after them.
 */
export function resultsUrl(query: SearchQuery, book: TermBook, page = 1, extra: readonly [string, string][] = []): string {
  const params = searchQueryParams(without(query, 'facets'));
  let path = RESULTS_PATH;
  for (const facet of LANDING_FACETS) {
    const term = landingTerm(query, book, facet);
    if (!term) continue;
    path += `/${facet}/${encodeURIComponent(term.slug)}`;
    delete params[facet];
  }
  const pairs = Object.entries(params);
  if (page > 1) pairs.push(['page', String(page)]);
  pairs.push(...extra);
  if (pairs.length === 0) return path;
  return `${path}?${pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeValue(value)}`).join('&')}`;
}

/** A value as searchQueryString writes it: commas and spaces stay readable. */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/g, ',').replace(/%20/g, '+');
}

/** The path part of a URL. */
export function pathOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
}

/** The landing page nearest a search: its landing facets that name one known term, and nothing else. */
export function landingOf(query: SearchQuery, book: TermBook): SearchQuery {
  const terms: Partial<Record<TaxonomyFilter, string[]>> = {};
  for (const facet of LANDING_FACETS) {
    const term = landingTerm(query, book, facet);
    if (term) terms[facet] = [term.slug];
  }
  return Object.keys(terms).length > 0 ? { terms } : {};
}

/** Whether the search is a landing page (or `/properties` itself): landing facets of one known term each, nothing else. */
export function isLandingSearch(query: SearchQuery, book: TermBook): boolean {
  for (const name of Object.keys(query)) if (name !== 'terms') return false;
  return Object.keys(query.terms ?? {}).every(
    (filter) => (LANDING_FACETS as readonly string[]).includes(filter) && landingTerm(query, book, filter as TaxonomyFilter) !== undefined,
  );
}

// Changing a search (the facet links, the chips)

/** The search with `filter`'s values replaced (none: the filter removed). */
export function withTerms(query: SearchQuery, filter: TaxonomyFilter, values: readonly string[]): SearchQuery {
  const terms = { ...query.terms };
  if (values.length > 0) terms[filter] = [...values];
  else delete terms[filter];
  const next: SearchQuery = { ...query, terms };
  if (Object.keys(terms).length === 0) delete next.terms;
  return next;
}

/** The search with `value` of `filter` added, or taken away when the search has it (by slug or by id). */
export function toggledTerm(query: SearchQuery, book: TermBook, filter: TaxonomyFilter, slug: string): SearchQuery {
  const values = query.terms?.[filter] ?? [];
  const names = (value: string) => value === slug || book.find(filter, value)?.slug === slug;
  return values.some(names)
    ? withTerms(
        query,
        filter,
        values.filter((value) => !names(value)),
      )
    : withTerms(query, filter, [...values, slug]);
}

/** Whether the search has `slug` among `filter`'s values (by slug or by id). */
export function hasTerm(query: SearchQuery, book: TermBook, filter: TaxonomyFilter, slug: string): boolean {
  return (query.terms?.[filter] ?? []).some((value) => value === slug || book.find(filter, value)?.slug === slug);
}

/** The search without the named fields. */
export function without(query: SearchQuery, ...names: (keyof SearchQuery)[]): SearchQuery {
  const next = { ...query };
  for (const name of names) delete next[name];
  return next;
}

/** The search with its place (city and area) replaced by one term, as the filter form's place and a place keyword set it. */
export function withPlace(query: SearchQuery, facet: 'city' | 'area', slug: string): SearchQuery {
  return withTerms(withTerms(query, facet === 'city' ? 'area' : 'city', []), facet, [slug]);
}

/**
 * The filter form's place value of a search: its area, else its city, when it names one (several are kept as
 * hidden fields instead, which a chosen place replaces).
 */
export function placeValueOf(query: SearchQuery): string {
  if (query.terms?.area && query.terms.area.length !== 1) return '';
  for (const facet of ['area', 'city'] as const) {
    const values = query.terms?.[facet];
    if (values?.length === 1) return `${facet}:${values[0]}`;
    if (values) return '';
  }
  return '';
}

/** The place a keyword names exactly (case-insensitive, spaces folded): a city first, else an area. */
export function placeNamed(
  keyword: string,
  places: { readonly city: ReadonlyMap<string, TermRecord>; readonly area: ReadonlyMap<string, TermRecord> },
): { facet: 'city' | 'area'; term: TermRecord } | undefined {
  const key = placeKey(keyword);
  const city = places.city.get(key);
  if (city) return { facet: 'city', term: city };
  const area = places.area.get(key);
  return area ? { facet: 'area', term: area } : undefined;
}

const namesOf = new WeakMap<readonly TermRecord[], ReadonlyMap<string, TermRecord>>();

/**
 * The terms of a list by their names folded as placeNamed compares them; the first of a name wins (lists come by
 * count, so the place with most listings). Kept per list: the taxonomy service returns the same array while
 * its terms hold.
 */
export function byPlaceName(terms: readonly TermRecord[]): ReadonlyMap<string, TermRecord> {
  let names = namesOf.get(terms);
  if (!names) {
    const map = new Map<string, TermRecord>();
    for (const term of terms) if (!map.has(placeKey(term.name))) map.set(placeKey(term.name), term);
    namesOf.set(terms, (names = map));
  }
  return names;
}

function placeKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}
