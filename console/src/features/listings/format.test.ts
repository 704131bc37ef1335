import { describe, expect, it } from 'vitest';
import { formatPrice, thumbnailOf } from './format';

describe('formatPrice', () => {
  it('writes the amount in the currency with prefix and postfix', () => {
    expect(formatPrice({ price: 1500, currency: 'USD', price_prefix: '', price_postfix: '/month' }, 'en')).toBe('$1,500/month');
    expect(formatPrice({ price: 250000, currency: 'EUR', price_prefix: 'From', price_postfix: '' }, 'en')).toBe('From €250,000');
    expect(formatPrice({ price: null, currency: 'USD', price_prefix: '', price_postfix: '' }, 'en')).toBe('');
  });

  it('falls back to the code for an unknown currency', () => {
    expect(formatPrice({ price: 10, currency: 'X1', price_prefix: '', price_postfix: '' }, 'en')).toBe('X1 10');
  });
});

describe('thumbnailOf', () => {
  it('prefers the featured image’s thumbnail', () => {
    const media = (id: number) => ({ id, url: `u${id}`, mime_type: 'image/png', width: 1, height: 1, title: '', alt: '' });
    expect(thumbnailOf({ featured_image: null, gallery: [] })).toBeUndefined();
    expect(thumbnailOf({ featured_image: null, gallery: [media(1)] })).toBe('u1');
    expect(
      thumbnailOf({ featured_image: { ...media(2), sizes: { thumbnail: { url: 't2', width: 1, height: 1 } } }, gallery: [media(1)] }),
    ).toBe('t2');
  });
});
