import { registerMultipart } from '../../http/multipart.js';
import { SHORT_LEASE_MS } from '../../lib/background-job.js';
import type { AccountsService } from '../accounts/index.js';
import type { DirectoryServices } from '../directory/index.js';
import type { MediaService } from '../media/index.js';
import type { AppModule, Platform } from '../module.js';
import type { PropertiesServices } from '../properties/index.js';
import type { TaxonomiesService } from '../taxonomies/index.js';
import { exportRoutes } from './export/export.routes.js';
import { FeedDownloads } from './export/feed-downloads.service.js';
import { FeedExporter } from './export/feed-export.service.js';
import { PortalFeeds } from './export/portal-feeds.service.js';
import { feedTokenRoutes } from './feed-tokens/feed-tokens.routes.js';
import { FeedToken } from './feed-tokens/feed-tokens.schemas.js';
import { FeedTokens } from './feed-tokens/feed-tokens.service.js';
import { FeedImporter } from './import/feed-importer.service.js';
import { feedSourceRoutes } from './import-runs/feed-sources.routes.js';
import { FeedSource } from './import-runs/feed-sources.schemas.js';
import { FeedSources } from './import-runs/feed-sources.service.js';
import { ImportFiles } from './import-runs/import-files.js';
import { ImportRunner } from './import-runs/import-runner.service.js';
import { importRunRoutes } from './import-runs/import-runs.routes.js';
import { ImportRun } from './import-runs/import-runs.schemas.js';
import { ImportRuns } from './import-runs/import-runs.service.js';
import { WordPressSiteImporter } from './import/wordpress-site.service.js';
import { FeedPictures } from './pictures/feed-pictures.service.js';
import { redirectRoutes } from './redirects/redirects.routes.js';
import { Redirect } from './redirects/redirects.schemas.js';
import { Redirects } from './redirects/redirects.service.js';

export interface ExchangeServices {
  /** Reads feeds into listings: creates, updates, withdraws (docs/data-exchange.md). */
  feedImporter: FeedImporter;
  /** Streams listings, agents and agencies as feed records. */
  feedExporter: FeedExporter;
  /** Feeds as HTTP downloads: who gets which listings (GET /exports/{format}). */
  feedDownloads: FeedDownloads;
  /** The portal feeds of each format, kept built while their data holds (GET /feeds/{token}). */
  portalFeeds: PortalFeeds;
  /** Portal feed tokens: secret URLs a portal pulls the published listings from (GET /feeds/{token}). */
  feedTokens: FeedTokens;
  /** Fetches the pictures feeds name into their listings' galleries (a background job). */
  feedPictures: FeedPictures;
  /** Moves a WordPress/Houzez site over from its export: directory, accounts, terms, then listings as a feed. */
  wordpressSiteImporter: WordPressSiteImporter;
  /** Imports over HTTP: uploads and URLs queued by administrators (POST /imports), and their runs' records. */
  importRuns: ImportRuns;
  /** Feed URLs pulled on a schedule (POST /imports/sources). */
  feedSources: FeedSources;
  /** The `feed-imports` job: runs the queued imports, one at a time across processes. */
  importRunner: ImportRunner;
  /** Imported records' old addresses, answered 301 to their current `url` where the path would be a 404. */
  redirects: Redirects;
}

/** A picture's download time limit: a feed file may take minutes, a picture should not. */
const PICTURE_TIMEOUT_MS = 30_000;

/** Data in and out: feed imports and exports in the industry's formats. */
export function createExchangeModule(
  { config, database, storage, log, apiBaseUrl, stamps }: Platform,
  deps: Pick<PropertiesServices, 'properties'> &
    DirectoryServices & { taxonomies: TaxonomiesService; media: MediaService; users: AccountsService },
): AppModule<ExchangeServices> {
  const feedPictures = new FeedPictures(database.db, deps.media, deps.properties, {
    allowedHosts: config.imports.allowedHosts,
    maxBytes: config.uploads.maxFileBytes,
    timeoutMs: Math.min(config.imports.fetchTimeoutMs, PICTURE_TIMEOUT_MS),
  });
  const feedExporter = new FeedExporter(database.db, storage);
  const redirects = new Redirects(database.db, {
    publicUrl: config.publicUrl,
    listingUrlTemplate: config.listings.urlTemplate,
    apiPrefix: config.apiPrefix,
  });
  const feedImporter = new FeedImporter(
    database.db,
    deps.properties,
    deps.taxonomies,
    feedPictures,
    { defaultCurrency: config.listings.defaultCurrency, ttlDays: config.listings.ttlDays },
    { db: database.db, users: deps.users, directory: deps },
    feedExporter,
    redirects,
  );
  const feedDownloads = new FeedDownloads(database.db, feedExporter);
  const portalFeeds = new PortalFeeds(feedDownloads, stamps, config.portalFeedCacheBytes);
  const feedTokens = new FeedTokens(database.db, portalFeeds, apiBaseUrl);
  const wordpressSiteImporter = new WordPressSiteImporter(
    { db: database.db, users: deps.users, directory: deps, taxonomies: deps.taxonomies, allowedHosts: config.imports.allowedHosts },
    feedImporter,
  );
  const importFiles = new ImportFiles(config.dataDir);
  const importRuns = new ImportRuns(database.db, deps.users, importFiles);
  const feedSources = new FeedSources(database.db);
  const importRunner = new ImportRunner(
    {
      db: database.db,
      feedImporter,
      siteImporter: wordpressSiteImporter,
      users: deps.users,
      files: importFiles,
      policy: {
        allowedHosts: config.imports.allowedHosts,
        maxBytes: config.imports.maxFileBytes,
        timeoutMs: config.imports.fetchTimeoutMs,
      },
      log,
    },
    feedSources,
    log,
  );
  return {
    services: {
      feedImporter,
      feedExporter,
      feedDownloads,
      portalFeeds,
      feedTokens,
      feedPictures,
      wordpressSiteImporter,
      importRuns,
      feedSources,
      importRunner,
      redirects,
    },
    schemas: [FeedToken, ImportRun, FeedSource, Redirect],
    routes: async (api) => {
      await api.register(exportRoutes, { downloads: feedDownloads });
      await api.register(feedTokenRoutes, { feedTokens, config });
      await api.register(async (uploads) => {
        await registerMultipart(uploads, config);
        await uploads.register(importRunRoutes, { importRuns, files: importFiles, maxFileBytes: config.imports.maxFileBytes });
      });
      await api.register(feedSourceRoutes, { feedSources });
      await api.register(redirectRoutes, { redirects });
    },
    jobs: [
      {
        name: 'feed-pictures',
        intervalMs: 5_000,
        leaseMs: SHORT_LEASE_MS,
        run: async (now) => {
          const more = await feedPictures.runOnce(now);
          log.debug('feed pictures fetched');
          return more;
        },
      },
      {
        // Each run waits for its import at most TICK_WAIT_MS, well inside the short lease; a longer import goes on
        // beside the next ticks under its own heartbeat (import-runner.service.ts).
        name: 'feed-imports',
        intervalMs: 5_000,
        leaseMs: SHORT_LEASE_MS,
        run: (now) => importRunner.runOnce(now),
      },
    ],
    // The running import stops reading and waits in the queue again, for this or another process.
    stop: () => importRunner.stop(),
  };
}

export { FEED_FORMATS, type FeedFormat } from './feed-formats.js';
export type { ImportOptions, ImportSummary, Rejection, Warning } from './import/import-summary.js';
export type { MigrationReport } from './import/wordpress-site.service.js';
