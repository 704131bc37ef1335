import { describe, expect, it } from 'vitest';
import { formatPriceRange, galleryOf, imageUrl } from './format';
import type { Media } from './types';

const media = (id: number, sizes: Media['sizes'] = {}): Media => ({
  id,
  url: `/uploads/${id}.jpg`,
  mime_type: 'image/jpeg',
  width: 1200,
  height: 800,
  size_bytes: 0,
  alt: '',
  title: '',
  caption: '',
  description: '',
  sizes,
  owner_id: 1,
  created_at: '2026-01-01T00:00:00Z',
});

describe('formatting', () => {
  it('writes price ranges short, in their currency and the reader’s language', () => {
    const range = (min: number, max: number, currency = 'USD') => ({ min, max, currency, status: null });
    expect(formatPriceRange(range(0, 2_000_000), 'en')).toBe('$0 – $2M');
    expect(formatPriceRange(range(250_000, 250_000, 'EUR'), 'en')).toBe('€250K');
    expect(formatPriceRange(range(1_500, 2_000, 'EUR'), 'fr')).toMatch(/^1,5\s?k\s?€ – 2\s?k\s?€$/);
  });

  it('picks the nearest image size, else the original', () => {
    const full = media(1, { thumbnail: { url: '/t.jpg', width: 150, height: 150 }, medium: { url: '/m.jpg', width: 600, height: 400 } });
    expect(imageUrl(full, 'thumbnail')).toBe('/t.jpg');
    expect(imageUrl(full, 'large')).toBe('/m.jpg');
    expect(imageUrl(media(2), 'medium')).toBe('/uploads/2.jpg');
  });

  it('puts the featured image first, each image once', () => {
    expect(galleryOf(media(2), [media(1), media(2), media(3)]).map((m) => m.id)).toEqual([2, 1, 3]);
    expect(galleryOf(null, []).length).toBe(0);
  });
});
