import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageWindow, paginationOf } from '../../src/lib/paging.js';

describe('pagination', () => {
  it('defaults to page 1 of 10, and takes `paged` as an alias of `page`', () => {
    expect(pageWindow({})).toEqual({ page: 1, perPage: 10, offset: 0 });
    expect(pageWindow({ paged: 3, per_page: 20 })).toEqual({ page: 3, perPage: 20, offset: 40 });
    expect(pageWindow({ page: 2, paged: 5 })).toMatchObject({ page: 2 });
  });

  it('gives true figures for every page, including those past the end', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 100 }), (total, page, perPage) => {
        const p = paginationOf(total, pageWindow({ page, per_page: perPage }));
        expect(p.total_pages * perPage).toBeGreaterThanOrEqual(total);
        expect((p.total_pages - 1) * perPage).toBeLessThan(Math.max(total, 1));
        expect(p.has_next_page).toBe(page < p.total_pages);
        expect(p.has_previous_page).toBe(page > 1);
        expect(p).toMatchObject({ total_records: total, current_page: page, per_page: perPage });
      }),
    );
  });
});
