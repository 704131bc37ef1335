import type { Taxonomy } from '../../../db/schema/index.js';
import { type SearchQuery, type TaxonomyFilter } from './search-types.js';

/** The taxonomy each term parameter of docs/api.md 4.4 names. */
export const TAXONOMY_OF: Record<TaxonomyFilter, Taxonomy> = {
  type: 'property_type',
  status: 'property_status',
  label: 'property_label',
  feature: 'property_feature',
  country: 'property_country',
  state: 'property_state',
  city: 'property_city',
  area: 'property_area',
};

/**
 * A search whose term slugs and ids are resolved to term ids. A parameter none of whose values names a term
 * keeps an empty list: it matches nothing (an unknown city finds no listing; it is not an error, since terms
 * come and go). `feature` needs every value: one unknown feature matches nothing either.
 */
export interface ResolvedSearch {
  query: SearchQuery;
  termIds: Partial<Record<TaxonomyFilter, number[]>>;
  /** The listings of one agent or agency only (GET /agents/{id}/properties, /agencies/{id}/properties). */
  scope?: ListingScope;
}

/** Whose listings a scoped search looks at (docs/api.md 12): an agent's are those naming it, an agency's its own and its agents'. */
export interface ListingScope {
  kind: 'agent' | 'agency';
  id: number;
}
