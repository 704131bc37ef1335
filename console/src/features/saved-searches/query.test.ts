import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBody, DEFAULT_ALERTS, EMPTY_SEARCH, isFrequency, savableQuery, searchProblem, searchQuery } from './query';

const blank = fc.constantFrom('', ' ', '  \t', '\n');
const anyValue = fc.oneof(fc.string(), blank, fc.constant(undefined), fc.constant(null));
const anyQuery = fc.dictionary(
  fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom('page', 'per_page', 'paged', 'facets', 'lang', 'keyword')),
  anyValue,
);

describe('savableQuery', () => {
  it('lets no empty, undefined or request-only parameter through, and trims the rest', () => {
    fc.assert(
      fc.property(anyQuery, (query) => {
        const kept = savableQuery(query);
        for (const [name, value] of Object.entries(kept)) {
          expect(typeof value).toBe('string');
          expect(value.trim()).not.toBe('');
          expect(value).toBe(value.trim());
          expect(['page', 'per_page', 'paged', 'facets', 'lang']).not.toContain(name);
          expect(value).toBe((query[name] as string).trim());
        }
        // Everything worth saving is kept.
        for (const [name, value] of Object.entries(query)) {
          if (typeof value === 'string' && value.trim() !== '' && !['page', 'per_page', 'paged', 'facets', 'lang'].includes(name)) {
            expect(kept[name]).toBe(value.trim());
          }
        }
      }),
    );
  });

  it('keeps a search page’s filters and drops its paging', () => {
    expect(savableQuery({ keyword: ' villa ', city: 'miami', page: '3', per_page: '20', facets: 'type', type: '' })).toEqual({
      keyword: 'villa',
      city: 'miami',
    });
  });
});

describe('searchQuery and createBody', () => {
  const fields = fc.record({
    keyword: fc.oneof(fc.string(), blank),
    type: fc.oneof(fc.constantFrom('apartment', 'villa'), blank),
    status: fc.oneof(fc.constantFrom('for-sale', 'for-rent'), blank),
    city: fc.oneof(fc.constantFrom('miami', '74'), blank),
    min_price: fc.oneof(fc.nat().map(String), blank),
    max_price: fc.oneof(fc.nat().map(String), blank),
    min_beds: fc.oneof(fc.integer({ min: 1, max: 6 }).map(String), blank),
  });

  it('never sends an empty parameter, whatever the form holds', () => {
    fc.assert(
      fc.property(
        fields,
        fc.string(),
        fc.boolean(),
        fc.constantFrom('instant' as const, 'daily' as const, 'weekly' as const),
        (search, name, email, frequency) => {
          const body = createBody({ name, frequency, email_alerts: email }, searchQuery(search));
          for (const value of Object.values(body.query)) expect(value.trim()).not.toBe('');
          for (const key of Object.keys(body.query)) expect(Object.keys(EMPTY_SEARCH)).toContain(key);
          if (body.name !== undefined) expect(body.name.trim()).not.toBe('');
          expect(body.frequency).toBe(frequency);
          expect(body.email_alerts).toBe(email);
        },
      ),
    );
  });

  it('builds the body of a named instant search', () => {
    expect(
      createBody(
        { name: ' Zebra ', frequency: 'instant', email_alerts: false },
        searchQuery({ ...EMPTY_SEARCH, keyword: 'zebra', min_beds: '2' }),
      ),
    ).toEqual({
      name: 'Zebra',
      query: { keyword: 'zebra', min_beds: '2' },
      frequency: 'instant',
      email_alerts: false,
    });
    expect(createBody(DEFAULT_ALERTS, { city: 'miami' })).toEqual({ query: { city: 'miami' }, frequency: 'daily', email_alerts: true });
  });
});

describe('searchProblem', () => {
  it('asks for at least one filter and an ordered price range', () => {
    expect(searchProblem(EMPTY_SEARCH)).toBe('empty_query');
    expect(searchProblem({ ...EMPTY_SEARCH, keyword: '  ' })).toBe('empty_query');
    expect(searchProblem({ ...EMPTY_SEARCH, min_price: '500', max_price: '100' })).toBe('price_range');
    expect(searchProblem({ ...EMPTY_SEARCH, min_price: '100', max_price: '500' })).toBeNull();
    expect(searchProblem({ ...EMPTY_SEARCH, keyword: 'x' })).toBeNull();
  });

  it('isFrequency accepts only the three frequencies', () => {
    expect(['instant', 'daily', 'weekly'].every(isFrequency)).toBe(true);
    expect(isFrequency('hourly')).toBe(false);
  });
});
