/**
 * Whole answers (a page of a list) kept per normalized query while the data version they were built under
 * holds. The same frozen object is returned while valid, so its serialization is reused too (http/cache.ts).
 * Past `maxEntries` distinct queries the cache starts over: searches can make the key space large.
 */
export class AnswerCache<T> {
  private readonly entries = new Map<string, { version: string; answer: T }>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, version: string): T | undefined {
    const entry = this.entries.get(key);
    return entry?.version === version ? entry.answer : undefined;
  }

  /** Keeps `answer` for `key`; `version` must have been read before the data behind the answer. */
  set(key: string, version: string, answer: T): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, { version, answer });
  }
}
