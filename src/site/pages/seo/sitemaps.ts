import { hash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Language } from '../../../i18n/index.js';
import { SITE_LANGUAGES, localPath } from '../../paths.js';
import type { SiteServices } from '../../site-services.js';
import type { StampReader } from '../../site.js';
import { type GzippedShard, ShardCache } from './shard-cache.js';
import {
  INDEX_CLOSE,
  INDEX_OPEN,
  MAX_SHARD_BYTES,
  MAX_SHARD_URLS,
  URLSET_CLOSE,
  URLSET_OPEN,
  indexEntry,
  urlEntry,
} from './sitemap-xml.js';

type SitemapServices = Pick<SiteServices, 'listingSitemap' | 'agentSitemap' | 'agencySitemap' | 'taxonomies'>;
type Taxonomy = Parameters<SiteServices['taxonomies']['termsOf']>[0];

/** The records a shard kind lists, read by blocks of ids (the modules' sitemap services). */
export interface SitemapSource {
  blocks(size: number): Promise<readonly { block: number; lastmod: string }[]>;
  /** The block's count of public records and their newest `updated_at` as stored (to the millisecond). */
  summary(size: number, block: number): Promise<{ count: number; newest: string | null }>;
  page(size: number, block: number, after: number, limit: number): Promise<readonly { id: number; url: string; lastmod: string }[]>;
}

export const SHARD_KINDS = ['listings', 'agents', 'agencies'] as const;
export type ShardKind = (typeof SHARD_KINDS)[number];

/** The cache stamp (db/cache-versions.ts) that triggers renew on any change to what a kind's shards list. */
const STAMP_OF: Record<ShardKind, string> = { listings: 'listings', agents: 'directory', agencies: 'directory' };

/**
 * The landing pages of the results (`/properties/<facet>/<slug>`), one per term with published listings.
 * NOTE: the facet names are the results pages' routes (pages/results); a facet added there is added here.
 */
const LANDING_FACETS: readonly { readonly taxonomy: Taxonomy; readonly facet: string }[] = [
  { taxonomy: 'property_city', facet: 'city' },
  { taxonomy: 'property_area', facet: 'area' },
  { taxonomy: 'property_type', facet: 'type' },
  { taxonomy: 'property_status', facet: 'status' },
];

/** The pages of the site that are no one record's: the home page and the results, before the landing pages. */
const FIXED_PAGES = ['/', '/properties'] as const;

export interface SitemapOptions {
  /** PUBLIC_URL: every URL listed is under it (a sitemap may list only its own host's URLs). */
  readonly publicUrl: string;
  /** LISTING_URL_TEMPLATE: listings are this sitemap's only when their `url`s are pages of this site. */
  readonly listingUrlTemplate: string;
  /** Ids per shard: MAX_SHARD_URLS (50,000) by default, the block of the database's sitemap indexes. */
  readonly shardSize?: number;
  /** Records read per query while a shard is built: the connection is free between two reads. */
  readonly pageSize?: number;
  /** SITE_SITEMAP_CACHE_MB: memory for the gzipped shards kept (shard-cache.ts); 0 keeps none. */
  readonly cacheBytes: number;
}

/** A small document (robots.txt, the index, a pages shard): its whole text. */
export interface SitemapAnswer {
  readonly etag: string;
  readonly body: string;
}

/** A shard of records, whose ETag is known before its body is made: a revalidation that matches costs no build. */
export interface ShardAnswer {
  readonly etag: string;
  /** The shard's XML, gzipped. */
  gzip(): Promise<Buffer>;
}

/**
 * The sitemap (docs/site.md, "Search engines"): an index of shards, each a urlset of one language. Records are
 * cut into shards by blocks of `shardSize` ids (`/sitemaps/<lang>/listings-<n>.xml` lists the public listings
 * with ids n·size … n·size + size − 1), so that a shard's URL always covers the same records, and a block has at
 * most `shardSize` ≤ 50,000 URLs. The index reads one index entry per block; a shard is read in keyset pages of
 * the primary key and gzipped as it is read (its XML is never held whole), and the gzipped bytes are kept while
 * the data stamps say its records have not changed (shard-cache.ts). One URL per language and page: each page's
 * head carries its reciprocal hreflang links (layout/Document.tsx), which the sitemap does not repeat.
 */
export class Sitemaps {
  readonly shardSize: number;
  private readonly pageSize: number;
  private readonly sources: Record<ShardKind, SitemapSource>;
  /** The kinds whose records' URLs are this site's pages. */
  private readonly kinds: readonly ShardKind[];
  private readonly cache: ShardCache;

  constructor(
    private readonly services: SitemapServices,
    private readonly stamps: StampReader,
    private readonly options: SitemapOptions,
  ) {
    this.shardSize = options.shardSize ?? MAX_SHARD_URLS;
    this.pageSize = options.pageSize ?? 5_000;
    if (!Number.isSafeInteger(this.shardSize) || this.shardSize < 1 || this.shardSize > MAX_SHARD_URLS) {
      throw new Error(`a sitemap shard holds 1 to ${MAX_SHARD_URLS} URLs (got ${this.shardSize})`);
    }
    this.sources = { listings: services.listingSitemap, agents: services.agentSitemap, agencies: services.agencySitemap };
    const listingsHere = options.listingUrlTemplate.startsWith(`${options.publicUrl}/`);
    this.kinds = SHARD_KINDS.filter((kind) => kind !== 'listings' || listingsHere);
    this.cache = new ShardCache(options.cacheBytes);
  }

  /** `/sitemap.xml`: every language's pages shard and record shards, each with the newest change it lists. */
  async index(): Promise<SitemapAnswer> {
    const blocks = await Promise.all(this.kinds.map((kind) => this.sources[kind].blocks(this.shardSize)));
    let body = INDEX_OPEN;
    for (const lang of SITE_LANGUAGES) {
      body += indexEntry(this.shardUrl(lang, 'pages.xml'), null);
      this.kinds.forEach((kind, k) => {
        for (const { block, lastmod } of blocks[k]!) body += indexEntry(this.shardUrl(lang, `${kind}-${block}.xml`), lastmod);
      });
    }
    body += INDEX_CLOSE;
    return text(body);
  }

  /** The home page, the results and their landing pages, in one language. */
  async pages(lang: Language): Promise<SitemapAnswer> {
    const termLists = await Promise.all(
      LANDING_FACETS.map(({ taxonomy }) =>
        this.services.taxonomies.termsOf(taxonomy, { hide_empty: 'true', orderby: 'count', order: 'desc' }),
      ),
    );
    const paths: string[] = [...FIXED_PAGES];
    LANDING_FACETS.forEach(({ facet }, k) => {
      for (const term of termLists[k]!) if (term.count > 0) paths.push(`/properties/${facet}/${encodeURIComponent(term.slug)}`);
    });
    // The biggest landing pages first (each list is by count), should there ever be more than a shard holds.
    let body = URLSET_OPEN;
    for (const path of paths.slice(0, MAX_SHARD_URLS)) body += urlEntry(this.absolute(lang, path), null);
    body += URLSET_CLOSE;
    return text(body);
  }

  /**
   * A shard of records in one language, or null when its block holds none (it is then in no index). Its ETag is
   * made from the block's count and newest change, to the millisecond. While the kind's data stamp holds, the
   * shard kept is the answer with no read at all; otherwise the ETag is read first, so that a matching
   * revalidation or an unchanged shard kept costs no build.
   */
  async shard(lang: Language, kind: ShardKind, block: number): Promise<ShardAnswer | null> {
    if (!this.kinds.includes(kind)) return null;
    const key = `${kind}-${block} ${lang}`;
    // Read before the ETag and the records: what they show is then at least as new as the stamp.
    const stamp = await this.stamps.current(STAMP_OF[kind]);
    const current = this.cache.current(key, stamp);
    if (current) return kept(current);
    const source = this.sources[kind];
    const { count, newest } = await source.summary(this.shardSize, block);
    if (count === 0) return null;
    const fingerprint = [kind, lang, block, this.shardSize, count, newest, this.options.publicUrl].join('\n');
    const etag = `W/"${hash('sha1', fingerprint, 'base64url')}"`;
    const confirmed = this.cache.confirmed(key, etag, stamp);
    if (confirmed) return kept(confirmed);
    return {
      etag,
      gzip: async () => (await this.cache.build(key, etag, stamp, () => this.gzippedShard(source, lang, block))).gzip,
    };
  }

  /** The absolute URL of a shard. */
  shardUrl(lang: Language, name: string): string {
    return `${this.options.publicUrl}/sitemaps/${lang}/${name}`;
  }

  /** The shard's XML gzipped as it is written, one page of records at a time. */
  private async gzippedShard(source: SitemapSource, lang: Language, block: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    await pipeline(this.shardChunks(source, lang, block), createGzip(), async (gzipped: AsyncIterable<Buffer>) => {
      for await (const part of gzipped) parts.push(part);
    });
    return Buffer.concat(parts);
  }

  private async *shardChunks(source: SitemapSource, lang: Language, block: number): AsyncGenerator<string> {
    yield URLSET_OPEN;
    let bytes = URLSET_OPEN.length + URLSET_CLOSE.length;
    let after = block * this.shardSize - 1;
    for (;;) {
      const entries = await source.page(this.shardSize, block, after, this.pageSize);
      let chunk = '';
      for (const entry of entries) {
        const path = this.pathOf(entry.url);
        if (path === null) continue; // a record URL off this site (LISTING_URL_TEMPLATE elsewhere) is not this sitemap's
        const line = urlEntry(this.absolute(lang, path), entry.lastmod);
        bytes += Buffer.byteLength(line);
        // NOTE: only slugs near their 200-character limit in a script of 3-byte letters could reach this.
        if (bytes > MAX_SHARD_BYTES) {
          yield chunk + URLSET_CLOSE;
          return;
        }
        chunk += line;
      }
      if (chunk) yield chunk;
      if (entries.length < this.pageSize) break;
      after = entries[entries.length - 1]!.id;
    }
    yield URLSET_CLOSE;
  }

  /** The plain path of a record's `url` on this site, or null for a URL elsewhere. */
  private pathOf(url: string): string | null {
    const { publicUrl } = this.options;
    return url.startsWith(`${publicUrl}/`) ? url.slice(publicUrl.length) : null;
  }

  private absolute(lang: Language, plainPath: string): string {
    return `${this.options.publicUrl}${localPath(lang, plainPath)}`;
  }
}

function text(body: string): SitemapAnswer {
  return { etag: `W/"${hash('sha1', body, 'base64url')}"`, body };
}

function kept({ etag, gzip }: GzippedShard): ShardAnswer {
  return { etag, gzip: async () => gzip };
}
