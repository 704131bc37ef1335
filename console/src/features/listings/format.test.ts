import { describe, expect, it } from 'vitest';
import { thumbnailOf } from './format';

describe('thumbnailOf', () => {
  it('prefers the featured image’s thumbnail', () => {
    const media = (id: number) => ({ id, url: `u${id}`, sizes: {} });
    expect(thumbnailOf({ featured_image: null, gallery: [] })).toBeUndefined();
    expect(thumbnailOf({ featured_image: null, gallery: [media(1)] })).toBe('u1');
    expect(
      thumbnailOf({ featured_image: { ...media(2), sizes: { thumbnail: { url: 't2', width: 1, height: 1 } } }, gallery: [media(1)] }),
    ).toBe('t2');
  });
});
