import { describe, expect, it } from 'vitest';
import { CacheStamps, LocalWrites } from '../../src/db/cache-versions.js';

/** A stamp reader whose reads finish when the test says, counting them. */
function manualReader() {
  const pending: ((stamp: string) => void)[] = [];
  const failures: ((error: Error) => void)[] = [];
  return {
    reads: () => pending.length,
    read: () =>
      new Promise<string>((resolve, reject) => {
        pending.push(resolve);
        failures.push(reject);
      }),
    finish: (index: number, stamp: string) => pending[index]!(stamp),
    fail: (index: number) => failures[index]!(new Error('connection lost')),
  };
}

describe('CacheStamps under concurrent callers', () => {
  it('reads a stale stamp once for all the callers waiting on it', async () => {
    const reader = manualReader();
    const stamps = new CacheStamps(reader.read, new LocalWrites(), 60_000);
    const answers = Promise.all(Array.from({ length: 1000 }, () => stamps.current('terms')));
    expect(reader.reads()).toBe(1);
    reader.finish(0, 'v1');
    expect(new Set(await answers)).toEqual(new Set(['v1']));
    expect(await stamps.current('terms')).toBe('v1');
    expect(reader.reads()).toBe(1);
  });

  it('does not let a caller that wrote meanwhile join a read that started before its write', async () => {
    const reader = manualReader();
    const writes = new LocalWrites();
    const stamps = new CacheStamps(reader.read, writes, 60_000);
    const before = stamps.current('terms');
    writes.count++;
    const after = stamps.current('terms');
    expect(reader.reads()).toBe(2);
    reader.finish(1, 'after the write');
    reader.finish(0, 'before the write');
    expect(await before).toBe('before the write');
    expect(await after).toBe('after the write');
    // The older read, finishing last, does not replace the newer stamp.
    expect(await stamps.current('terms')).toBe('after the write');
    expect(reader.reads()).toBe(2);
  });

  it('passes a failed read to every caller that joined it, and reads again at the next call', async () => {
    const reader = manualReader();
    const stamps = new CacheStamps(reader.read, new LocalWrites(), 60_000);
    const joined = [stamps.current('terms'), stamps.current('terms')];
    reader.fail(0);
    for (const answer of joined) await expect(answer).rejects.toThrow('connection lost');
    const again = stamps.current('terms');
    expect(reader.reads()).toBe(2);
    reader.finish(1, 'v2');
    expect(await again).toBe('v2');
  });
});
