import type { AppModule, Platform } from '../module.js';
import type { PropertiesServices } from '../properties/index.js';
import type { TaxonomiesService } from '../taxonomies/index.js';
import { FeedExporter } from './export/feed-export.service.js';
import { FeedImporter } from './import/feed-import.service.js';

export interface ExchangeServices {
  /** Reads feeds into listings: creates, updates, withdraws (docs/data-exchange.md). */
  feedImporter: FeedImporter;
  /** Streams listings, agents and agencies as feed records. */
  feedExporter: FeedExporter;
}

/** Data in and out: feed imports and exports in the industry's formats. */
export function createExchangeModule(
  { config, database, storage }: Platform,
  deps: Pick<PropertiesServices, 'properties'> & { taxonomies: TaxonomiesService },
): AppModule<ExchangeServices> {
  const feedImporter = new FeedImporter(database.db, deps.properties, deps.taxonomies, {
    defaultCurrency: config.listings.defaultCurrency,
    ttlDays: config.listings.ttlDays,
  });
  return { services: { feedImporter, feedExporter: new FeedExporter(database.db, storage) } };
}

export { FEED_FORMATS, FEED_FORMAT_NAMES, type FeedFormat, isFeedFormat } from './feed-formats.js';
export type { ExportScope } from './export/feed-export.service.js';
export type { ImportCounts, ImportOptions, ImportSummary, Rejection } from './import/feed-import.service.js';
