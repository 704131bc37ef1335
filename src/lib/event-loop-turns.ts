import { setImmediate as nextTurn } from 'node:timers/promises';

/** The longest stretch of a write loop's work between two turns of the event loop: what a request may wait behind it. */
export const SLICE_MS = 10;
/** Records written at most between two turns, however quickly they go: a bound that holds on any machine. */
export const SLICE_RECORDS = 10;

/**
 * Hands the event loop back now and then during a long loop of writes whose statements hold the thread (SQLite:
 * db/dialect `statementsHoldTheThread`). Such a loop awaits only promises that are already settled, so without this
 * no request, timer or worker message is handled until it ends (issue 38: `/health` waited 3 s during a re-import).
 * `next()` before each record waits for the next turn (`setImmediate`, which comes after the loop's poll for I/O)
 * once SLICE_MS have gone by or SLICE_RECORDS records were written since the last one, whichever comes first. When
 * statements are round trips (PostgreSQL) each one hands the loop back already, and `next()` does nothing.
 *
 * NOTE: call it between transactions only. SQLite has one connection, which an open transaction keeps: a request
 * served while one is open would wait for it, and the import for the request.
 */
export class EventLoopTurns {
  private since = performance.now();
  private records = 0;

  constructor(private readonly statementsHoldTheThread: boolean) {}

  async next(): Promise<void> {
    if (!this.statementsHoldTheThread) return;
    if (this.records < SLICE_RECORDS && performance.now() - this.since < SLICE_MS) {
      this.records++;
      return;
    }
    await nextTurn();
    this.since = performance.now();
    this.records = 1;
  }
}

/**
 * Runs long synchronous work written as a generator whose yields are the points where it may pause, giving the
 * event loop a turn (`setImmediate`) whenever SLICE_MS have gone by since the last one: a request waits behind
 * at most one slice. The work must leave what others read unchanged until its last step (the search index's
 * compaction builds its new columns and postings aside, then puts them in place at once).
 */
export async function runInTurns<T>(work: Generator<void, T>): Promise<T> {
  let since = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn();
      since = performance.now();
    }
  }
}

/** Runs the same work to its end at once (where nothing waits: an index being built, a test). */
export function runAtOnce<T>(work: Generator<void, T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}
