const SECOND_MS = 1000;
const HOUR_MS = 3600 * SECOND_MS;
const DAY_MS = 24 * HOUR_MS;

/** The first retry comes this long after a failure; each next one twice as long after its own, up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 30 * SECOND_MS;
const MAX_DELAY_MS = 12 * HOUR_MS;
/** A delivery is given up when its next attempt would come later than this after it was queued (about three days). */
export const GIVE_UP_AFTER_MS = 3 * DAY_MS;
/** An endpoint whose every attempt failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY_MS;

/**
 * How long after its `attempts`-th failed attempt a delivery is tried again: 30 s doubling to 12 h, times a
 * random factor in [0.8, 1.2) so that deliveries that failed together (a receiver down) do not all come back in
 * the same second. Over three days that is about 15 attempts.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}
