import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteBudgetLru } from '../../src/lib/byte-budget-lru.js';
import { VersionedLruCache } from '../../src/lib/versioned-lru-cache.js';

describe('ByteBudgetLru', () => {
  it('lets the least recently used go first once the budget is passed', () => {
    const lru = new ByteBudgetLru<string>(30); // entries of 9 bytes and a one-letter key: three fit
    for (const key of 'abc') lru.set(key, key, 9);
    expect(lru.get('a')).toBe('a'); // now b is the least recently used
    lru.set('d', 'd', 9);
    expect([...'abcd'].filter((key) => lru.get(key) !== undefined)).toEqual(['a', 'c', 'd']);
  });

  it('keeps no value over the entry limit, and a replaced value counts once', () => {
    const lru = new ByteBudgetLru<string>(100, 20);
    expect(lru.set('a', 'big', 20), 'with its key: 21 bytes').toBe(false);
    expect(lru.get('a')).toBeUndefined();
    for (let i = 0; i < 50; i++) expect(lru.set('b', `v${i}`, 19)).toBe(true);
    expect(lru.set('c', 'c', 19)).toBe(true);
    expect(lru.get('b'), 'the 50 versions of b counted as one').toBe('v49');
  });

  it('matches a model: never over budget, the most recently used kept, nothing it was not given', () => {
    const operation = fc.oneof(
      fc.record({ set: fc.constantFrom('a', 'b', 'c', 'd', 'e'), bytes: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ get: fc.constantFrom('a', 'b', 'c', 'd', 'e') }),
      fc.record({ delete: fc.constantFrom('a', 'b', 'c', 'd', 'e') }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.array(operation, { maxLength: 60 }), (budget, operations) => {
        const lru = new ByteBudgetLru<number>(budget);
        // The model: keys from least to most recently used, with their sizes (key included).
        let model: { key: string; bytes: number; value: number }[] = [];
        operations.forEach((op, value) => {
          if ('set' in op) {
            const kept = lru.set(op.set, value, op.bytes);
            expect(kept).toBe(op.bytes + 1 <= budget);
            if (!kept) return;
            model = model.filter((entry) => entry.key !== op.set);
            model.push({ key: op.set, bytes: op.bytes + 1, value });
            while (model.reduce((sum, entry) => sum + entry.bytes, 0) > budget) model.shift();
          } else if ('get' in op) {
            const entry = model.find((candidate) => candidate.key === op.get);
            expect(lru.get(op.get)).toBe(entry?.value);
            if (entry) model = [...model.filter((candidate) => candidate !== entry), entry];
          } else {
            lru.delete(op.delete);
            model = model.filter((entry) => entry.key !== op.delete);
          }
        });
      }),
    );
  });
});

describe('VersionedLruCache', () => {
  it('answers only under the version an entry was built for, and drops an older one', () => {
    const cache = new VersionedLruCache<string>(100, (value) => value.length);
    expect(cache.set('page', 'v1', 'old')).toBe(true);
    expect(cache.get('page', 'v1')).toBe('old');
    expect(cache.get('page', 'v2')).toBeUndefined();
    expect(cache.get('page', 'v1'), 'dropped when the version moved on').toBeUndefined();
    expect(cache.set('page', 'v2', 'x'.repeat(100)), 'larger than the budget').toBe(false);
  });
});
