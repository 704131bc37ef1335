import { describe, expect, it } from 'vitest';
import { placeOf, termNames, thumbnailOf } from './listing';

describe('thumbnailOf', () => {
  it('prefers the thumbnail size, then medium, then the original', () => {
    const sizes = { thumbnail: { url: '/t.jpg', width: 150, height: 150 }, medium: { url: '/m.jpg', width: 600, height: 400 } };
    expect(thumbnailOf({ featured_image: { url: '/o.jpg', alt: 'Front', sizes } })).toEqual({ url: '/t.jpg', alt: 'Front' });
    expect(thumbnailOf({ featured_image: { url: '/o.jpg', alt: '', sizes: { medium: sizes.medium } } })).toEqual({
      url: '/m.jpg',
      alt: '',
    });
    expect(thumbnailOf({ featured_image: { url: '/o.jpg', alt: '', sizes: {} } })).toEqual({ url: '/o.jpg', alt: '' });
    expect(thumbnailOf({ featured_image: null })).toBeNull();
  });
});

describe('placeOf and termNames', () => {
  it('join the names that are present', () => {
    const miami = { id: 1, name: 'Miami', slug: 'miami' };
    const florida = { id: 2, name: 'Florida', slug: 'florida' };
    expect(placeOf({ address: { city: miami, state: florida } })).toBe('Miami, Florida');
    expect(placeOf({ address: { city: null, state: florida } })).toBe('Florida');
    expect(placeOf({ address: { city: null, state: null } })).toBe('');
    expect(termNames([miami, florida])).toBe('Miami, Florida');
    expect(termNames(undefined)).toBe('');
  });
});
