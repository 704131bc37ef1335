/**
 * Running one API call per selected listing, a few at a time, and telling what happened to each: the
 * moderation queue's bulk approve and disapprove (and a single action, as a run of one).
 */

export interface Outcome<T> {
  item: T;
  ok: boolean;
  /** The failure when not ok: the API's status and code when it answered (409 `invalid_transition`…). */
  error?: FailureInfo;
}

export interface FailureInfo {
  status: number;
  code: string;
  message: string;
}

/**
 * Calls `task` for every item with at most `limit` calls running at once, and resolves when all have
 * settled, with one outcome per item in the items' order. A failing call never stops the others.
 */
export async function runWithConcurrency<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<unknown>,
): Promise<Outcome<T>[]> {
  const outcomes: Outcome<T>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      try {
        await task(item);
        outcomes[index] = { item, ok: true };
      } catch (error) {
        outcomes[index] = { item, ok: false, error: failureOf(error) };
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}

/** The status, code and message of a failed call: Refine's HttpError, the client's ApiError, or anything thrown. */
export function failureOf(error: unknown): FailureInfo {
  if (typeof error === 'object' && error !== null) {
    const record = error as { statusCode?: unknown; status?: unknown; code?: unknown; message?: unknown };
    const status = typeof record.statusCode === 'number' ? record.statusCode : typeof record.status === 'number' ? record.status : 0;
    return {
      status,
      code: typeof record.code === 'string' ? record.code : 'error',
      message: typeof record.message === 'string' && record.message !== '' ? record.message : String(error),
    };
  }
  return { status: 0, code: 'error', message: String(error) };
}

export interface RunSummary<T> {
  succeeded: T[];
  failed: { item: T; error: FailureInfo }[];
}

/** Splits outcomes into the items that succeeded and those that failed (with why), each in the run's order. */
export function summarize<T>(outcomes: readonly Outcome<T>[]): RunSummary<T> {
  const summary: RunSummary<T> = { succeeded: [], failed: [] };
  for (const outcome of outcomes) {
    if (outcome.ok) summary.succeeded.push(outcome.item);
    else summary.failed.push({ item: outcome.item, error: outcome.error ?? { status: 0, code: 'error', message: '' } });
  }
  return summary;
}

/** The selection after a change of the page's rows: ids no longer shown are dropped. */
export function keepVisible(selected: ReadonlySet<number>, visible: readonly number[]): Set<number> {
  const shown = new Set(visible);
  return new Set([...selected].filter((id) => shown.has(id)));
}

/** The "select all on this page" box: checked when every row is, mixed when some are. */
export function pageSelectionState(selected: ReadonlySet<number>, visible: readonly number[]): 'none' | 'some' | 'all' {
  const count = visible.filter((id) => selected.has(id)).length;
  if (count === 0) return 'none';
  return count === visible.length ? 'all' : 'some';
}

/** Toggles every row of the page: selects them all unless they all are, then clears them. */
export function togglePage(selected: ReadonlySet<number>, visible: readonly number[]): Set<number> {
  const next = new Set(selected);
  if (pageSelectionState(selected, visible) === 'all') for (const id of visible) next.delete(id);
  else for (const id of visible) next.add(id);
  return next;
}

/** How many state moves run at once in a bulk action: enough to be quick, few enough not to hammer the API. */
export const BULK_CONCURRENCY = 4;
