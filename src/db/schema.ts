import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { NotificationTables } from './schema-notifications.js';

/**
 * The one typed view of the database, the same for SQLite and PostgreSQL.
 * Portable storage choices (they keep both dialects answering identically):
 * - timestamps are ISO 8601 UTC text with milliseconds (`2026-11-21T10:00:00.000Z`), which sorts as time;
 * - booleans are integers 0/1;
 * - structured values (floor plans, …) are JSON text.
 */
export interface DB extends NotificationTables {
  users: UsersTable;
  sessions: SessionsTable;
  terms: TermsTable;
  listings: ListingsTable;
  listing_terms: ListingTermsTable;
  cache_versions: CacheVersionsTable;
  agencies: AgenciesTable;
  agents: AgentsTable;
  media: MediaTable;
  favorites: FavoritesTable;
  retired_refresh_tokens: RetiredRefreshTokensTable;
  password_resets: PasswordResetsTable;
  login_locks: LoginLocksTable;
  social_accounts: SocialAccountsTable;
  outbox: OutboxTable;
  listing_agents: ListingAgentsTable;
  listing_transitions: ListingTransitionsTable;
  agent_terms: AgentTermsTable;
  reviews: ReviewsTable;
  review_reactions: ReviewReactionsTable;
  leads: LeadsTable;
  lead_recipients: LeadRecipientsTable;
  domain_events: DomainEventsTable;
  packages: PackagesTable;
  memberships: MembershipsTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  stripe_events: StripeEventsTable;
  saved_searches: SavedSearchesTable;
  saved_search_matches: SavedSearchMatchesTable;
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
  avatar_media_id: Generated<number | null>;
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
  /** JSON array of floor plans (API.md 4.1), image URLs absolute. */
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
   * (modules/search/search-columns.repository.ts). The words of title, description, address, zipcode and
   * reference (lib/search-tokens.ts) joined by single spaces; indexed by `listings_fts` (SQLite) or a GIN
   * index (PostgreSQL), see db/dialect/full-text.ts.
   */
  search_text: Generated<string>;
  /** The words of the title alone: relevance counts the keyword's words found here. */
  title_tokens: Generated<string>;
  /**
   * Z-order key of the point's grid cell (modules/search/geo.ts), null without coordinates. A bigint:
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
export interface ListingAgentsTable {
  listing_id: number;
  agent_id: number;
  position: Generated<number>;
}

/** Every move of a listing between states (API.md 3.3); `from_state` is null for the creation. */
export interface ListingTransitionsTable {
  id: Generated<number>;
  listing_id: number;
  from_state: ListingState | null;
  to_state: ListingState;
  actor_id: number | null;
  reason: Generated<string>;
  at: string;
}

export interface ListingTermsTable {
  listing_id: number;
  term_id: number;
  taxonomy: Taxonomy;
  /** Order of the term within its taxonomy on the listing (features keep the author's order). */
  position: Generated<number>;
  /**
   * Copies of the listing's state, price and `property_city` term (0006), kept by triggers
   * (db/dialect/search-triggers.ts), so that a term filter reads one index on
   * `(term_id, status, city_id, price, listing_id)` without visiting the listings. Never written by the
   * application; null only for a listing without price or city.
   */
  status: Generated<ListingState | null>;
  price: Generated<number | null>;
  city_id: Generated<number | null>;
}

/** Stamps that change whenever a cached answer's data changes (e.g. `terms`), set by triggers. */
export interface CacheVersionsTable {
  name: string;
  version: string;
}

export interface AgenciesTable {
  id: Generated<number>;
  user_id: number | null;
  name: string;
  slug: string;
  sort_key: string;
  email: Generated<string>;
  phone: Generated<string>;
  description: Generated<string>;
  mobile: Generated<string>;
  whatsapp: Generated<string>;
  fax: Generated<string>;
  website: Generated<string>;
  license: Generated<string>;
  tax_number: Generated<string>;
  address: Generated<string>;
  latitude: Generated<number | null>;
  longitude: Generated<number | null>;
  /** JSON object of profile URLs (API.md 5.1 `social`). */
  social: Generated<string>;
  logo_media_id: Generated<number | null>;
  /** Sum of the ratings of the agency's reviews; the average is computed from it and `reviews_count`. */
  rating_sum: Generated<number>;
  reviews_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface AgentsTable {
  id: Generated<number>;
  user_id: number | null;
  agency_id: number | null;
  name: string;
  slug: string;
  sort_key: string;
  email: Generated<string>;
  phone: Generated<string>;
  visible: Generated<number>;
  position: Generated<string>;
  company: Generated<string>;
  bio: Generated<string>;
  mobile: Generated<string>;
  whatsapp: Generated<string>;
  fax: Generated<string>;
  website: Generated<string>;
  license: Generated<string>;
  tax_number: Generated<string>;
  service_areas: Generated<string>;
  specialties: Generated<string>;
  /** JSON array of language names. */
  languages: Generated<string>;
  /** JSON object of profile URLs (API.md 5.1 `social`). */
  social: Generated<string>;
  picture_media_id: Generated<number | null>;
  /** Sum of the ratings of the agent's reviews; the average is computed from it and `reviews_count`. */
  rating_sum: Generated<number>;
  reviews_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface MediaTable {
  id: Generated<number>;
  owner_id: number;
  /** The listing whose gallery or documents hold this file, if any. */
  listing_id: number | null;
  position: Generated<number>;
  /** Generated storage name of the original (adapters/storage); never derived from the client's file name. */
  storage_key: string;
  mime_type: string;
  width: number | null;
  height: number | null;
  size_bytes: number;
  title: Generated<string>;
  caption: Generated<string>;
  alt: Generated<string>;
  description: Generated<string>;
  /** JSON: `{ thumbnail|medium|large: { key, width, height } }`, empty for documents. */
  sizes: Generated<string>;
  created_at: string;
}

export interface FavoritesTable {
  user_id: number;
  listing_id: number;
  created_at: string;
}

export interface RetiredRefreshTokensTable {
  /** SHA-256 of a refresh token the session has rotated away. */
  token_hash: string;
  session_id: string;
  retired_at: string;
}

export interface PasswordResetsTable {
  /** SHA-256 of the token mailed to the user. */
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface LoginLocksTable {
  /** The lower-cased username or e-mail a login named, whether or not an account has it. */
  login_key: string;
  failures: number;
  window_started_at: string;
  locked_until: string | null;
}

export const SOCIAL_PROVIDERS = ['google', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export interface SocialAccountsTable {
  provider: SocialProvider;
  /** The provider's stable user id (`sub` for Google, the user id for Facebook). */
  subject: string;
  user_id: number;
  created_at: string;
}

export const OUTBOX_STATES = ['pending', 'sent', 'dead'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export interface OutboxTable {
  id: Generated<number>;
  /** `email`, `stripe_subscription`, and the notifications' `notification_email` and `notification_push`. */
  channel: string;
  /** Unique: enqueuing the same message twice stores it once, and receivers can drop repeats. */
  idempotency_key: string;
  /** JSON of the channel's message. */
  payload: string;
  status: Generated<OutboxState>;
  attempts: Generated<number>;
  /** When the message may next be claimed: now, after a back-off, or after a claim's lease runs out. */
  available_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface AgentTermsTable {
  agent_id: number;
  term_id: number;
  /** `agent_category` or `agent_city`. */
  taxonomy: Taxonomy;
  position: Generated<number>;
}

export type ReviewTarget = 'property' | 'agent' | 'agency';
export type Reaction = 'like' | 'dislike';

export interface ReviewsTable {
  id: Generated<number>;
  target_type: ReviewTarget;
  target_id: number;
  /** Null once the author's account is deleted. */
  author_id: number | null;
  rating: number;
  title: Generated<string>;
  content: string;
  created_at: string;
  updated_at: string;
}

export interface ReviewReactionsTable {
  review_id: number;
  user_id: number;
  reaction: Reaction;
  created_at: string;
}

export type LeadTarget = 'property' | 'agent' | 'agency';

export interface LeadsTable {
  id: Generated<number>;
  target_type: LeadTarget;
  property_id: number | null;
  agent_id: number | null;
  agency_id: number | null;
  sender_user_id: number | null;
  name: string;
  email: string;
  phone: Generated<string>;
  message: string;
  user_type: Generated<string>;
  created_at: string;
}

export interface LeadRecipientsTable {
  lead_id: number;
  user_id: number;
}

export interface DomainEventsTable {
  id: Generated<number>;
  /** e.g. `new_lead`, `new_review`. */
  type: string;
  /** JSON object. */
  payload: string;
  created_at: string;
  /** Set by the notifications module once the event has been turned into notifications. */
  processed_at: Generated<string | null>;
}

export type BillingPeriod = 'day' | 'week' | 'month' | 'year' | 'one_time';

/** Money is integer minor units (`*_minor`), tax rates basis points (`*_bp`): see migration 0005. */
export interface PackagesTable {
  id: Generated<number>;
  title: string;
  description: Generated<string>;
  price_minor: number;
  currency: string;
  tax_rate_bp: Generated<number>;
  /** Null: unlimited. */
  listings_included: number | null;
  featured_included: Generated<number>;
  billing_period: BillingPeriod;
  billing_frequency: Generated<number>;
  visible: Generated<number>;
  popular: Generated<number>;
  sort_order: Generated<number>;
  created_at: string;
  updated_at: string;
}

export type MembershipStatus = 'active' | 'expired' | 'cancelled';

export interface MembershipsTable {
  id: Generated<number>;
  user_id: number;
  package_id: number;
  status: MembershipStatus;
  /** Null: unlimited. */
  remaining_listings: number | null;
  remaining_featured: Generated<number>;
  started_at: string;
  /** Null: a one-time package without an end date. */
  expires_at: string | null;
  auto_renew: Generated<number>;
  stripe_subscription_id: Generated<string | null>;
  expiry_notice_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface InvoiceCountersTable {
  year: number;
  last_number: number;
}

export type InvoiceItemType = 'package' | 'listing' | 'featured';
export type InvoiceStatus = 'pending' | 'paid' | 'cancelled' | 'refunded';
export type PaymentMethod = 'stripe' | 'bank_transfer' | 'free';

export interface InvoicesTable {
  id: Generated<number>;
  number: string;
  buyer_id: number | null;
  buyer_name: string;
  buyer_email: string;
  item_type: InvoiceItemType;
  item_id: number;
  item_title: string;
  amount_minor: number;
  tax_minor: number;
  total_minor: number;
  currency: string;
  tax_rate_bp: number;
  status: InvoiceStatus;
  payment_method: PaymentMethod;
  recurring: Generated<number>;
  stripe_session_id: Generated<string | null>;
  stripe_invoice_id: Generated<string | null>;
  stripe_subscription_id: Generated<string | null>;
  archived_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
  paid_at: Generated<string | null>;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: string;
}

export type SavedSearchFrequency = 'instant' | 'daily' | 'weekly';

/** API.md 7: a user's search, kept as its canonical query string (migration 0007). */
export interface SavedSearchesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  query_string: string;
  email_alerts: Generated<number>;
  frequency: Generated<SavedSearchFrequency>;
  last_notified_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

/** A listing that matched a saved search, announced once (filled by the alerts job of the notifications issue). */
export interface SavedSearchMatchesTable {
  saved_search_id: number;
  listing_id: number;
  matched_at: string;
  /** Null until the match was announced (at once, or in the next digest). */
  notified_at: Generated<string | null>;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type TermRow = Selectable<TermsTable>;
export type NewTerm = Insertable<TermsTable>;
export type TermUpdate = Updateable<TermsTable>;
export type NewListing = Insertable<ListingsTable>;
export type ListingRow = Selectable<ListingsTable>;
export type ListingUpdate = Updateable<ListingsTable>;
export type MediaRow = Selectable<MediaTable>;
export type NewMedia = Insertable<MediaTable>;
export type OutboxRow = Selectable<OutboxTable>;
