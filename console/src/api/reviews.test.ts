import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { starCount, stars } from './reviews';

describe('stars', () => {
  it('fills as many of five stars as the rating', () => {
    expect(stars(4)).toBe('★★★★☆');
    expect(stars(1)).toBe('★☆☆☆☆');
    expect(stars(5)).toBe('★★★★★');
  });

  it('always draws five stars, however odd the number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, min: -10, max: 10 }), (rating) => {
        expect([...stars(rating)]).toHaveLength(5);
        expect(starCount(rating)).toBeGreaterThanOrEqual(0);
        expect(starCount(rating)).toBeLessThanOrEqual(5);
      }),
    );
  });
});
