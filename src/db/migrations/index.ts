import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_initial.js';
import * as m0002 from './0002_accounts.js';
import * as m0003 from './0003_listings.js';
import * as m0004 from './0004_directory.js';
import * as m0005 from './0005_payments.js';
import * as m0006 from './0006_search.js';
import * as m0007 from './0007_saved_searches.js';
import * as m0008 from './0008_geo_cells.js';
import * as m0009 from './0009_search_by_area.js';
import * as m0010 from './0010_notifications.js';
import * as m0011 from './0011_change_log.js';
import * as m0012 from './0012_term_counts_by_statement.js';
import * as m0013 from './0013_term_copies_by_statement.js';
import * as m0014 from './0014_change_log_once_per_statement.js';
import * as m0015 from './0015_dashboard_indexes.js';
import * as m0016 from './0016_moderation_queue_index.js';
import * as m0017 from './0017_change_log_once_per_bulk_transaction.js';
import * as m0018 from './0018_term_counts_by_listing_ids.js';
import * as m0019 from './0019_geo_cells_by_statement.js';
import * as m0020 from './0020_term_links_clustered.js';
import * as m0021 from './0021_listing_sources.js';
import * as m0022 from './0022_feed_pictures.js';
import * as m0023 from './0023_feed_tokens.js';
import * as m0024 from './0024_import_runs.js';
import * as m0025 from './0025_listing_slug_history.js';
import * as m0026 from './0026_site_settings.js';
import * as m0027 from './0027_sitemap_blocks.js';
import * as m0028 from './0028_listing_views_stamp.js';
import * as m0029 from './0029_setup_tokens.js';
import * as m0030 from './0030_site_identity.js';
import * as m0031 from './0031_redirects.js';
import * as m0032 from './0032_import_warnings.js';
import * as m0033 from './0033_feed_documents.js';
import * as m0034 from './0034_webhooks.js';
import * as m0035 from './0035_submission_fields.js';
import * as m0036 from './0036_term_centres.js';
import * as m0037 from './0037_api_clients.js';
import * as m0038 from './0038_change_log_webhook_sources.js';

/** Migrations in order. Static imports keep them inside the compiled bundle (no directory scanning). */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_accounts': m0002,
  '0003_listings': m0003,
  '0004_directory': m0004,
  '0005_payments': m0005,
  '0006_search': m0006,
  '0007_saved_searches': m0007,
  '0008_geo_cells': m0008,
  '0009_search_by_area': m0009,
  '0010_notifications': m0010,
  '0011_change_log': m0011,
  '0012_term_counts_by_statement': m0012,
  '0013_term_copies_by_statement': m0013,
  '0014_change_log_once_per_statement': m0014,
  '0015_dashboard_indexes': m0015,
  '0016_moderation_queue_index': m0016,
  '0017_change_log_once_per_bulk_transaction': m0017,
  '0018_term_counts_by_listing_ids': m0018,
  '0019_geo_cells_by_statement': m0019,
  '0020_term_links_clustered': m0020,
  '0021_listing_sources': m0021,
  '0022_feed_pictures': m0022,
  '0023_feed_tokens': m0023,
  '0024_import_runs': m0024,
  '0025_listing_slug_history': m0025,
  '0026_site_settings': m0026,
  '0027_sitemap_blocks': m0027,
  '0028_listing_views_stamp': m0028,
  '0029_setup_tokens': m0029,
  '0030_site_identity': m0030,
  '0031_redirects': m0031,
  '0032_import_warnings': m0032,
  '0033_feed_documents': m0033,
  '0034_webhooks': m0034,
  '0035_submission_fields': m0035,
  '0036_term_centres': m0036,
  '0037_api_clients': m0037,
  '0038_change_log_webhook_sources': m0038,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};

export const MIGRATION_NAMES = Object.keys(MIGRATIONS);
