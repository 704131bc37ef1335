/** A record with what else its reader keeps beside it (permission facts). */
export interface KeptRecord {
  readonly record: { readonly id: number };
}

/** One kind of record kept by a `StampedRecords` (listings and summaries, agents and agencies). */
export type RecordKind<T extends KeptRecord> = Map<number, T>;

/**
 * Records by id, built in batches and kept while a data version holds (the stamps of the tables they show,
 * renewed by triggers on every change). Every kind starts over when the version moves, and when it holds more
 * than `maxPerKind` records. Records are frozen and the same object comes back while valid, so an unchanged
 * answer is not serialized again (http/cache.ts).
 */
export class StampedRecords {
  private readonly kinds: Map<number, unknown>[] = [];
  private stamp = '';

  constructor(
    private readonly readVersion: () => Promise<string>,
    private readonly maxPerKind = 20_000,
  ) {}

  /** A new, empty kind of record, cleared with the others. */
  kind<T extends KeptRecord>(): RecordKind<T> {
    const kind = new Map<number, T>();
    this.kinds.push(kind);
    return kind;
  }

  /** The current data version; every answer built from these records is valid only under it. */
  async version(): Promise<string> {
    const stamp = await this.readVersion();
    if (stamp !== this.stamp) {
      for (const kind of this.kinds) kind.clear();
      this.stamp = stamp;
    }
    return stamp;
  }

  /** The records among `ids` that exist, in that order: the kept ones and `load(missing)` for the rest. */
  async recordsOf<T extends KeptRecord>(
    kind: RecordKind<T>,
    ids: readonly number[],
    load: (missing: number[]) => Promise<T[]>,
  ): Promise<T[]> {
    const version = await this.version();
    // Collected here rather than re-read from the kind: a change seen by a concurrent call while loading
    // empties it, which must not drop records from this answer.
    const found = new Map<number, T>();
    for (const id of ids) {
      const hit = kind.get(id);
      if (hit) found.set(id, hit);
    }
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      for (const loaded of await load(missing)) {
        Object.freeze(loaded.record);
        Object.freeze(loaded);
        found.set(loaded.record.id, loaded);
        // A change committed while loading renewed the stamp: keep nothing that may be stale.
        if (version !== this.stamp) continue;
        if (kind.size >= this.maxPerKind) kind.clear();
        kind.set(loaded.record.id, loaded);
      }
    }
    return ids.flatMap((id) => {
      const loaded = found.get(id);
      return loaded ? [loaded] : [];
    });
  }
}
