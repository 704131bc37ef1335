interface Entry<T> {
  readonly version: string;
  readonly value: T;
  readonly bytes: number;
}

/**
 * Built answers (rendered pages, portal feeds) by key, each kept while the version of the data it was built
 * from holds: an entry of an older version is a miss and is dropped. Least recently used entries go first once
 * the bytes kept pass the budget. An entry can only come back as built under the version asked for.
 */
export class VersionedLruCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private bytes = 0;

  /**
   * `sizeOf` counts an entry's bytes; an entry over `maxEntryBytes` (default the whole budget) is not kept, so
   * that one answer never crowds out most of the others.
   */
  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: T) => number,
    private readonly maxEntryBytes = maxBytes,
  ) {}

  get(key: string, version: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.delete(key, entry);
      return undefined;
    }
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` for `key`; `version` must have been read before the data behind it. False when it is too large to keep. */
  set(key: string, version: string, value: T): boolean {
    const bytes = this.sizeOf(value) + key.length;
    if (bytes > this.maxEntryBytes || bytes > this.maxBytes) return false;
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    this.entries.set(key, { version, value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest, entry);
    }
    return true;
  }

  private delete(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
