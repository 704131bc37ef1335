import type { Kysely } from 'kysely';
import type { CacheStamps } from '../../db/cache-versions.js';
import type { DB, ListingState } from '../../db/schema/index.js';
import { groupBy } from '../../lib/group-by.js';
import { type RecordKind, StampedRecords } from '../../lib/stamped-records.js';
import { type ListingParts, type RecordUrls, toProperty, toPropertySummary } from './properties.mapper.js';
import * as repository from './properties.repository.js';
import type { ListingCoreRow } from './properties.repository.js';
import { type PropertyRecord, type PropertySummaryRecord, SUMMARY_GALLERY } from './properties.schemas.js';

/** What permission checks need to know about a listing, beside its record. */
export interface ListingAccess {
  id: number;
  status: ListingState;
  authorId: number | null;
  /** The user of the agency whose agent wrote the listing: an owner too (docs/api.md 0.3). */
  authorAgencyUserId: number | null;
}

export interface Loaded<T> {
  record: T;
  access: ListingAccess;
}

/**
 * Builds listing records and summaries in a fixed number of queries whatever the number of listings (the
 * listing rows, their terms, agents, agencies and galleries), and keeps them while the `listings`,
 * `listing_views` and `terms` stamps are unchanged (lib/stamped-records.ts).
 */
export class ListingRecords {
  private readonly kept: StampedRecords;
  private readonly full: RecordKind<Loaded<PropertyRecord>>;
  private readonly summaries: RecordKind<Loaded<PropertySummaryRecord>>;

  constructor(
    private readonly db: Kysely<DB>,
    stamps: CacheStamps,
    private readonly urls: RecordUrls,
  ) {
    // Records show `views`, which have their own stamp (migration 0028: the view counter's flushes leave `listings` alone).
    this.kept = new StampedRecords(async () =>
      (await Promise.all(['listings', 'listing_views', 'terms'].map((name) => stamps.current(name)))).join('/'),
    );
    this.full = this.kept.kind();
    this.summaries = this.kept.kind();
  }

  /** The current data version; every cached answer built from listing records is valid only under it. */
  version(): Promise<string> {
    return this.kept.version();
  }

  async record(id: number): Promise<Loaded<PropertyRecord> | undefined> {
    const [loaded] = await this.kept.recordsOf(this.full, [id], (missing) => this.freshRecords(missing));
    return loaded;
  }

  /**
   * Full records read from the database now, past the cache: a follower of the change log must see the commit
   * it was told of, which a cache revalidated every CACHE_REVALIDATE_MS might not show yet.
   */
  async freshRecords(ids: readonly number[]): Promise<Loaded<PropertyRecord>[]> {
    return (await this.loadParts(ids, undefined)).map((parts) => ({ record: toProperty(parts, this.urls), access: accessOf(parts.core) }));
  }

  /** Summaries of the listings that exist, in the order of `ids`. */
  summariesOf(ids: readonly number[]): Promise<Loaded<PropertySummaryRecord>[]> {
    return this.kept.recordsOf(this.summaries, ids, async (missing) =>
      (await this.loadParts(missing, SUMMARY_GALLERY)).map((parts) => ({
        record: toPropertySummary(parts, this.urls, SUMMARY_GALLERY),
        access: accessOf(parts.core),
      })),
    );
  }

  /** Five queries for any number of listings (four when none has an agency). */
  private async loadParts(ids: readonly number[], galleryLimit: number | undefined): Promise<ListingParts[]> {
    const [cores, terms, agents, gallery] = await Promise.all([
      repository.findListingCores(this.db, ids),
      repository.findTermLinks(this.db, ids),
      repository.findListingAgents(this.db, ids),
      repository.findGalleries(this.db, ids, galleryLimit),
    ]);
    const agencyIds = [...new Set(cores.flatMap((core) => (core.agency_id === null ? [] : [core.agency_id])))];
    const agencies = new Map((await repository.findAgencies(this.db, agencyIds)).map((agency) => [agency.id, agency]));
    const termsOf = groupBy(terms, (row) => row.listing_id);
    const agentsOf = groupBy(agents, (row) => row.listing_id);
    // Without a limit the loader also gives the attachments (documents): images are the gallery, the rest attachments.
    const galleryOf = groupBy(
      gallery.filter((row) => row.mime_type.startsWith('image/')),
      (row) => row.listing_id as number,
    );
    const attachmentsOf = groupBy(
      gallery.filter((row) => !row.mime_type.startsWith('image/')),
      (row) => row.listing_id as number,
    );
    return cores.map((core) => ({
      core,
      terms: termsOf.get(core.id) ?? [],
      agents: agentsOf.get(core.id) ?? [],
      agency: core.agency_id === null ? undefined : agencies.get(core.agency_id),
      gallery: galleryOf.get(core.id) ?? [],
      attachments: attachmentsOf.get(core.id) ?? [],
    }));
  }
}

/** The permission facts of a listing row. */
export function accessOf(core: ListingCoreRow): ListingAccess {
  return { id: core.id, status: core.status, authorId: core.author_id, authorAgencyUserId: core.author_agency_user_id };
}
