import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { toApiTimestamp } from '../../../lib/time.js';
import { listingUrl } from '../properties.mapper.js';
import * as repository from './listing-sitemap.repository.js';

/** A block of ids with public records, and the newest change among them. */
export interface SitemapBlock {
  readonly block: number;
  /** ISO 8601 UTC to the second (docs/api.md 0.4). */
  readonly lastmod: string;
}

/** A public record as a sitemap lists it: its `url` (as the API gives it) and its last change. */
export interface SitemapEntry {
  readonly id: number;
  readonly url: string;
  readonly lastmod: string;
}

/**
 * The published and sold listings (PUBLIC_STATES) as the website's sitemap reads them: by blocks of `size` ids, so
 * that a shard's URL always covers the same ids, each block read in keyset pages of the primary key. Each entry's
 * `url` is the listing record's (LISTING_URL_TEMPLATE), and its `lastmod` the listing's `updated_at`.
 */
export class ListingSitemap {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly listingUrlTemplate: string,
  ) {}

  async blocks(size: number): Promise<SitemapBlock[]> {
    const blocks = await repository.newestPublicPerBlock(this.db, size);
    return blocks.map(({ block, newest }) => ({ block, lastmod: toApiTimestamp(newest) }));
  }

  /**
   * How many public listings the block holds and their newest `updated_at` as stored, to the millisecond (null when
   * none): what the shard's ETag is made of, finer than its `lastmod`s (to the second), so that two changes within a
   * second still make two ETags.
   */
  async summary(size: number, block: number): Promise<{ count: number; newest: string | null }> {
    return repository.publicBlockSummary(this.db, size, block);
  }

  /** The block's public listings after id `after`, in id order, at most `limit`. */
  async page(size: number, block: number, after: number, limit: number): Promise<SitemapEntry[]> {
    const rows = await repository.publicBlockPage(this.db, size, block, after, limit);
    return rows.map((row) => ({ id: row.id, url: listingUrl(this.listingUrlTemplate, row), lastmod: toApiTimestamp(row.updated_at) }));
  }
}
