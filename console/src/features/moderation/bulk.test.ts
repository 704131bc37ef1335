import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureOf, keepVisible, pageSelectionState, runWithConcurrency, summarize, togglePage } from './bulk';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('runWithConcurrency', () => {
  it('never runs more than the limit at once, and runs every item once', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    const outcomes = await runWithConcurrency([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running++;
      peak = Math.max(peak, running);
      seen.push(item);
      await tick();
      running--;
    });
    expect(peak).toBe(3);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
  });

  it('reports each failure with its status and code, in the items’ order, without stopping the others', async () => {
    const outcomes = await runWithConcurrency([10, 11, 12], 2, async (id) => {
      await tick();
      if (id === 11) throw { statusCode: 409, code: 'invalid_transition', message: 'The listing is publish.' };
    });
    expect(outcomes.map((outcome) => outcome.item)).toEqual([10, 11, 12]);
    const summary = summarize(outcomes);
    expect(summary.succeeded).toEqual([10, 12]);
    expect(summary.failed).toEqual([{ item: 11, error: { status: 409, code: 'invalid_transition', message: 'The listing is publish.' } }]);
  });

  it('handles no items and a silly limit', async () => {
    expect(await runWithConcurrency([], 4, async () => undefined)).toEqual([]);
    expect((await runWithConcurrency([1, 2], 0, async () => undefined)).length).toBe(2);
  });

  it('gives one outcome per item whatever fails, and the peak stays within the limit (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { maxLength: 30 }), fc.integer({ min: 1, max: 8 }), async (fails, limit) => {
        let running = 0;
        let peak = 0;
        const items = fails.map((fail, index) => ({ index, fail }));
        const outcomes = await runWithConcurrency(items, limit, async (item) => {
          running++;
          peak = Math.max(peak, running);
          await tick();
          running--;
          if (item.fail) throw new Error(`no ${item.index}`);
        });
        expect(peak).toBeLessThanOrEqual(limit);
        expect(outcomes.map((outcome) => outcome.item.index)).toEqual(items.map((item) => item.index));
        const summary = summarize(outcomes);
        expect(summary.failed.length).toBe(fails.filter(Boolean).length);
        expect(summary.succeeded.length + summary.failed.length).toBe(items.length);
      }),
      { numRuns: 40 },
    );
  });
});

describe('failureOf', () => {
  it('reads HttpError, ApiError-like errors and anything else', () => {
    expect(failureOf({ statusCode: 403, code: 'forbidden', message: 'No' })).toEqual({ status: 403, code: 'forbidden', message: 'No' });
    expect(failureOf({ status: 0, code: 'network_error', message: 'Down' })).toEqual({ status: 0, code: 'network_error', message: 'Down' });
    expect(failureOf('boom')).toEqual({ status: 0, code: 'error', message: 'boom' });
  });
});

describe('selection', () => {
  it('selects the page, clears it when all are selected, and drops rows no longer shown', () => {
    const page = [1, 2, 3];
    expect(pageSelectionState(new Set(), page)).toBe('none');
    expect(pageSelectionState(new Set([2]), page)).toBe('some');
    const all = togglePage(new Set([2, 9]), page);
    expect([...all].sort()).toEqual([1, 2, 3, 9]);
    expect(pageSelectionState(all, page)).toBe('all');
    expect([...togglePage(all, page)]).toEqual([9]);
    expect([...keepVisible(all, [3, 4])]).toEqual([3]);
    expect(pageSelectionState(new Set([1]), [])).toBe('none');
  });
});
