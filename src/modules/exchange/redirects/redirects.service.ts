import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import type { Executor } from '../../../db/executor.js';
import { AppError } from '../../../lib/errors.js';
import { pageWindow, paginationOf } from '../../../lib/paging.js';
import { agencyUrl, agentUrl } from '../../directory/index.js';
import { listingUrl, PUBLIC_STATES } from '../../properties/index.js';
import { isReservedPath, redirectPathOf, reservedPaths } from './redirect-paths.js';
import * as repository from './redirects.repository.js';
import type { ListRedirectsInput, RedirectListRecord, RedirectRecord } from './redirects.schemas.js';

export interface RedirectUrls {
  /** PUBLIC_URL: agents' and agencies' pages. */
  publicUrl: string;
  /** LISTING_URL_TEMPLATE: listings' pages. */
  listingUrlTemplate: string;
  /** API_PREFIX: the API's paths are never a redirect's. */
  apiPrefix: string;
}

/**
 * Old addresses of imported records (docs/data-exchange.md, "Old addresses"): a feed's `url` of a listing, agent or
 * agency (a WordPress post's `<link>`) is kept as a path, and a GET or HEAD of that path that no route answers (or
 * that a page of the site answers 404) is a 301 to the record's current `url`, with the request's query string.
 *
 * The row names its record, not a URL, so the Location is always built here from the record's slug and this site's
 * own PUBLIC_URL / LISTING_URL_TEMPLATE: nothing a feed or a request says can send a visitor to another host. A
 * record the public may not see (a listing not published or sold, a hidden agent) answers 404, as its page would.
 */
export class Redirects {
  private readonly reserved: readonly string[];

  constructor(
    private readonly db: Kysely<DB>,
    private readonly urls: RedirectUrls,
  ) {
    this.reserved = reservedPaths(urls.apiPrefix);
  }

  /** The path an address is kept by; undefined when it makes none or is one of the application's own paths. */
  pathOf(address: string): string | undefined {
    const path = redirectPathOf(address);
    return path === undefined || isReservedPath(path, this.reserved) ? undefined : path;
  }

  /**
   * Keeps the old addresses of records, in the caller's transaction (the one that writes the records). A path kept
   * already stays with the record it names; one that makes no path is left out. How many were given a path.
   */
  async keep(db: Executor, entries: readonly { address: string; record: repository.RedirectRecordRef }[], now = new Date()) {
    const at = now.toISOString();
    const rows = entries.flatMap(({ address, record }) => {
      const path = this.pathOf(address);
      return path === undefined ? [] : [{ path, record, at }];
    });
    await repository.insertRedirects(db, rows);
    return rows.length;
  }

  /**
   * Where a request for `url` (path and query, as received) is sent: the record's current `url` with the query, or
   * undefined (then the 404 it would have been). Never for the application's own paths, and never to the path asked
   * for itself (a record whose page answers 404 there must not loop).
   */
  async locationFor(url: string): Promise<string | undefined> {
    const mark = url.indexOf('?');
    const path = this.pathOf(mark === -1 ? url : url.slice(0, mark));
    if (path === undefined) return undefined;
    const row = await repository.findRedirectByPath(this.db, path);
    if (!row) return undefined;
    const record = this.recordOf(row);
    if (!record.public) return undefined;
    let target: URL;
    try {
      target = new URL(record.url);
    } catch {
      return undefined;
    }
    if (redirectPathOf(target.pathname) === path) return undefined;
    const query = mark === -1 ? '' : url.slice(mark + 1);
    return query === '' ? record.url : `${record.url}${record.url.includes('?') ? '&' : '?'}${query}`;
  }

  /** GET /redirects: newest first, with the usual paging. */
  async list(query: ListRedirectsInput): Promise<RedirectListRecord> {
    const window = pageWindow(query);
    const [total, rows] = await Promise.all([
      repository.countRedirects(this.db),
      repository.findRedirects(this.db, window.perPage, window.offset),
    ]);
    return { redirects: rows.map((row) => this.recordOf(row)), pagination: paginationOf(total, window) };
  }

  /** DELETE /redirects/{id}: its path answers 404 from now on. Unknown → 404. */
  async remove(id: number): Promise<void> {
    if (!(await repository.deleteRedirect(this.db, id))) throw AppError.notFound();
  }

  private recordOf(row: repository.RedirectRow): RedirectRecord {
    const common = { id: row.id, path: row.path, created_at: new Date(row.created_at).toISOString() };
    if (row.listing_id !== null) {
      return {
        ...common,
        type: 'listing',
        record_id: row.listing_id,
        url: listingUrl(this.urls.listingUrlTemplate, { id: row.listing_id, slug: row.listing_slug ?? '' }),
        public: row.listing_status !== null && PUBLIC_STATES.includes(row.listing_status),
      };
    }
    if (row.agent_id !== null) {
      return {
        ...common,
        type: 'agent',
        record_id: row.agent_id,
        url: agentUrl(this.urls.publicUrl, row.agent_slug ?? ''),
        public: row.agent_visible === 1,
      };
    }
    return {
      ...common,
      type: 'agency',
      record_id: row.agency_id!,
      url: agencyUrl(this.urls.publicUrl, row.agency_slug ?? ''),
      public: true,
    };
  }
}
