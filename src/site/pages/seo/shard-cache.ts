/** A sitemap shard as sent to crawlers: its gzipped XML, under the ETag it was built for. */
export interface GzippedShard {
  readonly etag: string;
  readonly gzip: Buffer;
}

interface Entry {
  readonly shard: GzippedShard;
  /** The data stamp read before its ETag was last confirmed: while it holds, the shard is current. */
  stamp: string;
  readonly bytes: number;
}

/**
 * The gzipped shards of the sitemap (docs/site.md, "Search engines"), by shard (kind, block, language), each kept
 * under its ETag and the data stamp it was confirmed under. A shard is a pure function of its records, so while
 * the stamp holds the kept bytes are the answer without a read; once it moves, the shard's ETag is read again,
 * and the same ETag (a change elsewhere) confirms the bytes kept. Concurrent requests of a shard under one ETag
 * share one build. Least recently used shards go first once the bytes kept pass `maxBytes`; a shard larger than
 * an eighth of it is sent but not kept (0 keeps none, and concurrent requests still share their build).
 */
export class ShardCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<GzippedShard>>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The shard kept for `key` if nothing it shows can have changed since `stamp` was read. */
  current(key: string, stamp: string): GzippedShard | undefined {
    const entry = this.entries.get(key);
    if (entry?.stamp !== stamp) return undefined;
    this.touch(key, entry);
    return entry.shard;
  }

  /** The shard kept for `key` if its ETag is still `etag` (read after `stamp`): it is current under `stamp` now. */
  confirmed(key: string, etag: string, stamp: string): GzippedShard | undefined {
    const entry = this.entries.get(key);
    if (entry?.shard.etag !== etag) return undefined;
    entry.stamp = stamp;
    this.touch(key, entry);
    return entry.shard;
  }

  /** Builds the shard of `key` under `etag` with `build`, once for every request that asks while it is built, and keeps it. */
  build(key: string, etag: string, stamp: string, build: () => Promise<Buffer>): Promise<GzippedShard> {
    const flight = `${key}\n${etag}`;
    let building = this.building.get(flight);
    if (!building) {
      building = build()
        .then((gzip) => {
          const shard = { etag, gzip };
          this.keep(key, shard, stamp);
          return shard;
        })
        .finally(() => this.building.delete(flight));
      this.building.set(flight, building);
    }
    return building;
  }

  private keep(key: string, shard: GzippedShard, stamp: string): void {
    const bytes = shard.gzip.length + key.length;
    if (bytes > this.maxBytes / 8) return; // one shard never crowds out most of the others
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    this.entries.set(key, { shard, stamp, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest, entry);
    }
  }

  /** Re-inserted: a Map iterates in insertion order, so the first key is the least recently used. */
  private touch(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private delete(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
