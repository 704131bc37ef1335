import { ByteBudgetLru } from './byte-budget-lru.js';

/**
 * Built answers (rendered pages, portal feeds) by key, each kept while the version of the data it was built
 * from holds: an entry of an older version is a miss and is dropped. Least recently used entries go first once
 * the bytes kept pass the budget. An entry can only come back as built under the version asked for.
 */
export class VersionedLruCache<T> {
  private readonly entries: ByteBudgetLru<{ readonly version: string; readonly value: T }>;

  /**
   * `sizeOf` counts an entry's bytes; an entry over `maxEntryBytes` (default the whole budget) is not kept, so
   * that one answer never crowds out most of the others.
   */
  constructor(
    maxBytes: number,
    private readonly sizeOf: (value: T) => number,
    maxEntryBytes = maxBytes,
  ) {
    this.entries = new ByteBudgetLru(maxBytes, maxEntryBytes);
  }

  get(key: string, version: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry?.version === version) return entry.value;
    if (entry) this.entries.delete(key);
    return undefined;
  }

  /** Keeps `value` for `key`; `version` must have been read before the data behind it. False when it is too large to keep. */
  set(key: string, version: string, value: T): boolean {
    return this.entries.set(key, { version, value }, this.sizeOf(value));
  }
}
