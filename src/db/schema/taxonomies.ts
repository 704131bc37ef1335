import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Terms of the eight taxonomies. */
export interface TaxonomiesTables {
  terms: TermsTable;
}

export const TAXONOMIES = [
  'property_type',
  'property_status',
  'property_label',
  'property_feature',
  'property_country',
  'property_state',
  'property_city',
  'property_area',
  'agent_category',
  'agent_city',
] as const;

export type Taxonomy = (typeof TAXONOMIES)[number];

interface TermsTable {
  id: Generated<number>;
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  /** Accent- and case-folded name (lib/slug.ts `sortKey`): the portable sort and search key. */
  sort_key: string;
  description: Generated<string>;
  /** Same-taxonomy parent; null is the API's `parent: 0`. */
  parent_id: number | null;
  /** Location hierarchy across taxonomies: a state's country, a city's state, an area's city. */
  location_parent_id: number | null;
  image_url: string | null;
  marker_icon_url: string | null;
  marker_retina_icon_url: string | null;
  custom_link: string | null;
  color: string | null;
  /** A location term's centre as set (migration 0036), both or neither; null: its listings' centre is shown. */
  latitude: number | null;
  longitude: number | null;
  /** Published listings using the term, kept exact by database triggers (db/dialect/ddl/term-triggers.ts). */
  count: Generated<number>;
  created_at: string;
  updated_at: string;
}

export type TermRow = Selectable<TermsTable>;

export type NewTerm = Insertable<TermsTable>;

export type TermUpdate = Updateable<TermsTable>;
