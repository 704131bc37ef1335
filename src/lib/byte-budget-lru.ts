/**
 * Values by key within a byte budget: once the bytes kept pass `maxBytes`, the least recently used leave first.
 * A value over `maxEntryBytes` (default the whole budget) is not kept, so that one never crowds out most of the
 * others. The building block of the caches of built answers (versioned-lru-cache.ts, the sitemap's shards).
 */
export class ByteBudgetLru<T> {
  private readonly entries = new Map<string, { readonly value: T; readonly bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxEntryBytes = maxBytes,
  ) {}

  /** The value kept for `key`, which becomes the most recently used. */
  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` for `key`, counted as `valueBytes` plus the key's length. False when it is too large to keep. */
  set(key: string, value: T, valueBytes: number): boolean {
    const bytes = valueBytes + key.length;
    if (bytes > this.maxEntryBytes || bytes > this.maxBytes) return false;
    this.delete(key);
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    return true;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
