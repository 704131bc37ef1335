import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { groupBy } from '../../../lib/group-by.js';
import { nowIso } from '../../../lib/time.js';
import type { SearchService } from '../../search/index.js';
import type { Announcement, Notifier } from '../../notifications/index.js';
import * as repository from './saved-search-alerts.repository.js';
import { SavedSearchIndex } from './saved-search-index.service.js';

export interface SavedSearchAlertsOptions {
  /** Saved searches per digest transaction (default 500). */
  digestBatchSize?: number;
  /** Listings a digest names in its data (default 20, the newest). */
  digestListedIds?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A daily digest at most once a day, a weekly one once every seven days. */
const DIGEST_PERIOD_MS = { daily: DAY_MS, weekly: 7 * DAY_MS } as const;

/**
 * Saved-search alerts (docs/api.md 7, 12). When a listing enters `publish`, every saved search it matches is noted
 * in `saved_search_matches`, once per (search, listing) for ever: a listing that leaves `publish` and comes
 * back is never announced to the same search again. `instant` searches are told at once, in the transaction
 * that notes the match; `daily` and `weekly` ones get one digest per period of the matches noted since their
 * last one (sendDigests).
 *
 * Matching agrees with GET /properties/search: each saved search is read back as SavedSearchesService reads
 * it (normalizeSavedSearchQuery), its terms resolved by resolveTerms (what SearchService.resolve runs; not
 * through SearchService itself, whose queries use its own connection, which on SQLite the caller's
 * transaction holds, and whose stamp may be up to CACHE_REVALIDATE_MS old, while an alert decision is
 * final), and decided by matchesListing, whose agreement with the SQL the parity test checks. The parsed and
 * resolved searches are kept in memory (saved-search-index.service.ts), checked against the database at every call.
 */
export class SavedSearchAlerts {
  private readonly index: SavedSearchIndex;
  private readonly digestBatchSize: number;
  private readonly digestListedIds: number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly notifier: Notifier,
    private readonly search: Pick<SearchService, 'matchableListings' | 'resolveTermsIn'>,
    options: SavedSearchAlertsOptions = {},
  ) {
    this.index = new SavedSearchIndex(search);
    this.digestBatchSize = options.digestBatchSize ?? 500;
    this.digestListedIds = options.digestListedIds ?? 20;
  }

  /** Builds the index ahead of the first match (e.g. at start-up); each call also brings it up to date. */
  async warm(): Promise<void> {
    await this.db.transaction().execute((trx) => this.index.refresh(trx));
  }

  /** Saved searches known to the index, and their distinct query strings and term selections. */
  get indexSize(): SavedSearchIndex['size'] {
    return this.index.size;
  }

  /**
   * Notes the saved searches that each of these listings (just entered `publish`) matches, inside the caller's
   * transaction, and answers one announcement per new match of an `instant` search, those matches marked
   * announced and the searches' last_notified_at set. The caller hands the announcements to Notifier.announce
   * in the same transaction. Matches noted before (the listing was published once already) announce nothing.
   */
  async matchPublished(trx: Transaction<DB>, listingIds: readonly number[], now: Date): Promise<Announcement[]> {
    if (listingIds.length === 0) return [];
    await this.index.refresh(trx);
    const listings = await this.search.matchableListings(trx, [...new Set(listingIds)]);
    const found = listings.map((listing) => ({ listingId: listing.id, searchIds: this.index.matching(listing) }));
    const at = nowIso(now);
    const instant: repository.MatchKey[] = [];
    for (const { listingId, searchIds } of found) {
      if (searchIds.length === 0) continue;
      for (const noted of await repository.noteMatches(trx, listingId, searchIds, at)) {
        if (noted.notified_at !== null) instant.push({ saved_search_id: noted.saved_search_id, listing_id: listingId });
      }
    }
    if (instant.length === 0) return [];

    // Read now, not kept in the index: a search may have been renamed or had its e-mail turned off meanwhile.
    const instantIds = [...new Set(instant.map((m) => m.saved_search_id))];
    const targets = await repository.findAlertTargets(trx, instantIds);
    const titles = await repository.findListingTitles(trx, [...new Set(instant.map((m) => m.listing_id))]);
    await repository.setLastNotified(trx, instantIds, at);
    return instant.map(({ saved_search_id: searchId, listing_id: listingId }) => {
      const target = targets.get(searchId)!;
      return {
        userId: target.user_id,
        type: 'saved_search_match' as const,
        source: `match:${searchId}:${listingId}`,
        text: {
          title: 'saved_search_match_title' as const,
          message: 'saved_search_match_message' as const,
          params: { search: target.name, title: titles.get(listingId) ?? '' },
        },
        data: { saved_search_id: searchId, property_id: listingId },
        ...(target.email_alerts === 1 ? {} : { skip: ['email'] as const }),
      };
    });
  }

  /**
   * Sends the digests due at `now`: one per daily search whose last digest (or, never sent, its creation) is
   * at least a day old, weekly seven days, that has unannounced matches of published listings; it names them
   * (the newest 20 ids) and counts them. Safe with several processes: each batch is a transaction whose first
   * statement takes only the searches still due (a conditional update), and the matches announced are exactly
   * those it marks. Answers the number of digests sent.
   */
  async sendDigests(now: Date): Promise<number> {
    const cutoffs: repository.DigestCutoffs = {
      daily: nowIso(new Date(now.getTime() - DIGEST_PERIOD_MS.daily)),
      weekly: nowIso(new Date(now.getTime() - DIGEST_PERIOD_MS.weekly)),
    };
    const at = nowIso(now);
    let sent = 0;
    for (let afterId = 0; ;) {
      const due = await repository.findDueSearchIds(this.db, afterId, this.digestBatchSize, cutoffs);
      if (due.length === 0) return sent;
      const { created, count } = await this.db.transaction().execute(async (trx) => {
        const claimed = (await repository.claimDueSearches(trx, due, cutoffs, at)).sort((a, b) => a.id - b.id);
        const matches = groupBy(
          await repository.claimPendingMatches(
            trx,
            claimed.map((search) => search.id),
            at,
          ),
          (m) => m.saved_search_id,
        );
        const announcements = claimed.flatMap((search) => {
          const own = matches.get(search.id);
          return own ? [this.digestOf(search, own)] : [];
        });
        return { created: await this.notifier.announce(trx, announcements, now), count: announcements.length };
      });
      this.notifier.publish(created);
      sent += count;
      afterId = due.at(-1)!;
    }
  }

  private digestOf(search: repository.ClaimedDigest, matches: readonly repository.ClaimedMatch[]): Announcement {
    const newest = [...matches].sort((a, b) =>
      a.matched_at === b.matched_at ? b.listing_id - a.listing_id : a.matched_at < b.matched_at ? 1 : -1,
    );
    const maxListingId = matches.reduce((max, m) => Math.max(max, m.listing_id), 0);
    return {
      userId: search.user_id,
      type: 'saved_search_match',
      // The batches of one search are disjoint sets of listings, so their greatest ids differ.
      source: `digest:${search.id}:${maxListingId}`,
      text: {
        title: 'saved_search_digest_title',
        message: 'saved_search_digest_message',
        params: { search: search.name, count: matches.length },
      },
      data: {
        saved_search_id: search.id,
        property_ids: newest.slice(0, this.digestListedIds).map((m) => m.listing_id),
        count: matches.length,
      },
      ...(search.email_alerts === 1 ? {} : { skip: ['email'] as const }),
    };
  }
}
