import type { Kysely } from 'kysely';
import type { CacheStamps } from '../../db/cache-versions.js';
import type { DB, ListingState } from '../../db/schema/index.js';
import { groupBy } from '../../lib/group-by.js';
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

/** Distinct listings kept per kind; past this the cache starts over. */
const MAX_CACHED = 20_000;

/**
 * Builds listing records and summaries in a fixed number of queries whatever the number of listings (the
 * listing rows, their terms, agents, agencies and galleries), and keeps them while the `listings` and
 * `terms` stamps are unchanged (renewed by triggers on every change that shows in a record). The same frozen
 * object is returned while valid, so an unchanged answer is not serialized again (http/cache.ts).
 */
export class ListingRecords {
  private readonly full = new Map<number, Loaded<PropertyRecord>>();
  private readonly summaries = new Map<number, Loaded<PropertySummaryRecord>>();
  private stamp = '';

  constructor(
    private readonly db: Kysely<DB>,
    private readonly stamps: CacheStamps,
    private readonly urls: RecordUrls,
  ) {}

  /**
   * The current data version; every cached answer built from listing records is valid only under it. Records
   * show `views`, which have their own stamp (migration 0028: the view counter's flushes leave `listings` alone).
   */
  async version(): Promise<string> {
    const [listings, views, terms] = await Promise.all(['listings', 'listing_views', 'terms'].map((name) => this.stamps.current(name)));
    const stamp = `${listings}/${views}/${terms}`;
    if (stamp !== this.stamp) {
      this.full.clear();
      this.summaries.clear();
      this.stamp = stamp;
    }
    return stamp;
  }

  async record(id: number): Promise<Loaded<PropertyRecord> | undefined> {
    const version = await this.version();
    const cached = this.full.get(id);
    if (cached) return cached;
    const [parts] = await this.loadParts([id], undefined);
    if (!parts) return undefined;
    const loaded = freezeLoaded({ record: toProperty(parts, this.urls), access: accessOf(parts.core) });
    this.remember(this.full, version, id, loaded);
    return loaded;
  }

  /** Summaries of the listings that exist, in the order of `ids`. */
  async summariesOf(ids: readonly number[]): Promise<Loaded<PropertySummaryRecord>[]> {
    const version = await this.version();
    // Collected here, not re-read from the cache: a change seen by a concurrent call while loading clears
    // the cache (and `remember` then keeps nothing), which must not drop listings from this answer.
    const found = new Map<number, Loaded<PropertySummaryRecord>>();
    for (const id of ids) {
      const cached = this.summaries.get(id);
      if (cached) found.set(id, cached);
    }
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      for (const parts of await this.loadParts(missing, SUMMARY_GALLERY)) {
        const loaded = freezeLoaded({ record: toPropertySummary(parts, this.urls, SUMMARY_GALLERY), access: accessOf(parts.core) });
        found.set(parts.core.id, loaded);
        this.remember(this.summaries, version, parts.core.id, loaded);
      }
    }
    return ids.flatMap((id) => {
      const loaded = found.get(id);
      return loaded ? [loaded] : [];
    });
  }

  private remember<T>(cache: Map<number, T>, version: string, id: number, value: T): void {
    // A change committed while loading renewed the stamp: the next read reloads, so keep nothing stale.
    if (version !== this.stamp) return;
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(id, value);
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

function freezeLoaded<T extends object>(loaded: Loaded<T>): Loaded<T> {
  Object.freeze(loaded.record);
  return Object.freeze(loaded);
}
