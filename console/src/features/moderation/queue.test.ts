import { describe, expect, it } from 'vitest';
import { moveRequest, placeOf, REASON_MAX, reasonProblem, thumbnailOf } from './queue';

describe('queue helpers', () => {
  it('builds the approve and disapprove requests, the reason trimmed', () => {
    expect(moveRequest('approve', 7)).toEqual({ url: '/users/approve-property/7', values: {} });
    expect(moveRequest('disapprove', 7, '  blurry photos ')).toEqual({
      url: '/users/disapprove-property/7',
      values: { reason: 'blurry photos' },
    });
  });

  it('requires a reason that is not only spaces, within the API’s length', () => {
    expect(reasonProblem('   ')).toBe('required');
    expect(reasonProblem('x'.repeat(REASON_MAX + 1))).toBe('too_long');
    expect(reasonProblem(' Wrong price ')).toBeNull();
  });

  it('picks the thumbnail size of the featured image, else of the first photo', () => {
    const image = (name: string) => ({
      url: `/${name}.jpg`,
      sizes: { thumbnail: { url: `/${name}-thumbnail.jpg`, width: 150, height: 150 } },
    });
    expect(thumbnailOf({ featured_image: image('a'), gallery: [image('b')] })).toBe('/a-thumbnail.jpg');
    expect(thumbnailOf({ featured_image: null, gallery: [image('b')] })).toBe('/b-thumbnail.jpg');
    expect(thumbnailOf({ featured_image: { url: '/c.jpg', sizes: {} }, gallery: [] })).toBe('/c.jpg');
    expect(thumbnailOf({ featured_image: null, gallery: [] })).toBeNull();
  });

  it('writes the place from the parts that are set', () => {
    expect(placeOf({ address: { address: '1 Main St', city: { name: 'Miami' }, state: null, country: { name: 'United States' } } })).toBe(
      '1 Main St, Miami, United States',
    );
    expect(placeOf({ address: { address: '', city: null, state: null, country: null } })).toBe('');
  });
});
