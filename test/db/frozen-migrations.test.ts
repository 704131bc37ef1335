import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Migrations are frozen once shipped: a database migrated last year and one migrated today must have run the
 * same DDL. So each migration file and each DDL snapshot it runs (src/db/dialect/ddl/) is recorded here by
 * the SHA-256 of its text as it shipped (first 16 hex digits). A change to the schema is a new migration, with
 * new snapshots where its DDL differs; a new file is recorded here in the commit that adds it.
 */
const SHIPPED: Readonly<Record<string, string>> = {
  'src/db/dialect/ddl/api-client-triggers.ts': '2fc3d52470f9ba9f',
  'src/db/dialect/ddl/change-log-once-per-statement.ts': '79e7b66573fa0763',
  'src/db/dialect/ddl/change-log-once-per-bulk-transaction.ts': '5a20dfc8cf33eb90',
  'src/db/dialect/ddl/change-log-webhook-sources.ts': '8e69e8df3573cfa2',
  'src/db/dialect/ddl/change-log.ts': 'a9d9089647a08935',
  'src/db/dialect/ddl/columns.ts': '780b84553994f090',
  'src/db/dialect/ddl/deferred-stamps.ts': '45abd620c22f4e03',
  'src/db/dialect/ddl/directory-triggers.ts': 'c3b9b99dc077d60c',
  'src/db/dialect/ddl/geo-cell-triggers.ts': 'c6986856908eb662',
  'src/db/dialect/ddl/geo-cells-by-statement.ts': '3cb9522c2e9abcab',
  'src/db/dialect/ddl/keyword-index.ts': '269c8d1662c13c22',
  'src/db/dialect/ddl/listing-triggers.ts': '29df37fd8d68a019',
  'src/db/dialect/ddl/listing-views-stamp.ts': 'b4e79c8d2e61d7ae',
  'src/db/dialect/ddl/media-keys.ts': '88ae9daafa4cfc82',
  'src/db/dialect/ddl/search-triggers.ts': '5cc4f5b23d25a853',
  'src/db/dialect/ddl/session-triggers.ts': 'abb09271e4798223',
  'src/db/dialect/ddl/site-settings-stamp.ts': '55df7f8dcaf0e36f',
  'src/db/dialect/ddl/term-copies-by-statement.ts': 'f0069f47e55e8c90',
  'src/db/dialect/ddl/term-count-statements.ts': '6c59539d91073b74',
  'src/db/dialect/ddl/term-counts-by-listing-ids.ts': '98901395b256b19a',
  'src/db/dialect/ddl/term-links-clustered.ts': 'd1f2042d268bb970',
  'src/db/dialect/ddl/term-triggers.ts': 'de1185cce75b0b4c',
  'src/db/migrations/0001_initial.ts': '36bcbbdf18112110',
  'src/db/migrations/0002_accounts.ts': 'b5a69b2e1eef19a6',
  'src/db/migrations/0003_listings.ts': '609f49b687799034',
  'src/db/migrations/0004_directory.ts': 'bf88d98d70f546ca',
  'src/db/migrations/0005_payments.ts': '706a73e11d251cd7',
  'src/db/migrations/0006_search.ts': '94fe7d7056207b69',
  'src/db/migrations/0007_saved_searches.ts': '20254f997697be25',
  'src/db/migrations/0008_geo_cells.ts': '4d5d55123a3fc077',
  'src/db/migrations/0009_search_by_area.ts': '65bca77751eff32a',
  'src/db/migrations/0010_notifications.ts': 'd1cc27ccc2768d8d',
  'src/db/migrations/0011_change_log.ts': '7dfc44e9d2a6d8ab',
  'src/db/migrations/0012_term_counts_by_statement.ts': 'f29f8fc73c2f5edd',
  'src/db/migrations/0013_term_copies_by_statement.ts': 'bdbc5404989cbac5',
  'src/db/migrations/0014_change_log_once_per_statement.ts': '8c6434280e1782d0',
  'src/db/migrations/0015_dashboard_indexes.ts': '0d539746bd9789fc',
  'src/db/migrations/0016_moderation_queue_index.ts': '0f2b84db3a4d0546',
  'src/db/migrations/0017_change_log_once_per_bulk_transaction.ts': '96a631e828546f91',
  'src/db/migrations/0018_term_counts_by_listing_ids.ts': 'd47df1d9b818469b',
  'src/db/migrations/0019_geo_cells_by_statement.ts': 'f864b078e362dbd6',
  'src/db/migrations/0020_term_links_clustered.ts': 'f44e06f6fcb3d951',
  'src/db/migrations/0021_listing_sources.ts': '3c1ed98d41fe1af3',
  'src/db/migrations/0022_feed_pictures.ts': 'a8be9b7ecc12a134',
  'src/db/migrations/0023_feed_tokens.ts': '680ea310645ae3cf',
  'src/db/migrations/0024_import_runs.ts': 'e7690c064f786a6c',
  'src/db/migrations/0025_listing_slug_history.ts': '28ec157cfd5b93bf',
  'src/db/migrations/0026_site_settings.ts': '482e097f1ee724fb',
  'src/db/migrations/0027_sitemap_blocks.ts': '4b19d2f9250dfa2e',
  'src/db/migrations/0028_listing_views_stamp.ts': '3708296bde203750',
  'src/db/migrations/0029_setup_tokens.ts': '1a4c50b763436c0a',
  'src/db/migrations/0030_site_identity.ts': '944cb6d9dee986fc',
  'src/db/migrations/0031_redirects.ts': '224253ab07b9f435',
  'src/db/migrations/0032_import_warnings.ts': 'e1b8e1691ec81f2a',
  'src/db/migrations/0033_feed_documents.ts': 'e435cf4ac21412a3',
  'src/db/migrations/0034_webhooks.ts': '3b9f6bec92859c52',
  'src/db/migrations/0035_submission_fields.ts': '95524f1288bf50a4',
  'src/db/migrations/0036_term_centres.ts': '3d7d52f39458f065',
  'src/db/migrations/0037_api_clients.ts': 'fe51ef8e98c77012',
  'src/db/migrations/0038_change_log_webhook_sources.ts': '53f129f4cacb4659',
};

const FOLDERS = ['src/db/migrations', 'src/db/dialect/ddl'];
const NOT_FROZEN = new Set(['src/db/migrations/index.ts']); // the list of migrations grows with each one

function checksumsOfTree(): Record<string, string> {
  const root = new URL('../../', import.meta.url);
  const files = FOLDERS.flatMap((folder) => readdirSync(new URL(folder, root)).map((name) => `${folder}/${name}`));
  return Object.fromEntries(
    files
      .filter((file) => !NOT_FROZEN.has(file))
      .map((file) => [
        file,
        createHash('sha256')
          .update(readFileSync(new URL(file, root)))
          .digest('hex')
          .slice(0, 16),
      ]),
  );
}

describe('migrations', () => {
  it('are frozen: every shipped migration and DDL snapshot is as it ran, and every new one is recorded', () => {
    const actual = checksumsOfTree();
    const changed = Object.keys(SHIPPED).filter((file) => actual[file] !== SHIPPED[file]);
    const unrecorded = Object.keys(actual).filter((file) => !(file in SHIPPED));
    expect(changed, 'changed or removed after shipping: write a new migration instead').toEqual([]);
    expect(unrecorded, 'new files: record their checksums in SHIPPED').toEqual([]);
  });
});
