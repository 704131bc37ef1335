import { bytesOf, type CompressedBody } from './compressed.js';

/** A rendered public page, as sent: its status, its body in each encoding and its ETag. */
export interface CachedPage {
  readonly status: number;
  readonly body: CompressedBody;
  readonly etag: string;
  /** The listing a listing page shows, whose view a cached answer still counts. */
  readonly listingId?: number;
}

interface Entry {
  readonly version: string;
  readonly page: CachedPage;
  readonly bytes: number;
}

/**
 * Rendered public pages (what anonymous visitors get) by URL, each kept while the version of the data it was
 * rendered from holds: a page of an older version is a miss and is replaced. Least recently used pages go
 * first once the bytes kept pass the budget. A page can only come back as rendered under the version asked for.
 */
export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.delete(key, entry);
      return undefined;
    }
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.page;
  }

  set(key: string, version: string, page: CachedPage): void {
    const bytes = bytesOf(page.body) + key.length;
    if (bytes > this.maxBytes / 8) return; // one page never crowds out most of the others
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    this.entries.set(key, { version, page, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest, entry);
    }
  }

  private delete(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
