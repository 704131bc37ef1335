import { hash } from 'node:crypto';
import type { CacheStamps } from '../../../db/cache-versions.js';
import { bytesOf, type CompressedBody, compressBodyOffThread } from '../../../http/compressed-body.js';
import { VersionedLruCache } from '../../../lib/versioned-lru-cache.js';
import type { FeedFormat } from '../feed-formats.js';
import { type FeedDownloads, type FeedFile, PORTAL_STATES } from './feed-downloads.service.js';

/** A portal feed held in memory: its bytes in each encoding, and an ETag that changes exactly when they do. */
export interface BuiltFeed {
  readonly mediaType: string;
  readonly filename: string;
  readonly body: CompressedBody;
  readonly etag: string;
}

/** What a pull is answered with: the feed from memory, or, when it is too large to keep, streamed as it is written. */
export type PortalFeedAnswer = { readonly built: BuiltFeed } | { readonly streamed: FeedFile };

/**
 * The cache stamps behind a portal feed (db/cache-versions.ts), as the listing records' cache reads them:
 * `listings` moves with the listings, their links, gallery pictures, agents and agencies; `terms` with term names.
 */
const FEED_STAMPS = ['listings', 'terms'] as const;

/**
 * The portal feeds (GET /feeds/{token}) of each format, built once per version of the data they show and kept
 * compressed, so that a portal polling a catalogue that has not changed costs a lookup, not a read of every
 * listing. Every token of a format gets the same feed, so feeds are kept by format; a token only opens one.
 * Pulls that arrive while a feed is being built wait for that build rather than start their own. A feed larger
 * than the budget is streamed as GET /exports/{format} streams (one page of listings in memory at a time),
 * without an ETag, until the data changes; a budget of 0 streams every pull.
 */
export class PortalFeeds {
  private readonly cache: VersionedLruCache<BuiltFeed>;
  /** The build under way per format and version, which later pulls of the same version join. */
  private readonly building = new Map<string, Promise<BuiltFeed | undefined>>();
  /** The version under which each format's feed was found too large to keep: streamed until the version moves. */
  private readonly oversized = new Map<FeedFormat, string>();

  constructor(
    private readonly downloads: FeedDownloads,
    private readonly stamps: CacheStamps,
    /** PORTAL_FEED_CACHE_MB: the bytes kept, each feed counted in its three encodings. */
    private readonly maxBytes: number,
  ) {
    this.cache = new VersionedLruCache(maxBytes, (feed) => bytesOf(feed.body));
  }

  async answer(format: FeedFormat): Promise<PortalFeedAnswer> {
    if (this.maxBytes === 0) return { streamed: this.fresh(format) };
    // Read before the data, so that a change made during a build leaves the feed under the older version.
    const version = (await Promise.all(FEED_STAMPS.map((name) => this.stamps.current(name)))).join('/');
    const cached = this.cache.get(format, version);
    if (cached) return { built: cached };
    if (this.oversized.get(format) === version) return { streamed: this.fresh(format) };
    const flight = `${format} ${version}`;
    let building = this.building.get(flight);
    if (!building) {
      building = this.build(format, version).finally(() => this.building.delete(flight));
      this.building.set(flight, building);
    }
    const built = await building;
    return built ? { built } : { streamed: this.fresh(format) };
  }

  /** The feed in memory, kept when it fits; undefined when it outgrows the budget (the pulls then stream it). */
  private async build(format: FeedFormat, version: string): Promise<BuiltFeed | undefined> {
    const file = this.fresh(format);
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of file.body as AsyncIterable<Buffer | string>) {
      const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += piece.length;
      if (bytes > this.maxBytes) {
        // Leaving the loop destroys the stream, which stops the writer and its reads.
        this.oversized.set(format, version);
        return undefined;
      }
      chunks.push(piece);
    }
    const identity = Buffer.concat(chunks, bytes);
    const feed: BuiltFeed = {
      mediaType: file.mediaType,
      filename: file.filename,
      body: await compressBodyOffThread(identity),
      // Weak: the same feed goes out in several encodings (as http/cache.ts's ETags).
      etag: `W/"${hash('sha1', identity, 'base64url')}"`,
    };
    // Not kept when its encodings together pass the budget, but still the answer of the pulls that waited for it.
    if (!this.cache.set(format, version, feed)) this.oversized.set(format, version);
    return feed;
  }

  private fresh(format: FeedFormat): FeedFile {
    return this.downloads.file(format, { states: PORTAL_STATES, publicOnly: true });
  }
}
