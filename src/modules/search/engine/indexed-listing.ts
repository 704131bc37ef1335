import type { Taxonomy } from '../../../db/schema/index.js';
import type { FilteredListingFields } from '../matcher/search-matcher.js';

/**
 * What the search engine keeps of a listing (engine/listing-index.ts): the fields the filters, sorts, facets and
 * clusters of docs/api.md 4.4 and 4.5 read, as the database stores them. Only listings a search can return
 * (`publish`, `sold`) are indexed; any other state is a removal.
 */
export interface IndexedListing extends FilteredListingFields {
  status: 'publish' | 'sold';
  /** The title's words joined by single spaces (`listings.title_tokens`). */
  title_tokens: string;
  /** `listings.sort_title`, the key of `a_title`/`d_title`. */
  sort_title: string;
  /** ISO time of first publication; searched listings always have one. */
  published_at: string;
  /** `listings.geo_key` (lib/geo-grid.ts), null without coordinates. */
  geo_key: number | null;
  /** `listings.geo_x/y/z`, the point's unit vector as stored (the distance filter and sort read it), null without coordinates. */
  geo_x: number | null;
  geo_y: number | null;
  geo_z: number | null;
  /** Every term the listing is linked to (listing_terms). */
  term_ids: readonly number[];
  /** The agents it names (listing_agents). */
  agent_ids: readonly number[];
}

/** A term as facets name it. */
export interface IndexedTerm {
  id: number;
  taxonomy: Taxonomy;
  slug: string;
  name: string;
}

/** An agent and the agency it belongs to (the agency filter follows agents). */
export interface IndexedAgent {
  id: number;
  agency_id: number | null;
}
