import type { Kysely } from 'kysely';
import type { FeedRecord } from '../../../adapters/feeds/feed-records.js';
import type { DB } from '../../../db/schema/index.js';
import { type DraftRules, ListingBulkWriter, type PropertiesService } from '../../properties/index.js';
import type { TaxonomiesService } from '../../taxonomies/index.js';
import type { FeedExporter } from '../export/feed-export.service.js';
import type { FeedPictures } from '../pictures/feed-pictures.service.js';
import type { Redirects } from '../redirects/redirects.service.js';
import { FeedDirectory, type FeedDirectoryDeps } from './feed-directory.service.js';
import { FeedReferences } from './feed-references.service.js';
import { ImportRun } from './import-run.js';
import type { ImportOptions, ImportSummary } from './import-summary.js';
import { OwnListings } from './own-listings.service.js';

/**
 * Imports a feed's records (docs/data-exchange.md): new listings through the bulk write path in transactions
 * with their source rows, changed ones through the API's own update, unchanged ones not at all.
 */
export class FeedImporter {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly properties: PropertiesService,
    private readonly taxonomies: TaxonomiesService,
    private readonly pictures: FeedPictures,
    private readonly rules: DraftRules,
    private readonly people: FeedDirectoryDeps,
    private readonly exporter: FeedExporter,
    private readonly redirects: Redirects,
  ) {}

  /**
   * `directory`: the agents, agencies and accounts of an import that makes accounts of its own too (a WordPress
   * site's authors), so that both see the same ones.
   */
  async run(
    records: AsyncIterable<FeedRecord>,
    options: ImportOptions,
    directory = new FeedDirectory(this.people, options),
  ): Promise<ImportSummary> {
    const references = new FeedReferences(this.db, this.taxonomies, options.directoryIds ?? false);
    const own = new OwnListings(this.exporter, this.properties, this.people.users, options);
    const run = new ImportRun(this.db, this.properties, this.pictures, references, directory, own, this.redirects, this.rules, options);
    const writer = new ListingBulkWriter(this.db);
    const drafts = run.newListingDrafts(records);
    if (options.dryRun) {
      // Nothing to write: reading the drafts runs the checks and counts.
      for await (const _ of drafts);
    } else {
      await writer.write(drafts, {
        mode: 'live',
        onWritten: (trx, ids, written) => run.recordSources(trx, ids, written),
      });
    }
    if (options.withdrawMissing && !run.stopped) await run.withdrawMissing();
    options.onProgress?.({ ...run.counts });
    return {
      ...run.counts,
      dryRun: options.dryRun ?? false,
      agentsCreated: directory.created.agent,
      agenciesCreated: directory.created.agency,
      stopped: run.stopped,
      rejections: run.rejections,
      reportedWarnings: run.warnings,
      redirectsKept: run.redirectsKept,
    };
  }
}
