import { describe, expect, it } from 'vitest';
import { ShardCache } from '../../src/site/pages/seo/shard-cache.js';
import { gate } from '../helpers/gate.js';

const bytes = (n: number) => Buffer.alloc(n, 1);

describe('the gzipped shards kept', () => {
  it('keeps a shard while its stamp holds, and under a new stamp only once its ETag is confirmed', async () => {
    const cache = new ShardCache(1000);
    await cache.build('a', 'E1', 'S1', async () => bytes(10));
    expect(cache.current('a', 'S1')?.etag).toBe('E1');
    expect(cache.current('a', 'S2')).toBeUndefined();
    expect(cache.confirmed('a', 'E2', 'S2'), 'another ETag: the shard changed').toBeUndefined();
    expect(cache.confirmed('a', 'E1', 'S2')?.etag).toBe('E1');
    expect(cache.current('a', 'S2')?.etag, 'confirmed under the new stamp').toBe('E1');
  });

  it('bounds the bytes kept, least recently used first out, and keeps no shard above an eighth of them', async () => {
    const cache = new ShardCache(400); // shards of 49 bytes and a one-letter key: eight fit
    const keys = [...'abcdefghi'];
    for (const key of keys.slice(0, 8)) await cache.build(key, 'E', 'S', async () => bytes(49));
    cache.current('a', 'S'); // now b is the least recently used
    await cache.build('i', 'E', 'S', async () => bytes(49));
    expect(keys.filter((key) => cache.current(key, 'S'))).toEqual(keys.filter((key) => key !== 'b'));
    const big = await cache.build('z', 'E', 'S', async () => bytes(51));
    expect(big.gzip).toHaveLength(51);
    expect(cache.current('z', 'S'), 'sent, not kept').toBeUndefined();
    expect(new ShardCache(0).current('a', 'S')).toBeUndefined();
  });

  it('builds once for every request that asks while a build runs, and again after one failed', async () => {
    const cache = new ShardCache(0);
    let builds = 0;
    const finishing = gate();
    const build = async () => {
      builds++;
      await finishing.wait;
      return bytes(1);
    };
    // The second request asks while the first one's build is still running.
    const first = cache.build('a', 'E', 'S1', build);
    const second = cache.build('a', 'E', 'S2', build);
    finishing.release();
    const shards = await Promise.all([first, second]);
    expect(builds).toBe(1);
    expect(shards[0]).toBe(shards[1]);
    await cache.build('a', 'E2', 'S3', build);
    expect(builds, 'another ETag is another build').toBe(2);
    await expect(cache.build('b', 'E', 'S', async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    await cache.build('b', 'E', 'S', build);
    expect(builds).toBe(3);
  });
});
