import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The one typed view of the database, the same for SQLite and PostgreSQL.
 * Portable storage choices (they keep both dialects answering identically):
 * - timestamps are ISO 8601 UTC text with milliseconds (`2026-11-21T10:00:00.000Z`), which sorts as time;
 * - booleans are integers 0/1;
 * - structured values (floor plans, …) are JSON text.
 */
export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  terms: TermsTable;
  listings: ListingsTable;
  listing_terms: ListingTermsTable;
  cache_versions: CacheVersionsTable;
}

export const ROLES = ['administrator', 'manager', 'agency', 'agent', 'owner', 'seller', 'buyer'] as const;
export type Role = (typeof ROLES)[number];

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Stored lower-cased, so that uniqueness and look-ups ignore case on both dialects. */
  email: string;
  /** Null for accounts that only sign in through a social provider. */
  password_hash: string | null;
  role: Role;
  status: Generated<'active' | 'suspended'>;
  display_name: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  phone: Generated<string>;
  mobile: Generated<string>;
  whatsapp: Generated<string>;
  bio: Generated<string>;
  website: Generated<string>;
  language: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** Random, unguessable: it is the `sid` claim of every access token of the session. */
  id: string;
  user_id: number;
  /** SHA-256 of the current refresh token; the token itself is never stored. */
  refresh_token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
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

export interface TermsTable {
  id: Generated<number>;
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  /** Accent- and case-folded name (terms.sort-key.ts): the portable sort and search key. */
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
  /** Published listings using the term, kept exact by database triggers (db/dialect/term-triggers.ts). */
  count: Generated<number>;
  created_at: string;
  updated_at: string;
}

export const LISTING_STATES = ['draft', 'pending', 'publish', 'on_hold', 'disapproved', 'expired', 'sold'] as const;
export type ListingState = (typeof LISTING_STATES)[number];

export interface ListingsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  description: Generated<string>;
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
  created_at: string;
  updated_at: string;
  published_at: string | null;
  expires_at: string | null;
}

export interface ListingTermsTable {
  listing_id: number;
  term_id: number;
  taxonomy: Taxonomy;
  /** Order of the term within its taxonomy on the listing (features keep the author's order). */
  position: Generated<number>;
}

/** Stamps that change whenever a cached answer's data changes (e.g. `terms`), set by triggers. */
export interface CacheVersionsTable {
  name: string;
  version: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type TermRow = Selectable<TermsTable>;
export type NewTerm = Insertable<TermsTable>;
export type TermUpdate = Updateable<TermsTable>;
export type NewListing = Insertable<ListingsTable>;
