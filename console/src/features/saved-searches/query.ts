/**
 * Pure logic of saved searches: the "save a search" form's values become the `query` object of
 * POST /saved-searches (docs/api.md 7) with no empty parameter in it, and a search page's own parameters
 * (paging, facets) are left out, since the API refuses them in a saved search.
 */
import type { RequestBody, Schemas } from '@realty-api/client';

export type Frequency = Schemas['SavedSearch']['frequency'];
export const FREQUENCIES = ['instant', 'daily', 'weekly'] as const satisfies readonly Frequency[];

/** The search fields of the form, as text (HTML inputs and selects give strings). */
export interface SearchFields {
  keyword: string;
  type: string;
  status: string;
  city: string;
  min_price: string;
  max_price: string;
  min_beds: string;
}

/** How alerts of a saved search go out. */
export interface AlertFields {
  name: string;
  frequency: Frequency;
  email_alerts: boolean;
}

/** The values of the "save a search" form: its search fields live under `query.` so that the API's field errors (`query.keyword`) land on them. */
export interface SaveSearchFormValues extends AlertFields {
  query: SearchFields;
}

export const EMPTY_SEARCH: SearchFields = { keyword: '', type: '', status: '', city: '', min_price: '', max_price: '', min_beds: '' };

export const DEFAULT_ALERTS: AlertFields = { name: '', frequency: 'daily', email_alerts: true };

/** Parameters that belong to one request of the search page, never to a saved search (the API answers 400). */
const REQUEST_ONLY = new Set(['page', 'paged', 'per_page', 'facets', 'lang']);

/** The body of POST /saved-searches. */
export type CreateSavedSearchBody = Omit<RequestBody<'/realty-api/v1/saved-searches', 'post'>, 'query'> & {
  /** The form's values are text; the API types them. */
  query: Record<string, string>;
};

/**
 * The search parameters worth saving: trimmed, none empty, none of the request-only ones. Values are kept as
 * text; the API types them (`"min_price": "200000"` is accepted).
 */
export function savableQuery(query: Readonly<Record<string, string | null | undefined>>): Record<string, string> {
  const kept: [string, string][] = [];
  for (const [name, value] of Object.entries(query)) {
    if (REQUEST_ONLY.has(name) || typeof value !== 'string') continue;
    const trimmed = value.trim();
    if (trimmed !== '') kept.push([name, trimmed]);
  }
  // Built from entries: assigning a parameter named `__proto__` would set the object's prototype instead.
  return Object.fromEntries(kept);
}

/** The search fields of the form as the API's parameters (`min_beds` is the minimum bedrooms, docs/api.md 4.4). */
export function searchQuery(fields: Readonly<SearchFields>): Record<string, string> {
  return savableQuery({ ...fields });
}

/** The request body for saving `query` with the alert settings: a blank name is left out (the API names the search by its filters). */
export function createBody(
  alerts: Readonly<AlertFields>,
  query: Readonly<Record<string, string | null | undefined>>,
): CreateSavedSearchBody {
  const name = alerts.name.trim();
  return {
    ...(name ? { name } : {}),
    query: savableQuery(query),
    frequency: alerts.frequency,
    email_alerts: alerts.email_alerts,
  };
}

/** What is wrong with the form before it is sent, as a message key of this feature, or null. */
export function searchProblem(fields: Readonly<SearchFields>): 'empty_query' | 'price_range' | null {
  const query = searchQuery(fields);
  if (Object.keys(query).length === 0) return 'empty_query';
  const min = query.min_price === undefined ? NaN : Number(query.min_price);
  const max = query.max_price === undefined ? NaN : Number(query.max_price);
  if (Number.isFinite(min) && Number.isFinite(max) && min > max) return 'price_range';
  return null;
}

export function isFrequency(value: unknown): value is Frequency {
  return typeof value === 'string' && (FREQUENCIES as readonly string[]).includes(value);
}
