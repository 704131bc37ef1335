import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Repeater } from '../../src/lib/repeater.js';

// On Vitest's fake clock: "not again within a minute" is a minute of the clock, not a wait.
describe('Repeater', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at start, again after the delay each run asks for, and never two runs at once', async () => {
    let runs = 0;
    let active = 0;
    let overlapped = false;
    const repeater = new Repeater(async () => {
      active++;
      overlapped ||= active > 1;
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
      return runs < 3 ? 0 : 60_000; // more work twice, then idle for a minute
    });
    repeater.start();
    repeater.start(); // a second start changes nothing
    await vi.advanceTimersByTimeAsync(100); // three runs of 5 ms, back to back
    expect(runs).toBe(3);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(runs).toBe(3);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(4);
    expect(overlapped).toBe(false);
    await repeater.stop();
  });

  it('stop() waits for the run in progress and prevents the next one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let finished = false;
    let runs = 0;
    const repeater = new Repeater(async () => {
      runs++;
      await gate;
      finished = true;
      return 0; // would run again at once if not stopped
    });
    repeater.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    const stopping = repeater.stop();
    release();
    await stopping;
    expect(finished).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(1);
  });
});
