import { describe, expect, it } from 'vitest';
import { errorsLine, inputOf, isUnderWay } from './imports';

describe('import runs in the console', () => {
  it('reads a run again while it waits or runs', () => {
    expect(isUnderWay({ state: 'queued' })).toBe(true);
    expect(isUnderWay({ state: 'running' })).toBe(true);
    expect(isUnderWay({ state: 'done' })).toBe(false);
    expect(isUnderWay({ state: 'failed' })).toBe(false);
  });

  it("says a rejection's errors on one line, and what a run read", () => {
    expect(
      errorsLine({
        at: 'line 4',
        errors: [
          { field: 'price', reason: 'must be of type number' },
          { field: 'title', reason: 'is required' },
        ],
      }),
    ).toBe('price must be of type number; title is required');
    expect(inputOf({ file_name: 'site.xml', url: null })).toBe('site.xml');
    expect(inputOf({ file_name: null, url: 'https://feeds.example/a.csv' })).toBe('https://feeds.example/a.csv');
    expect(inputOf({ file_name: null, url: null })).toBe('—');
  });
});
