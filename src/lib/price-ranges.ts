/** Steps a price range may take: 1, 2, 2.5 and 5 times a power of ten. */
const NICE_STEPS = [1, 2, 2.5, 5];

export interface PriceRange {
  /** Inclusive. */
  min: number;
  /** Exclusive, except in the last range, which holds the highest price too. */
  max: number;
}

/**
 * At most `count` ranges of one round width, from a round number at or below `lowest` to one at or above
 * `highest`, so that every price of the set falls in exactly one (docs/api.md 4.4 "10 ranges fitted to the result
 * set"). A set of one price gives the one range {min: price, max: price}.
 */
export function fittedPriceRanges(lowest: number, highest: number, count = 10): PriceRange[] {
  if (!(lowest <= highest) || lowest < 0) return [];
  if (lowest === highest) return [{ min: lowest, max: highest }];
  for (let exponent = Math.floor(Math.log10(Math.max((highest - lowest) / count, 1e-2))) - 1; ; exponent++) {
    for (const nice of NICE_STEPS) {
      const step = nice * 10 ** exponent;
      const start = roundTo(Math.floor(lowest / step) * step);
      // The last range holds its own end, so the top of the set may lie on it.
      const needed = Math.max(Math.ceil(roundTo((highest - start) / step)), 1);
      if (needed <= count) {
        return Array.from({ length: needed }, (_, i) => ({ min: roundTo(start + i * step), max: roundTo(start + (i + 1) * step) }));
      }
    }
  }
}

/** Removes the binary noise of decimal steps (0.1 × 3 = 0.30000000000000004). */
function roundTo(value: number): number {
  return Number(value.toPrecision(12));
}

/** The index of the range a price falls in (the last range also holds its own `max`). */
export function rangeIndexOf(ranges: readonly PriceRange[], price: number): number {
  for (let i = ranges.length - 1; i >= 0; i--) if (price >= ranges[i]!.min) return i;
  return -1;
}
