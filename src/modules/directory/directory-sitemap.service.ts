import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema/index.js';
import { toApiTimestamp } from '../../lib/time.js';
import { agencyUrl, agentUrl } from './directory.mapper.js';
import * as repository from './directory-sitemap.repository.js';

/** A block of ids with public records, and the newest change among them. */
export interface DirectorySitemapBlock {
  readonly block: number;
  readonly lastmod: string;
}

/** A public record as a sitemap lists it: its `url` (as the API gives it) and its last change. */
export interface DirectorySitemapEntry {
  readonly id: number;
  readonly url: string;
  readonly lastmod: string;
}

/**
 * The public agents (visible ones, docs/api.md 5.2) or agencies as the website's sitemap reads them: by blocks of
 * `size` ids, each read in keyset pages of the primary key; `url` as the records give it, `lastmod` their
 * `updated_at`.
 */
export class DirectorySitemap {
  private readonly urlOf: (publicUrl: string, slug: string) => string;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly table: repository.DirectoryTable,
    private readonly publicUrl: string,
  ) {
    this.urlOf = table === 'agents' ? agentUrl : agencyUrl;
  }

  async blocks(size: number): Promise<DirectorySitemapBlock[]> {
    const blocks = await repository.newestPublicPerBlock(this.db, this.table, size);
    return blocks.map(({ block, newest }) => ({ block, lastmod: toApiTimestamp(newest) }));
  }

  async summary(size: number, block: number): Promise<{ count: number; newest: string | null }> {
    return repository.publicBlockSummary(this.db, this.table, size, block);
  }

  async page(size: number, block: number, after: number, limit: number): Promise<DirectorySitemapEntry[]> {
    const rows = await repository.publicBlockPage(this.db, this.table, size, block, after, limit);
    return rows.map((row) => ({ id: row.id, url: this.urlOf(this.publicUrl, row.slug), lastmod: toApiTimestamp(row.updated_at) }));
  }
}
