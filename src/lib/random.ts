/**
 * Seeded pseudo-random numbers for generated data (demo listings, benchmark data): the same seed gives the
 * same sequence on every machine, so generated data can be compared and tested. Not for anything secret.
 */
export type Random = () => number;

/** mulberry32: a small, fast 32-bit generator of uniform floats in [0, 1). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [min, max], both included. */
export function integerBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** A float in [min, max). */
export function between(random: Random, min: number, max: number): number {
  return min + random() * (max - min);
}

export function pick<T>(items: readonly T[], random: Random): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** An item chosen with probability proportional to `weight(item)`. */
export function pickWeighted<T>(items: readonly T[], weight: (item: T) => number, random: Random): T {
  const total = items.reduce((sum, item) => sum + weight(item), 0);
  let left = random() * total;
  for (const item of items) {
    left -= weight(item);
    if (left < 0) return item;
  }
  // Floating-point rounding can leave a sliver past the last weight.
  const last = items.at(-1);
  if (last === undefined) throw new Error('pick from an empty list');
  return last;
}

/** A shuffled copy (Fisher–Yates). */
export function shuffle<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}
