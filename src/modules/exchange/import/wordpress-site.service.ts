import type { Kysely } from 'kysely';
import type { FeedListing, FeedListingState, FeedRecord } from '../../../adapters/feeds/feed-records.js';
import type { WxrRecord } from '../../../adapters/feeds/wxr/wxr-reader.js';
import type { DB } from '../../../db/schema/index.js';
import { translate } from '../../../i18n/index.js';
import { AppError } from '../../../lib/errors.js';
import { slugify, sortKey } from '../../../lib/slug.js';
import type { AccountsService } from '../../accounts/index.js';
import type { DirectoryServices } from '../../directory/index.js';
import type { TaxonomiesService } from '../../taxonomies/index.js';
import { FeedDirectory } from './feed-directory.service.js';
import * as repository from './feed-import.repository.js';
import type { FeedImporter } from './feed-importer.service.js';
import type { ImportOptions, ImportSummary, ListingRecord } from './import-summary.js';

/** Location terms come from the listings' own chains (country › state › city › area), which WXR does not keep. */
const LOCATIONS = new Set(['property_country', 'property_state', 'property_city', 'property_area']);

export interface SiteImportSummary extends ImportSummary {
  /** Accounts made for the site's authors, agents and agencies (none when they existed already, by e-mail). */
  accountsCreated: number;
  /** Pictures left out because they are on another host than the site's (and not in IMPORT_ALLOWED_HOSTS). */
  picturesSkipped: number;
  report: MigrationReport;
}

/**
 * What moved and what did not, by kind (docs/data-exchange.md, "The migration report"); in a dry run, what would.
 * Listings, pictures, plans and attachments count the listings imported (created, updated or unchanged), not the
 * rejected ones; `read` counts what the export holds, `created` what was made here.
 */
export interface MigrationReport {
  /** The listings imported, by their state. */
  listings: Partial<Record<FeedListingState, number>>;
  agents: { read: number; created: number };
  agencies: { read: number; created: number };
  /** Terms of the type, status, feature and label taxonomies (places come from the listings themselves). */
  terms: { read: number; created: number };
  accounts: { created: number };
  /** The pictures of the imported listings fetched from the site's host (or an allowed one); the others skipped. */
  pictures: { fetched: number; skipped: number };
  /** Floor plans of the imported listings, multi-units included. */
  plans: number;
  /**
   * Attachments of the imported listings (brochures): PDFs on the site's host (or an allowed one) carried as the
   * listings' documents, fetched like the pictures; the others (not PDF: each a warning; on another host) not.
   */
  attachments: { carried: number; notCarried: number };
  /** Old permalinks (`<link>`) of the listings, agents and agencies written, kept as redirects to their pages here. */
  redirects: number;
  warnings: number;
  rejected: number;
}

/**
 * Moves a WordPress site running Houzez over (docs/data-exchange.md, "WordPress"): its terms with their parents,
 * its agencies and agents, its authors as accounts without passwords, then its properties through the feed
 * import (a sync, like any feed: run it again and it writes only what changed). The feed import makes the agencies
 * and agents (feed-directory.service.ts); authors are matched to accounts by e-mail in the same FeedDirectory, so
 * that an author with an agent's e-mail is that agent's account.
 */
export class WordPressSiteImporter {
  constructor(
    private readonly deps: SiteDeps,
    private readonly importer: FeedImporter,
  ) {}

  /** `records`: the export as adapters/feeds/wxr reads it (readWxrSite), here or on a reading thread. */
  async run(records: AsyncIterable<WxrRecord>, options: Omit<ImportOptions, 'ownerOf'>): Promise<SiteImportSummary> {
    const directory = new FeedDirectory(this.deps, options);
    const site = new SiteRun(this.deps, directory, options);
    const ownerOf = (owner: string) => directory.accountOf(owner);
    const onImported = (record: ListingRecord, listing: FeedListing) => site.imported(record, listing);
    const summary = await this.importer.run(site.records(records), { ...options, ownerOf, onImported }, directory);
    const report: MigrationReport = {
      ...site.report,
      agents: { read: site.report.agents.read, created: summary.agentsCreated },
      agencies: { read: site.report.agencies.read, created: summary.agenciesCreated },
      accounts: { created: directory.accountsCreated },
      redirects: summary.redirectsKept,
      warnings: summary.warnings,
      rejected: summary.rejected,
    };
    return { ...summary, accountsCreated: directory.accountsCreated, picturesSkipped: site.picturesSkipped, report };
  }
}

export interface SiteDeps {
  db: Kysely<DB>;
  users: AccountsService;
  directory: DirectoryServices;
  taxonomies: TaxonomiesService;
  /** IMPORT_ALLOWED_HOSTS: hosts pictures may come from besides the site's own. */
  allowedHosts: readonly string[];
}

/** One site import: the authors, the terms by slug, the site's host. */
class SiteRun {
  picturesSkipped = 0;
  /** The report's counts this run keeps (the rest come from the feed import's summary). */
  readonly report: MigrationReport = {
    listings: {},
    agents: { read: 0, created: 0 },
    agencies: { read: 0, created: 0 },
    terms: { read: 0, created: 0 },
    accounts: { created: 0 },
    pictures: { fetched: 0, skipped: 0 },
    plans: 0,
    attachments: { carried: 0, notCarried: 0 },
    redirects: 0,
    warnings: 0,
    rejected: 0,
  };
  /** A listing record's attachments not carried and skipped pictures until the import says whether it was imported. */
  private readonly pending = new WeakMap<ListingRecord, { attachments: number; skipped: number }>();
  private readonly authors = new Map<string, Extract<WxrRecord, { kind: 'author' }>>();
  private readonly agentEmails = new Set<string>();
  private readonly termIds = new Map<string, number>();
  private readonly pictureHosts = new Set<string>();
  private authorsDone = false;
  private readonly dryRun: boolean;

  constructor(
    private readonly deps: SiteDeps,
    private readonly directory: FeedDirectory,
    options: Omit<ImportOptions, 'ownerOf'>,
  ) {
    this.dryRun = options.dryRun ?? false;
    for (const host of deps.allowedHosts) this.pictureHosts.add(host);
  }

  /** The site's records as feed records: terms are written on the way; agencies, agents and listings passed on. */
  async *records(site: AsyncIterable<WxrRecord>): AsyncGenerator<FeedRecord> {
    for await (const record of site) {
      const unreadable = await this.apply(record);
      if (unreadable) yield unreadable;
      if (record.kind === 'agency') {
        this.report.agencies.read++;
        yield { kind: 'agency', at: record.at, agency: record.agency };
      } else if (record.kind === 'agent') {
        this.report.agents.read++;
        if (record.agent.email) this.agentEmails.add(record.agent.email.toLowerCase());
        yield { kind: 'agent', at: record.at, agent: record.agent };
      } else if (record.kind === 'listing') {
        await this.finishAuthors();
        const author = this.authors.get(record.authorLogin);
        const images = record.listing.images?.filter((url) => this.pictureHosts.has(hostOf(url)));
        this.picturesSkipped += (record.listing.images?.length ?? 0) - (images?.length ?? 0);
        const listing = images === undefined ? record.listing : { ...record.listing, images };
        // WXR carries the whole listing: no documents is an empty list (an update drops those it had).
        const documents = record.documents.filter((url) => this.pictureHosts.has(hostOf(url)));
        const notPdf = record.warnings.filter((warning) => warning.field === 'attachments').length;
        const feedRecord: ListingRecord = {
          kind: 'listing',
          at: record.at,
          listing,
          documents,
          ...(author?.email ? { owner: author.email } : {}),
          ...(record.warnings.length > 0 ? { warnings: record.warnings } : {}),
        };
        const skipped = (record.listing.images?.length ?? 0) - (images?.length ?? 0);
        const notCarried = notPdf + record.documents.length - documents.length;
        if (notCarried > 0 || skipped > 0) this.pending.set(feedRecord, { attachments: notCarried, skipped });
        yield feedRecord;
      } else if (record.kind === 'unreadable') yield record;
    }
    await this.finishAuthors();
  }

  /** Counts an imported listing (created, updated or unchanged) for the report. */
  imported(record: ListingRecord, listing: FeedListing): void {
    const { report } = this;
    const state = listing.status ?? 'publish';
    report.listings[state] = (report.listings[state] ?? 0) + 1;
    report.pictures.fetched += listing.images?.length ?? 0;
    report.plans += listing.floor_plans?.length ?? 0;
    report.attachments.carried += record.documents?.length ?? 0;
    const pending = this.pending.get(record);
    if (pending) {
      report.attachments.notCarried += pending.attachments;
      report.pictures.skipped += pending.skipped;
    }
  }

  /** Writes what a site record stands for; a problem comes back as an unreadable record for the report. */
  private async apply(record: WxrRecord): Promise<FeedRecord | undefined> {
    if (record.kind === 'site') this.pictureHosts.add(hostOf(record.url));
    if (record.kind === 'term' && !LOCATIONS.has(record.taxonomy)) this.report.terms.read++;
    // A dry run writes nothing: no terms, no accounts (its listings are checked and counted by the feed import);
    // it only looks up which terms would be made, for the report.
    if (this.dryRun) {
      if (record.kind === 'term') await this.termWouldBeMade(record);
      return undefined;
    }
    try {
      if (record.kind === 'term') await this.term(record);
      else if (record.kind === 'author') this.authors.set(record.login, record);
    } catch (error) {
      if (!(error instanceof AppError) || error.fields.length === 0) throw error;
      const [first] = error.fields;
      return { kind: 'unreadable', at: record.at, field: first!.field, reason: translate('en', first!.key, first!.params) };
    }
    return undefined;
  }

  /** A term with its parent (the file lists parents first); kept when the site has one of that slug or name. */
  private async term(record: Extract<WxrRecord, { kind: 'term' }>): Promise<void> {
    if (LOCATIONS.has(record.taxonomy)) return;
    const { db, taxonomies } = this.deps;
    const [found] = await repository.findTermsByName(db, record.taxonomy, [sortKey(record.name)], [record.slug]);
    const parent = record.parentSlug === undefined ? undefined : this.termIds.get(`${record.taxonomy}\n${record.parentSlug}`);
    if (!found) this.report.terms.created++;
    const id = found?.id ?? (await taxonomies.createTerm(record.taxonomy, { name: record.name, slug: slugify(record.slug), parent })).id;
    this.termIds.set(`${record.taxonomy}\n${record.slug}`, id);
  }

  /** A dry run's term: counted as made when the site has none of its slug or name (nor did the file before it). */
  private async termWouldBeMade(record: Extract<WxrRecord, { kind: 'term' }>): Promise<void> {
    if (LOCATIONS.has(record.taxonomy)) return;
    const key = `${record.taxonomy}\n${record.slug}`;
    if (this.termIds.has(key)) return;
    const [found] = await repository.findTermsByName(this.deps.db, record.taxonomy, [sortKey(record.name)], [record.slug]);
    if (!found) this.report.terms.created++;
    this.termIds.set(key, found?.id ?? 0);
  }

  /** Authors whose e-mail is no agent's become owners' accounts, once the agents are known (they come first). */
  private async finishAuthors(): Promise<void> {
    if (this.authorsDone || this.dryRun) return;
    this.authorsDone = true;
    for (const author of this.authors.values()) {
      if (!author.email || this.agentEmails.has(author.email.toLowerCase())) continue;
      await this.directory.owner(author.email, author.firstName || author.displayName || author.login, author.lastName, author.login);
    }
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}
