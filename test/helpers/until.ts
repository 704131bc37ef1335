import { expect, vi } from 'vitest';

/**
 * Waits until `condition` holds, asking again every 10 ms (Vitest's `vi.waitFor`), and fails after `timeoutMs`:
 * a bound on the wait for something that must happen, never a measure of how fast it does.
 */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  await vi.waitFor(
    async () => {
      expect(await condition()).toBe(true);
    },
    { timeout: timeoutMs, interval: 10 },
  );
}
