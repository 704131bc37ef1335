import type { AccountsTables } from './accounts.js';
import type { TaxonomiesTables } from './taxonomies.js';
import type { ListingsTables } from './listings.js';
import type { DirectoryTables } from './directory.js';
import type { MediaTables } from './media.js';
import type { ReviewsLeadsTables } from './reviews-leads.js';
import type { PaymentsTables } from './payments.js';
import type { SavedSearchesTables } from './saved-searches.js';
import type { NotificationsTables } from './notifications.js';
import type { PlatformTables } from './platform.js';
import type { ExchangeTables } from './exchange.js';
import type { SiteSettingsTables } from './site-settings.js';
import type { WebhooksTables } from './webhooks.js';
import type { ApiClientsTables } from './api-clients.js';

/**
 * The one typed view of the database, the same for SQLite and PostgreSQL.
 * Portable storage choices (they keep both dialects answering identically):
 * - timestamps are ISO 8601 UTC text with milliseconds (`2026-11-21T10:00:00.000Z`), which sorts as time;
 * - booleans are integers 0/1;
 * - structured values (floor plans, …) are JSON text.
 */
export interface DB
  extends
    AccountsTables,
    TaxonomiesTables,
    ListingsTables,
    DirectoryTables,
    MediaTables,
    ReviewsLeadsTables,
    PaymentsTables,
    SavedSearchesTables,
    NotificationsTables,
    PlatformTables,
    ExchangeTables,
    SiteSettingsTables,
    WebhooksTables,
    ApiClientsTables {}

export * from './accounts.js';
export * from './taxonomies.js';
export * from './listings.js';
export * from './directory.js';
export * from './media.js';
export * from './reviews-leads.js';
export * from './payments.js';
export * from './saved-searches.js';
export * from './notifications.js';
export * from './exchange.js';
export * from './platform.js';
export * from './site-settings.js';
export * from './webhooks.js';
export * from './api-clients.js';
