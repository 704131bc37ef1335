import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Taxonomy } from './taxonomies.js';

/** Listings, their states and history, their terms and agents, favorites. */
export interface ListingsTables {
  listings: ListingsTable;
  listing_terms: ListingTermsTable;
  favorites: FavoritesTable;
  listing_agents: ListingAgentsTable;
  listing_transitions: ListingTransitionsTable;
  listing_slug_history: ListingSlugHistoryTable;
}

export const LISTING_STATES = ['draft', 'pending', 'publish', 'on_hold', 'disapproved', 'expired', 'sold'] as const;

export type ListingState = (typeof LISTING_STATES)[number];

export interface ListingsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  /** Accent- and case-folded title (lib/slug.ts foldForSort): the portable sort key of `a_title`/`d_title`. */
  sort_title: Generated<string>;
  description: Generated<string>;
  /** Plain text of the description, at most 160 characters, computed on write. */
  excerpt: Generated<string>;
  status: ListingState;
  author_id: number | null;
  reference: Generated<string>;
  price: number | null;
  second_price: number | null;
  currency: string;
  price_prefix: Generated<string>;
  price_postfix: Generated<string>;
  bedrooms: number | null;
  bathrooms: number | null;
  rooms: number | null;
  garage: number | null;
  garage_size: Generated<string>;
  size: number | null;
  size_unit: Generated<'sqft' | 'm2'>;
  land_size: number | null;
  land_size_unit: Generated<'sqft' | 'm2'>;
  year_built: number | null;
  featured: Generated<number>;
  address: Generated<string>;
  zipcode: Generated<string>;
  latitude: number | null;
  longitude: number | null;
  video_url: Generated<string>;
  virtual_tour: Generated<string>;
  views: Generated<number>;
  agency_id: Generated<number | null>;
  agent_display: Generated<AgentDisplay>;
  /** JSON `[{title, value}]`. */
  additional_features: Generated<string>;
  /** JSON array of floor plans (docs/api.md 4.1), image URLs absolute. */
  floor_plans: Generated<string>;
  featured_image_id: Generated<number | null>;
  /** Average review rating (reviews issue), null without reviews. */
  rating: Generated<number | null>;
  reviews_count: Generated<number>;
  /** Sum of the ratings of the listing's reviews (0004); `rating` is the rounded average, kept beside it. */
  rating_sum: Generated<number>;
  created_at: string;
  updated_at: string;
  /** First time the listing entered `publish`; kept through later moves (the date sorts use it). */
  published_at: string | null;
  expires_at: string | null;
  /**
   * Search columns (0006), computed in JavaScript from the text and coordinates on every write
   * (lib/search-columns.ts). The words of title, description, address, zipcode and
   * reference (lib/search-tokens.ts) joined by single spaces; indexed by `listings_fts` (SQLite) or a GIN
   * index (PostgreSQL), see db/dialect/full-text.ts.
   */
  search_text: Generated<string>;
  /** The words of the title alone: relevance counts the keyword's words found here. */
  title_tokens: Generated<string>;
  /**
   * Z-order key of the point's grid cell (modules/search/geo/geo.ts), null without coordinates. A bigint:
   * PostgreSQL returns it as a string, so readers convert it with Number().
   */
  geo_key: ColumnType<number | string | null, number | null | undefined, number | null>;
  /** The point as a unit vector, null without coordinates: a distance test is one dot product. */
  geo_x: Generated<number | null>;
  geo_y: Generated<number | null>;
  geo_z: Generated<number | null>;
}

export const AGENT_DISPLAYS = ['agent_info', 'agency_info', 'author_info', 'none'] as const;

export type AgentDisplay = (typeof AGENT_DISPLAYS)[number];

/** The agents a listing names (`agent_ids`), in the author's order. */
interface ListingAgentsTable {
  listing_id: number;
  agent_id: number;
  position: Generated<number>;
}

/** Every move of a listing between states (docs/api.md 3.3); `from_state` is null for the creation. */
interface ListingTransitionsTable {
  id: Generated<number>;
  listing_id: number;
  from_state: ListingState | null;
  to_state: ListingState;
  actor_id: number | null;
  reason: Generated<string>;
  at: string;
}

/** A slug a listing had before it was changed (0025): its old path answers 301 to the current one. */
interface ListingSlugHistoryTable {
  slug: string;
  listing_id: number;
  retired_at: string;
}

interface ListingTermsTable {
  listing_id: number;
  term_id: number;
  taxonomy: Taxonomy;
  /** Order of the term within its taxonomy on the listing (features keep the author's order). */
  position: Generated<number>;
  /**
   * Copies of the listing's state, price and `property_city` term (0006), kept by triggers
   * (db/dialect/ddl/search-triggers.ts), so that a term filter reads one index on
   * `(term_id, status, city_id, price, listing_id)` without visiting the listings. Never written by the
   * application; null only for a listing without price or city.
   */
  status: Generated<ListingState | null>;
  price: Generated<number | null>;
  city_id: Generated<number | null>;
}

interface FavoritesTable {
  user_id: number;
  listing_id: number;
  created_at: string;
}

export type NewListing = Insertable<ListingsTable>;

export type ListingRow = Selectable<ListingsTable>;

export type ListingUpdate = Updateable<ListingsTable>;
