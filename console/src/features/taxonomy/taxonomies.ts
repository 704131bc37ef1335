import type { operations, Schemas } from '@realty-api/client';
import type { ApiResource } from '../types';
import { buildTree, type TreeNode } from './tree';

/** The stored taxonomy names of docs/api.md 1.3. */
export type TaxonomyName = operations['postTermsByTaxonomy']['parameters']['path']['taxonomy'];

/** A term as the public listings answer it (docs/api.md 1.1): optional fields are absent when unset. */
export type TermRecord = Schemas['Term'];

/** The location parent a state, city or area takes: its body field and the record's field. */
interface LocationParent {
  field: 'country_id' | 'state_id' | 'city_id';
  recordField: 'parent_country' | 'parent_state' | 'parent_city';
  taxonomy: TaxonomyName;
}

export interface TaxonomyDefinition {
  name: TaxonomyName;
  /** Public listing (docs/api.md 1.2) and its `data` key. */
  list: string;
  itemsKey: string;
  /** Message key (taxonomy.<label>) of the taxonomy's name, plural. */
  label: string;
  /** Message key of one term of it, for "New …" buttons. */
  singular: string;
  coloured: boolean;
  /** Image, marker icons and custom link: property types only (docs/api.md 1.1). */
  images: boolean;
  /** Countries, states, cities and areas: a centre of their own (latitude and longitude). */
  place: boolean;
  location?: LocationParent;
}

/** Country → state → city → area, the levels of the location tab. */
export const LOCATION_LEVELS: readonly TaxonomyName[] = ['property_country', 'property_state', 'property_city', 'property_area'];

const plain = (name: TaxonomyName, list: string, itemsKey: string, label: string, singular: string): TaxonomyDefinition => ({
  name,
  list,
  itemsKey,
  label,
  singular,
  coloured: name === 'property_status' || name === 'property_label',
  images: name === 'property_type',
  place: (LOCATION_LEVELS as readonly string[]).includes(name),
});

const TAXONOMIES: readonly TaxonomyDefinition[] = [
  plain('property_type', '/property-types', 'property_types', 'tab_types', 'one_type'),
  plain('property_status', '/property-status', 'property_status', 'tab_statuses', 'one_status'),
  plain('property_feature', '/property-features', 'features', 'tab_features', 'one_feature'),
  plain('property_label', '/property-labels', 'property_labels', 'tab_labels', 'one_label'),
  plain('property_country', '/property-countries', 'countries', 'level_country', 'one_country'),
  {
    ...plain('property_state', '/property-states', 'states', 'level_state', 'one_state'),
    location: { field: 'country_id', recordField: 'parent_country', taxonomy: 'property_country' },
  },
  {
    ...plain('property_city', '/property-cities', 'cities', 'level_city', 'one_city'),
    location: { field: 'state_id', recordField: 'parent_state', taxonomy: 'property_state' },
  },
  {
    ...plain('property_area', '/property-areas', 'areas', 'level_area', 'one_area'),
    location: { field: 'city_id', recordField: 'parent_city', taxonomy: 'property_city' },
  },
  plain('agent_category', '/agents/agent-categories', 'agent_categories', 'tab_agent_categories', 'one_agent_category'),
  plain('agent_city', '/agents/agent-cities', 'agent_cities', 'tab_agent_cities', 'one_agent_city'),
];

export function taxonomy(name: TaxonomyName): TaxonomyDefinition {
  const found = TAXONOMIES.find((definition) => definition.name === name);
  if (!found) throw new Error(`unknown taxonomy ${name}`);
  return found;
}

/** Refine's resource name of a taxonomy's terms. */
export function resourceName(name: TaxonomyName): string {
  return `terms-${name}`;
}

/** The data provider's resources: read through the public listing, written through /terms/{taxonomy}. */
export const TERM_RESOURCES: ApiResource[] = TAXONOMIES.map((definition) => ({
  name: resourceName(definition.name),
  list: definition.list,
  itemsKey: definition.itemsKey,
  create: `/terms/${definition.name}`,
  update: `/terms/${definition.name}/:id`,
  remove: `/terms/${definition.name}/:id`,
}));

/** A term of the location tab, with the level it belongs to. */
export interface PlacedTerm {
  taxonomy: TaxonomyName;
  term: TermRecord;
}

export const placeKey = (taxonomyName: TaxonomyName, id: number): string => `${taxonomyName}:${id}`;

/** The tree of one taxonomy's terms by `parent` (0 = top level). */
export function termTree(terms: readonly TermRecord[]): TreeNode<TermRecord>[] {
  return buildTree(
    terms,
    (term) => String(term.id),
    (term) => (term.parent > 0 ? String(term.parent) : null),
  );
}

/**
 * The location hierarchy from the four lists: a term hangs under a parent of its own level when it has one
 * (`parent`), else under its place of the level above (`parent_country`, `parent_state`, `parent_city`).
 */
export function locationTree(levels: Partial<Record<TaxonomyName, readonly TermRecord[]>>): TreeNode<PlacedTerm>[] {
  const placed: PlacedTerm[] = LOCATION_LEVELS.flatMap((name) => (levels[name] ?? []).map((term) => ({ taxonomy: name, term })));
  return buildTree(
    placed,
    ({ taxonomy: name, term }) => placeKey(name, term.id),
    ({ taxonomy: name, term }) => {
      if (term.parent > 0) return placeKey(name, term.parent);
      const location = taxonomy(name).location;
      const above = location ? term[location.recordField] : undefined;
      return location && above ? placeKey(location.taxonomy, above.id) : null;
    },
  );
}
