import { describe, expect, it } from 'vitest';
import { runAtOnce, runInTurns, SLICE_MS } from '../../src/lib/event-loop-turns.js';

/** Holds the thread until SLICE_MS and a little more have gone by, as a long piece of work does. */
function holdTheThread(): void {
  const since = performance.now();
  while (performance.now() - since <= SLICE_MS + 1);
}

/** Three long pieces, noting before each whether a callback queued for the next turn has run. */
function* longWork(seen: boolean[], ran: () => boolean): Generator<void, string> {
  for (let piece = 0; piece < 3; piece++) {
    seen.push(ran());
    holdTheThread();
    yield;
  }
  return 'done';
}

describe('work in turns of the event loop', () => {
  it('gives the event loop a turn after a piece that held it SLICE_MS, and returns what the work returns', async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    const seen: boolean[] = [];
    expect(await runInTurns(longWork(seen, () => ran))).toBe('done');
    // The first piece starts at once; the next after a turn, in which the callback queued before ran.
    expect(seen).toEqual([false, true, true]);
  });

  it('runs the same work to its end without a turn when nothing may wait', () => {
    let ran = false;
    setImmediate(() => (ran = true));
    const seen: boolean[] = [];
    expect(runAtOnce(longWork(seen, () => ran))).toBe('done');
    expect(seen).toEqual([false, false, false]);
  });
});
