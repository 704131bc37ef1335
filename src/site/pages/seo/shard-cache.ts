import { ByteBudgetLru } from '../../../lib/byte-budget-lru.js';

/** A sitemap shard as sent to crawlers: its gzipped XML, under the ETag it was built for. */
export interface GzippedShard {
  readonly etag: string;
  readonly gzip: Buffer;
}

interface Entry {
  readonly shard: GzippedShard;
  /** The data stamp read before its ETag was last confirmed: while it holds, the shard is current. */
  stamp: string;
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
  private readonly entries: ByteBudgetLru<Entry>;
  private readonly building = new Map<string, Promise<GzippedShard>>();

  constructor(maxBytes: number) {
    this.entries = new ByteBudgetLru(maxBytes, maxBytes / 8); // one shard never crowds out most of the others
  }

  /** The shard kept for `key` if nothing it shows can have changed since `stamp` was read. */
  current(key: string, stamp: string): GzippedShard | undefined {
    const entry = this.entries.get(key);
    return entry?.stamp === stamp ? entry.shard : undefined;
  }

  /** The shard kept for `key` if its ETag is still `etag` (read after `stamp`): it is current under `stamp` now. */
  confirmed(key: string, etag: string, stamp: string): GzippedShard | undefined {
    const entry = this.entries.get(key);
    if (entry?.shard.etag !== etag) return undefined;
    entry.stamp = stamp;
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
          this.entries.set(key, { shard, stamp }, gzip.length);
          return shard;
        })
        .finally(() => this.building.delete(flight));
      this.building.set(flight, building);
    }
    return building;
  }
}
