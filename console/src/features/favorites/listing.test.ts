import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPrice, placeOf, termNames, thumbnailOf } from './listing';

describe('formatPrice', () => {
  it('formats the amount in the reader’s language and the listing’s currency', () => {
    expect(formatPrice({ price: 985000, currency: 'USD' }, 'en')).toBe('$985,000');
    expect(formatPrice({ price: 1200, currency: 'EUR', price_postfix: '/month' }, 'fr')).toMatch(/^1\s200\s€\/month$/u);
  });

  it('keeps the prefix and the postfix of the listing', () => {
    expect(formatPrice({ price: 10, currency: 'USD', price_prefix: 'From', price_postfix: '/week' }, 'en')).toBe('From $10/week');
  });

  it('answers null without a price, and survives an unknown currency', () => {
    expect(formatPrice({ price: null, currency: 'USD' }, 'en')).toBeNull();
    expect(formatPrice({ price: 5, currency: 'not a code' }, 'en')).toBe('5 not a code');
  });

  it('never throws for any finite price, language or currency', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e12 }),
        fc.constantFrom('en', 'ar', 'es', 'fr'),
        fc.string(),
        (price, language, currency) => {
          expect(typeof formatPrice({ price, currency }, language)).toBe('string');
        },
      ),
    );
  });
});

describe('thumbnailOf', () => {
  it('prefers the thumbnail size, then medium, then the original', () => {
    const sizes = { thumbnail: { url: '/t.jpg', width: 150, height: 150 }, medium: { url: '/m.jpg', width: 600, height: 400 } };
    expect(thumbnailOf({ featured_image: { url: '/o.jpg', alt: 'Front', sizes } })).toEqual({ url: '/t.jpg', alt: 'Front' });
    expect(thumbnailOf({ featured_image: { url: '/o.jpg', sizes: { medium: sizes.medium } } })).toEqual({ url: '/m.jpg', alt: '' });
    expect(thumbnailOf({ featured_image: { url: '/o.jpg' } })).toEqual({ url: '/o.jpg', alt: '' });
    expect(thumbnailOf({ featured_image: null })).toBeNull();
  });
});

describe('placeOf and termNames', () => {
  it('join the names that are present', () => {
    const miami = { id: 1, name: 'Miami', slug: 'miami' };
    const florida = { id: 2, name: 'Florida', slug: 'florida' };
    expect(placeOf({ address: { city: miami, state: florida } })).toBe('Miami, Florida');
    expect(placeOf({ address: { city: null, state: florida } })).toBe('Florida');
    expect(placeOf({ address: null })).toBe('');
    expect(termNames([miami, florida])).toBe('Miami, Florida');
    expect(termNames(undefined)).toBe('');
  });
});
