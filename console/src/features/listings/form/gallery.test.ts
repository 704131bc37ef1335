import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPhotoFile, keepFeatured, moveItem } from './gallery';

describe('moveItem', () => {
  it('moves one item and keeps the others in order', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 3)).toEqual(['a', 'b', 'c']);
  });

  it('is a permutation', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: -2, max: 12 }), fc.integer({ min: -2, max: 12 }), (items, from, to) => {
        const moved = moveItem(items, from, to);
        expect([...moved].sort()).toEqual([...items].sort());
      }),
    );
  });
});

describe('isPhotoFile and keepFeatured', () => {
  it('takes JPEG, PNG and WebP only', () => {
    expect(isPhotoFile({ type: 'image/png' })).toBe(true);
    expect(isPhotoFile({ type: 'application/pdf' })).toBe(false);
    expect(isPhotoFile({ type: 'image/svg+xml' })).toBe(false);
  });

  it('forgets a featured image that left the gallery', () => {
    expect(keepFeatured('2', [1, 2])).toBe('2');
    expect(keepFeatured('3', [1, 2])).toBe('');
    expect(keepFeatured('', [1, 2])).toBe('');
  });
});
