import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leadingPositions } from '../../src/modules/search/engine/engine-page.js';

/**
 * The prefilter of the distance order (engine/engine-page.ts): the positions it keeps must hold every one of the
 * first `count` by key descending (NaN, a listing without coordinates, last), whatever the ties and NaNs.
 */
describe('leadingPositions', () => {
  const keys = fc.array(fc.oneof(fc.constantFrom(NaN, 0.5, -0.25), fc.double({ min: -1, max: 1, noNaN: true })), { maxLength: 300 });

  it('keeps every position of the first `count` by key, and all of them when too few keys are numbers', () => {
    fc.assert(
      fc.property(keys, fc.integer({ min: 1, max: 40 }), (values, count) => {
        const array = Float64Array.from(values);
        const kept = new Set(leadingPositions(array, count));
        const ranked = values
          .map((key, position) => ({ key, position }))
          .sort((a, b) => (Number.isNaN(a.key) ? 1 : 0) - (Number.isNaN(b.key) ? 1 : 0) || b.key - a.key || a.position - b.position);
        const numbers = values.filter((key) => !Number.isNaN(key)).length;
        if (numbers < count) expect(kept.size).toBe(values.length);
        // Whatever the tie rule, the positions ranked before the `count`-th key's value are kept, and so are
        // all of that value (the comparator breaks those ties).
        const last = ranked[Math.min(count, ranked.length) - 1];
        for (const { position } of ranked.slice(0, count)) expect(kept.has(position)).toBe(true);
        if (last && !Number.isNaN(last.key))
          for (const { key, position } of ranked) if (key === last.key) expect(kept.has(position)).toBe(true);
      }),
    );
  });
});
