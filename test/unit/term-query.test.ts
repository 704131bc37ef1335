import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/errors.js';
import { TERM_ENDPOINTS } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { parseTermQuery, termQueryKey } from '../../src/modules/taxonomies/term-query.js';

const types = TERM_ENDPOINTS.find((e) => e.taxonomy === 'property_type')!;
const states = TERM_ENDPOINTS.find((e) => e.taxonomy === 'property_state')!;

describe('parseTermQuery', () => {
  it('applies the WordPress defaults', () => {
    expect(parseTermQuery(types, {})).toEqual({
      taxonomy: 'property_type',
      hideEmpty: false,
      orderBy: 'name',
      descending: false,
      limit: undefined,
      offset: 0,
      parent: undefined,
      search: undefined,
      include: undefined,
      exclude: undefined,
      slugs: undefined,
      locationParent: undefined,
    });
  });

  it('reads booleans, order in any case, number 0 as all, and lists', () => {
    const filter = parseTermQuery(types, {
      hide_empty: '1',
      order: 'desc',
      orderby: 'count',
      number: 0,
      offset: 5,
      include: '3,1,3',
      exclude: '9',
      slug: 'Villa, apartment',
      search: '  Équipé ',
    });
    expect(filter).toMatchObject({
      hideEmpty: true,
      descending: true,
      orderBy: 'count',
      limit: undefined,
      offset: 5,
      include: [3, 1],
      exclude: [9],
      slugs: ['villa', 'apartment'],
      search: 'equipe',
    });
    expect(parseTermQuery(types, { hide_empty: 'false', number: 7 })).toMatchObject({ hideEmpty: false, limit: 7 });
  });

  it('reads a location filter as an id or a slug', () => {
    expect(parseTermQuery(states, { country: '12' }).locationParent).toEqual({ taxonomy: 'property_country', id: 12 });
    expect(parseTermQuery(states, { country: 'United States' }).locationParent).toEqual({
      taxonomy: 'property_country',
      slug: 'united-states',
    });
  });

  it.each([
    [{ include: Array.from({ length: 101 }, (_, i) => i + 1).join(',') }, 'include'],
    [{ exclude: '2147483648' }, 'exclude'],
    [{ slug: Array.from({ length: 51 }, (_, i) => `s${i}`).join(',') }, 'slug'],
  ])('refuses %j naming %s', (query, field) => {
    try {
      parseTermQuery(types, query);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).fields[0]?.field).toBe(field);
    }
  });

  it('refuses a location id beyond 32 bits', () => {
    expect(() => parseTermQuery(states, { country: '9999999999' })).toThrow(AppError);
  });
});

describe('termQueryKey', () => {
  it('tells apart queries that differ in any parameter, even when values contain separators', () => {
    const keys = [
      {},
      { search: 'a|1' },
      { search: 'a', include: '1' },
      { search: '1:a' },
      { number: 0 },
      { offset: 0 },
      { order: 'DESC' },
      { order: 'desc' },
    ].map((query) => termQueryKey(types, query));
    expect(new Set(keys).size).toBe(keys.length);
    expect(termQueryKey(types, { search: 'x' })).not.toBe(termQueryKey(states, { search: 'x' }));
    expect(termQueryKey(types, { search: 'x', number: 5 })).toBe(termQueryKey(types, { number: 5, search: 'x' }));
  });
});
