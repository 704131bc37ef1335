import type { DB } from '../db/schema/index.js';

/**
 * Which module owns each table: the only module whose SQL may insert, update or delete its rows. Another
 * module that needs a change there calls the owner's service (properties moves listing states, accounts sets
 * an avatar), passing its transaction when the change belongs to one. Reading across modules stays allowed.
 *
 * `platform` tables are the durable-work machinery below the modules (docs/architecture.md): written by the
 * writers in `src/db/` (outbox, domain events, change log, cache stamps) in the caller's transaction and by
 * `src/jobs/`, never by a module's own SQL.
 *
 * Typed by `keyof DB`, so a table added to `src/db/schema/` does not compile until it has an owner here, and
 * test/architecture.test.ts checks every repository's writes against this map.
 */
export const TABLE_OWNERS = {
  // accounts: the account core (schema/accounts.ts), sign-in state in auth, linked providers in social
  users: 'accounts',
  sessions: 'auth',
  retired_refresh_tokens: 'auth',
  password_resets: 'auth',
  login_locks: 'auth',
  setup_tokens: 'auth',
  social_accounts: 'social',
  // schema/taxonomies.ts
  terms: 'taxonomies',
  // schema/listings.ts
  listings: 'properties',
  listing_terms: 'properties',
  favorites: 'properties',
  listing_agents: 'properties',
  listing_transitions: 'properties',
  listing_slug_history: 'properties',
  // schema/directory.ts
  agencies: 'directory',
  agents: 'directory',
  agent_terms: 'directory',
  // schema/media.ts
  media: 'media',
  // schema/reviews-leads.ts
  reviews: 'reviews',
  review_reactions: 'reviews',
  leads: 'leads',
  lead_recipients: 'leads',
  // schema/payments.ts
  packages: 'payments',
  memberships: 'payments',
  invoice_counters: 'payments',
  invoices: 'payments',
  stripe_events: 'payments',
  // schema/saved-searches.ts
  saved_searches: 'saved-searches',
  saved_search_matches: 'saved-searches',
  // schema/notifications.ts
  notifications: 'notifications',
  notification_preferences: 'notifications',
  devices: 'notifications',
  broadcasts: 'notifications',
  // schema/exchange.ts
  listing_sources: 'exchange',
  feed_pictures: 'exchange',
  feed_tokens: 'exchange',
  feed_sources: 'exchange',
  import_runs: 'exchange',
  import_rejections: 'exchange',
  import_warnings: 'exchange',
  site_identity: 'exchange',
  redirects: 'exchange',
  // schema/site-settings.ts
  site_settings: 'site-settings',
  // schema/webhooks.ts
  webhook_endpoints: 'webhooks',
  webhook_events: 'webhooks',
  webhook_deliveries: 'webhooks',
  webhook_follower: 'webhooks',
  webhook_snapshots: 'webhooks',
  webhook_settings: 'webhooks',
  // schema/api-clients.ts
  api_clients: 'api-clients',
  api_client_secrets: 'api-clients',
  api_client_tokens: 'api-clients',
  // schema/platform.ts
  cache_versions: 'platform',
  change_log: 'platform',
  outbox: 'platform',
  domain_events: 'platform',
  scheduled_jobs: 'platform',
} as const satisfies Record<keyof DB, string>;
