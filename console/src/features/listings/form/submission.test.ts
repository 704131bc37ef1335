import { describe, expect, it } from 'vitest';
import { emptyFormValues } from './form-values';
import { missingForSubmission } from './submission';

describe('what a submission needs', () => {
  const complete = { ...emptyFormValues(), title: 'Sea view', price: '250000', type_ids: ['3'], city: '7' };

  it('asks for a title, a price (or price on request), a type and a city', () => {
    expect(missingForSubmission(emptyFormValues(), [], false)).toEqual(['title', 'price', 'type_ids', 'city']);
    expect(missingForSubmission(complete, [], false)).toEqual([]);
    expect(missingForSubmission({ ...complete, price: '' }, [], true)).toEqual([]);
    expect(missingForSubmission({ ...complete, title: '   ' }, [], false)).toEqual(['title']);
  });

  it('adds the site’s fields, as the form names them, and price on request does not excuse the site’s price', () => {
    expect(missingForSubmission(complete, ['media_ids', 'latitude', 'description', 'unknown'], false)).toEqual([
      'description',
      'latitude',
      'gallery',
    ]);
    expect(missingForSubmission({ ...complete, price: '' }, ['price'], true)).toEqual(['price']);
    // A description of tags alone, and half a position, are still missing.
    expect(missingForSubmission({ ...complete, description: '<p> </p>', latitude: '36.7' }, ['description', 'latitude'], false)).toEqual([
      'description',
      'latitude',
    ]);
  });
});
