import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { parseQueryString } from '../../src/http/querystring.js';
import { registerValidation } from '../../src/http/validation.js';
import {
  MAX_ID,
  MAX_RADIUS_MI,
  MapQuery,
  type MapQueryInput,
  SavedSearchQueryObject,
  type SavedSearchQueryObjectInput,
  SearchQuery,
  type SearchQueryInput,
} from '../../src/modules/search/query/search-query.schemas.js';
import {
  type MapSearch,
  normalizeMapQuery,
  normalizeSavedSearchQuery,
  normalizeSearchQuery,
} from '../../src/modules/search/query/search-query.js';
import { searchQueryParams, searchQueryString } from '../../src/modules/search/query/search-canonical.js';
import {
  FACET_NAMES,
  SEARCH_SORTS,
  type SearchQuery as Search,
  type SearchSort,
  TAXONOMY_FILTERS,
} from '../../src/modules/search/query/search-types.js';

/**
 * The parameters go through what a request goes through (the app's query-string parser, its Ajv settings and
 * error handler), so that coercion and the rendered 400 are those clients get.
 */
let app: FastifyInstance;
let lastSearch: Search | MapSearch | undefined;

beforeAll(async () => {
  app = Fastify({ routerOptions: { querystringParser: parseQueryString } });
  registerValidation(app);
  app.decorateRequest('lang', 'en');
  registerErrorHandling(app);
  app.get('/search', { schema: { querystring: SearchQuery } }, async (request) => {
    lastSearch = normalizeSearchQuery(request.query as SearchQueryInput);
    return {};
  });
  app.get('/map', { schema: { querystring: MapQuery } }, async (request) => {
    lastSearch = normalizeMapQuery(request.query as MapQueryInput);
    return {};
  });
  app.post(
    '/saved',
    {
      schema: {
        body: Type.Object(
          { query: Type.Optional(SavedSearchQueryObject), query_string: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const body = request.body as { query?: SavedSearchQueryObjectInput; query_string?: string };
      lastSearch = normalizeSavedSearchQuery(body.query ?? body.query_string ?? '');
      return {};
    },
  );
  await app.ready();
});
afterAll(() => app.close());

interface FieldMessage {
  field: string;
  message: string;
}

async function call(url: string, payload?: object): Promise<{ search?: unknown; errors?: FieldMessage[] }> {
  lastSearch = undefined;
  const res = await app.inject(payload ? { method: 'POST', url, payload } : { method: 'GET', url });
  if (res.statusCode === 200) return { search: lastSearch };
  expect(res.statusCode).toBe(400);
  expect(res.json().code).toBe('validation_failed');
  return { errors: res.json().errors };
}

/** The search a query string means. */
async function search(query: string): Promise<unknown> {
  const { search, errors } = await call(`/search?${query}`);
  expect(errors).toBeUndefined();
  return search;
}

/** The errors a query string gets. */
async function errors(query: string, path = '/search'): Promise<FieldMessage[] | undefined> {
  return (await call(`${path}?${query}`)).errors;
}

const error = (field: string, message: string) => ({ field, message });

const POLYGON_RULE = 'must be 3 to 100 “latitude longitude” pairs separated by commas';

describe('normalizeSearchQuery', () => {
  it('reads every parameter of docs/api.md 4.4', async () => {
    expect(
      await search(
        [
          'keyword=+sea+view+',
          'type=apartment,villa',
          'status=for-sale',
          'label=hot',
          'feature=pool,gym',
          'country=us',
          'state=florida',
          'city=miami',
          'area=brickell',
          'min_price=100000',
          'max_price=250000.5',
          'currency=usd',
          'min_size=50',
          'max_size=120',
          'min_land_size=200',
          'max_land_size=1e3',
          'min_beds=2',
          'max_beds=4',
          'bathrooms=2',
          'garage=1',
          'min_year_built=1990',
          'max_year_built=2020',
          'featured=true',
          'agent_id=7',
          'agency_id=8',
          'user_id=9',
          'ids=30,10,20',
          'reference=+REF-1+',
          'latitude=25.76',
          'longitude=-80.19',
          'radius=5',
          'radius_unit=mi',
          'ne_lat=26',
          'ne_lng=-80',
          'sw_lat=25.5',
          'sw_lng=-80.5',
          'polygon=25.1+-80.1,25.2+-80.2,25.3+-80.1',
          'include_sold=true',
          'sortby=a_price',
          'facets=type,price',
          'page=2',
          'per_page=20',
        ].join('&'),
      ),
    ).toStrictEqual({
      keyword: 'sea view',
      terms: {
        type: ['apartment', 'villa'],
        status: ['for-sale'],
        label: ['hot'],
        feature: ['pool', 'gym'],
        country: ['us'],
        state: ['florida'],
        city: ['miami'],
        area: ['brickell'],
      },
      price: { min: 100000, max: 250000.5 },
      currency: 'USD',
      size: { min: 50, max: 120 },
      land_size: { min: 200, max: 1000 },
      bedrooms: { min: 2, max: 4 },
      bathrooms: { min: 2, max: 2 },
      garage: 1,
      year_built: { min: 1990, max: 2020 },
      featured: true,
      agent_id: 7,
      agency_id: 8,
      user_id: 9,
      ids: [10, 20, 30],
      reference: 'REF-1',
      circle: { latitude: 25.76, longitude: -80.19, radius: 5, unit: 'mi' },
      box: { north: 26, east: -80, south: 25.5, west: -80.5 },
      polygon: [
        { latitude: 25.1, longitude: -80.1 },
        { latitude: 25.2, longitude: -80.2 },
        { latitude: 25.3, longitude: -80.1 },
      ],
      include_sold: true,
      sortby: 'a_price',
      facets: ['type', 'price'],
    });
  });

  it('is empty without parameters, and leaves out what filters nothing', async () => {
    expect(await search('')).toStrictEqual({});
    expect(await search('page=3&paged=3&per_page=5')).toStrictEqual({});
    expect(await search('keyword=+++&reference=&featured=false&include_sold=false&type=&city=,+,')).toStrictEqual({});
    expect(await search('sortby=d_date')).toStrictEqual({});
    expect(await search('keyword=loft&sortby=relevance')).toStrictEqual({ keyword: 'loft' });
    expect(await search('keyword=loft&sortby=d_date')).toStrictEqual({ keyword: 'loft', sortby: 'd_date' });
    expect(await search('latitude=1&longitude=2&radius_unit=km&radius=3')).toStrictEqual({
      circle: { latitude: 1, longitude: 2, radius: 3, unit: 'km' },
    });
    // Without a radius the unit still says how each result's `distance` is given.
    expect(await search('latitude=1&longitude=2&radius_unit=mi')).toStrictEqual({ circle: { latitude: 1, longitude: 2, unit: 'mi' } });
  });

  it('takes a centre without a radius: it filters nothing but orders by distance', async () => {
    expect(await search('latitude=-0&longitude=0&sortby=distance')).toStrictEqual({
      circle: { latitude: 0, longitude: 0, unit: 'km' },
      sortby: 'distance',
    });
  });

  it('reads the exact counts as one-value ranges, and zero as a value', async () => {
    expect(await search('bedrooms=0&min_baths=1&garage=0&min_price=0')).toStrictEqual({
      bedrooms: { min: 0, max: 0 },
      bathrooms: { min: 1 },
      garage: 0,
      price: { min: 0 },
    });
  });

  it.each([
    ['min-price=5&max-price=9', { price: { min: 5, max: 9 } }],
    ['min-area=5&max-area=9', { size: { min: 5, max: 9 } }],
    ['min-beds=1&max-beds=3', { bedrooms: { min: 1, max: 3 } }],
    ['min-baths=1&max-baths=2', { bathrooms: { min: 1, max: 2 } }],
    ['lat=10&lng=20&radius=1', { circle: { latitude: 10, longitude: 20, radius: 1, unit: 'km' } }],
    ['location=miami', { terms: { city: ['miami'] } }],
    ['areas=brickell', { terms: { area: ['brickell'] } }],
    ['states=florida', { terms: { state: ['florida'] } }],
  ])('reads the Houzez alias in %s', async (query, expected) => {
    expect(await search(query)).toStrictEqual(expected);
  });

  it('accepts an alias beside its parameter when both mean the same', async () => {
    expect(await search('page=2&paged=2&min_price=5&min-price=5.0&city=miami&location=MIAMI')).toStrictEqual({
      price: { min: 5 },
      terms: { city: ['miami'] },
    });
  });

  it('refuses an alias that contradicts its parameter, naming the alias', async () => {
    expect(await errors('page=2&paged=3&min_price=5&min-price=6&city=a&location=b&lat=1&latitude=2&longitude=3')).toEqual([
      error('paged', 'gives another value than page'),
      error('location', 'gives another value than city'),
      error('min-price', 'gives another value than min_price'),
      error('lat', 'gives another value than latitude'),
    ]);
  });

  it('reads every array form alike, trimmed, lower-cased, without blanks or repeats, in first order', async () => {
    const expected = { terms: { type: ['villa', 'apartment'] } };
    expect(await search('type=villa,apartment')).toStrictEqual(expected);
    expect(await search('type[]=villa&type[]=apartment')).toStrictEqual(expected);
    expect(await search('type%5B%5D=villa&type%5B%5D=apartment')).toStrictEqual(expected);
    expect(await search('type=villa&type=apartment')).toStrictEqual(expected);
    expect(await search('type=+Villa+,,APARTMENT,villa,&type[]=apartment')).toStrictEqual(expected);
    expect(await search('feature=12,%D9%85%D8%B3%D8%A8%D8%AD,007')).toStrictEqual({ terms: { feature: ['12', 'مسبح', '007'] } });
  });

  it('reads ids unique and ascending, at most 100', async () => {
    expect(await search('ids[]=5&ids[]=3&ids=5,+1+,')).toStrictEqual({ ids: [1, 3, 5] });
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(await search(`ids=${hundred.join(',')},1`)).toStrictEqual({ ids: hundred });
    expect(await errors(`ids=${hundred.join(',')},101`)).toEqual([error('ids', 'must have at most 100 items')]);
    for (const bad of ['0', '1,x', '-1', '1.5', String(MAX_ID + 1), '01']) {
      expect(await errors(`ids=${bad}`)).toEqual([error('ids', 'must be a comma-separated list of positive integers')]);
    }
  });

  it('refuses more than 50 terms, a value that is not a slug, and an id beyond 32 bits', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`);
    expect(await search(`type=${fifty.join(',')},t0`)).toStrictEqual({ terms: { type: fifty } });
    expect(await errors(`type=${fifty.join(',')},t50`)).toEqual([error('type', 'must have at most 50 items')]);
    for (const bad of ['a_b', 'a--b', '-a', 'a b', 'a.b', 'x'.repeat(201)]) {
      expect(await errors(`city=ok,${encodeURIComponent(bad)}`)).toEqual([error('city', 'must be a comma-separated list of slugs')]);
    }
    expect(await errors(`area=${MAX_ID + 1}`)).toEqual([error('area', `must be at most ${MAX_ID}`)]);
    expect(await search(`area=${MAX_ID}`)).toStrictEqual({ terms: { area: [String(MAX_ID)] } });
  });

  it('reads facets as a list of facet names', async () => {
    expect(await search('facets=price,+Type+,price&facets[]=bedrooms')).toStrictEqual({ facets: ['price', 'type', 'bedrooms'] });
    expect(await search('facets=,')).toStrictEqual({});
    expect(await errors('facets=type,rooms')).toEqual([error('facets', `must be one of: ${FACET_NAMES.join(', ')}`)]);
  });

  it.each([
    ['min_price=10&max_price=9', 'min_price', 9],
    ['min-price=10&max-price=9', 'min-price', 9],
    ['min_size=2&max-area=1', 'min_size', 1],
    ['min-area=2&max_size=1.5', 'min-area', 1.5],
    ['min_land_size=2&max_land_size=1', 'min_land_size', 1],
    ['min_beds=3&max_beds=2', 'min_beds', 2],
    ['min-baths=3&max-baths=2', 'min-baths', 2],
    ['min_year_built=2001&max_year_built=2000', 'min_year_built', 2000],
    ['ne_lat=1&ne_lng=0&sw_lat=2&sw_lng=0', 'sw_lat', 1],
  ])('refuses a lower bound above the upper: %s', async (query, field, limit) => {
    expect(await errors(query)).toEqual([error(field, `must be at most ${limit}`)]);
  });

  it('accepts equal bounds, and a box crossing the antimeridian', async () => {
    expect(await search('min_price=5&max_price=5&ne_lat=1&ne_lng=-170&sw_lat=1&sw_lng=170')).toStrictEqual({
      price: { min: 5, max: 5 },
      box: { north: 1, east: -170, south: 1, west: 170 },
    });
  });

  it.each([
    ['radius=5', [error('latitude', 'is required'), error('longitude', 'is required')]],
    ['latitude=5', [error('longitude', 'is required')]],
    ['lng=5&radius=1', [error('latitude', 'is required')]],
    ['radius_unit=mi', [error('latitude', 'is required')]],
    ['sortby=distance', [error('latitude', 'is required'), error('longitude', 'is required')]],
    ['sortby=distance&latitude=1', [error('longitude', 'is required')]],
    ['sortby=relevance', [error('keyword', 'is required')]],
    ['sortby=relevance&keyword=+', [error('keyword', 'is required')]],
    ['ne_lat=1&sw_lng=2', [error('ne_lng', 'is required'), error('sw_lat', 'is required')]],
    ['bedrooms=2&min_beds=1', [error('min_beds', 'cannot be combined with bedrooms')]],
    ['bedrooms=2&max-beds=3', [error('max-beds', 'cannot be combined with bedrooms')]],
    ['bathrooms=2&max_baths=3', [error('max_baths', 'cannot be combined with bathrooms')]],
    ['latitude=1&longitude=2&radius=12427.43&radius_unit=mi', [error('radius', `must be at most ${MAX_RADIUS_MI}`)]],
  ])('refuses %s', async (query, expected) => {
    expect(await errors(query)).toEqual(expected);
  });

  it('reports every broken rule at once', async () => {
    expect(await errors('min_price=2&max_price=1&radius=1&sortby=relevance&ne_lat=1')).toEqual([
      error('min_price', 'must be at most 1'),
      error('latitude', 'is required'),
      error('longitude', 'is required'),
      error('ne_lng', 'is required'),
      error('sw_lat', 'is required'),
      error('sw_lng', 'is required'),
      error('keyword', 'is required'),
    ]);
  });

  it.each([
    ['latitude=90.5&longitude=0', 'latitude', 'must be at most 90'],
    ['lng=-180.1&lat=0', 'lng', 'must be at least -180'],
    ['ne_lat=-91&ne_lng=0&sw_lat=0&sw_lng=0', 'ne_lat', 'must be at least -90'],
    ['radius=0&latitude=1&longitude=1', 'radius', 'must be at least 0'],
    ['radius=20000.1&latitude=1&longitude=1', 'radius', 'must be at most 20000'],
    ['radius_unit=m', 'radius_unit', 'must be one of: km, mi'],
    ['min_price=-1', 'min_price', 'must be at least 0'],
    ['max_price=1e14', 'max_price', 'must be at most 10000000000000'],
    ['max_price=Infinity', 'max_price', 'must be at most 10000000000000'],
    ['min_size=abc', 'min_size', 'must be of type number'],
    ['max-area=', 'max-area', 'must be of type number'],
    ['bedrooms=1.5', 'bedrooms', 'must be of type integer'],
    ['garage=10001', 'garage', 'must be at most 10000'],
    ['min_year_built=999', 'min_year_built', 'must be at least 1000'],
    ['agent_id=0', 'agent_id', 'must be at least 1'],
    ['user_id=2147483648', 'user_id', 'must be at most 2147483647'],
    ['featured=yes', 'featured', 'must be of type boolean'],
    ['include_sold=1', 'include_sold', 'must be of type boolean'],
    ['currency=US', 'currency', 'has an invalid format'],
    ['currency=US1', 'currency', 'has an invalid format'],
    [`keyword=${'k'.repeat(201)}`, 'keyword', 'must be at most 200 characters long'],
    [`reference=${'r'.repeat(201)}`, 'reference', 'must be at most 200 characters long'],
    ['sortby=price', 'sortby', `must be one of: ${SEARCH_SORTS.join(', ')}`],
    ['min_price=1&min_price=2', 'min_price', 'must be of type number'],
    ['per_page=101', 'per_page', 'must be at most 100'],
    ['zoom=3', 'zoom', 'is not an accepted field'],
    ['min_price_typo=3', 'min_price_typo', 'is not an accepted field'],
  ])('refuses out-of-range and unknown values: %s', async (query, field, message) => {
    expect(await errors(query)).toEqual([error(field, message)]);
  });

  describe('polygon', () => {
    it('reads `lat lng,...`, tolerating white space and a ring closed by hand', async () => {
      const triangle = [
        { latitude: 1, longitude: 2 },
        { latitude: -3.5, longitude: 4 },
        { latitude: 0.5, longitude: -179 },
      ];
      expect(await search('polygon=1+2,-3.5+4,.5+-179')).toStrictEqual({ polygon: triangle });
      expect(await search(`polygon=${encodeURIComponent(' 1\t 2 , -3.5  4,0.5e0 -179 , 1 2,')}`)).toStrictEqual({ polygon: triangle });
      expect(await search('polygon=+')).toStrictEqual({});
    });

    it('takes 3 to 100 vertices', async () => {
      const vertices = (n: number) => Array.from({ length: n }, (_, i) => `${i / 10}+${i / 10}`).join(',');
      expect(((await search(`polygon=${vertices(100)}`)) as Search).polygon).toHaveLength(100);
      expect(await errors(`polygon=${vertices(101)}`)).toEqual([error('polygon', 'must have at most 100 items')]);
      expect(await errors('polygon=1+2,3+4')).toEqual([error('polygon', POLYGON_RULE)]);
      expect(await errors('polygon=1+2,3+4,1+2')).toEqual([error('polygon', POLYGON_RULE)]);
    });

    it.each([
      '1+2,3+4,5',
      '1+2+3,3+4,5+6',
      '1;2,3+4,5+6',
      '0x1+2,3+4,5+6',
      'Infinity+2,3+4,5+6',
      '91+2,3+4,5+6',
      '1+180.5,3+4,5+6',
      '1e999+1,2+2,3+3',
    ])('refuses %s', async (polygon) => {
      expect(await errors(`polygon=${polygon}`)).toEqual([error('polygon', POLYGON_RULE)]);
    });
  });
});

describe('normalizeMapQuery', () => {
  const BOX = 'ne_lat=2&ne_lng=3&sw_lat=1&sw_lng=-3';

  it('gives the filters (the box among them), the box and the zoom', async () => {
    expect(await call(`/map?${BOX}&zoom=5&min-beds=2&lat=1&lng=1&radius=3`)).toStrictEqual({
      search: {
        filters: {
          bedrooms: { min: 2 },
          circle: { latitude: 1, longitude: 1, radius: 3, unit: 'km' },
          box: { north: 2, east: 3, south: 1, west: -3 },
        },
        box: { north: 2, east: 3, south: 1, west: -3 },
        zoom: 5,
      },
    });
  });

  it('requires the box and the zoom, refuses sorting, facets and paging', async () => {
    expect(await errors('ne_lat=2&sw_lng=1', '/map')).toEqual([
      error('ne_lng', 'is required'),
      error('sw_lat', 'is required'),
      error('zoom', 'is required'),
    ]);
    expect(await errors(`${BOX}&zoom=23`, '/map')).toEqual([error('zoom', 'must be at most 22')]);
    for (const extra of ['sortby=d_date', 'facets=type', 'page=1', 'per_page=5']) {
      expect(await errors(`${BOX}&zoom=1&${extra}`, '/map')).toEqual([error(extra.split('=')[0]!, 'is not an accepted field')]);
    }
  });

  it('applies the same rules as the search', async () => {
    expect(await errors(`${BOX}&zoom=1&min_price=3&max_price=2&radius=1`, '/map')).toEqual([
      error('min_price', 'must be at most 2'),
      error('latitude', 'is required'),
      error('longitude', 'is required'),
    ]);
    expect(await errors('ne_lat=1&ne_lng=1&sw_lat=2&sw_lng=1&zoom=1', '/map')).toEqual([error('sw_lat', 'must be at most 1')]);
  });
});

describe('canonical form', () => {
  it('uses canonical names, in a fixed order, with readable lists', async () => {
    const query = (await search(
      'facets=price&include_sold=true&polygon=1+2,3+4,5+6&lng=-80.5&lat=25&radius=2.50&radius_unit=mi&ids=3,1&' +
        'location=Miami,Tampa&min-beds=2&max-beds=2&min-price=100000&keyword=a%2Bb%26c%2Cd&sortby=distance&featured=true',
    )) as Search;
    expect(searchQueryParams(query)).toStrictEqual({
      keyword: 'a+b&c,d',
      city: 'miami,tampa',
      min_price: '100000',
      bedrooms: '2',
      featured: 'true',
      ids: '1,3',
      latitude: '25',
      longitude: '-80.5',
      radius: '2.5',
      radius_unit: 'mi',
      polygon: '1 2,3 4,5 6',
      include_sold: 'true',
      sortby: 'distance',
      facets: 'price',
    });
    expect(Object.keys(searchQueryParams(query))).toEqual([
      'keyword',
      'city',
      'min_price',
      'bedrooms',
      'featured',
      'ids',
      'latitude',
      'longitude',
      'radius',
      'radius_unit',
      'polygon',
      'include_sold',
      'sortby',
      'facets',
    ]);
    expect(searchQueryString(query)).toBe(
      'keyword=a%2Bb%26c,d&city=miami,tampa&min_price=100000&bedrooms=2&featured=true&ids=1,3&latitude=25&' +
        'longitude=-80.5&radius=2.5&radius_unit=mi&polygon=1+2,3+4,5+6&include_sold=true&sortby=distance&facets=price',
    );
    expect(await search(searchQueryString(query))).toStrictEqual(query);
  });

  it('writes a range with equal bounds as the exact count, and leaves defaults out', () => {
    expect(searchQueryString({ bathrooms: { min: 3, max: 3 }, bedrooms: { max: 4 } })).toBe('max_beds=4&bathrooms=3');
    expect(searchQueryString({ circle: { latitude: 1, longitude: 2, unit: 'km' } })).toBe('latitude=1&longitude=2');
    expect(searchQueryString({})).toBe('');
  });

  it('reads back as the same search, whatever the search', async () => {
    await fc.assert(
      fc.asyncProperty(searchArbitrary(), async (query) => {
        expect(await search(searchQueryString(query))).toStrictEqual(query);
      }),
      { numRuns: 300 },
    );
  });

  it('reads back as the same saved search, as a string and as an object', () => {
    fc.assert(
      fc.property(searchArbitrary(), (query) => {
        const { facets: _facets, ...saved } = query;
        expect(normalizeSavedSearchQuery(searchQueryString(saved))).toStrictEqual(saved);
        expect(normalizeSavedSearchQuery(`?${searchQueryString(saved)}`)).toStrictEqual(saved);
        expect(normalizeSavedSearchQuery(searchQueryParams(saved))).toStrictEqual(saved);
      }),
      { numRuns: 300 },
    );
  });
});

describe('normalizeSavedSearchQuery', () => {
  it('reads a query object with typed values and aliases, and a query string', async () => {
    const expected = {
      terms: { type: ['apartment', 'villa'], city: ['miami'] },
      price: { min: 100000 },
      bedrooms: { min: 2, max: 2 },
      featured: true,
      ids: [2, 4],
      circle: { latitude: 25.5, longitude: -80, unit: 'km' },
      sortby: 'distance',
    };
    const object = {
      type: ['apartment', 'Villa'],
      location: 'miami',
      'min-price': 100000,
      bedrooms: '2',
      featured: true,
      ids: [4, '2'],
      lat: 25.5,
      lng: '-80',
      sortby: 'distance',
    };
    expect(normalizeSavedSearchQuery(object)).toStrictEqual(expected);
    expect(await call('/saved', { query: object })).toStrictEqual({ search: expected });
    const text =
      '?type[]=apartment&type[]=villa&location=miami&min-price=100000&bedrooms=2&featured=true&ids=4,2&lat=25.5&lng=-80&sortby=distance';
    expect(normalizeSavedSearchQuery(text)).toStrictEqual(expected);
    expect(await call('/saved', { query_string: text })).toStrictEqual({ search: expected });
  });

  it('refuses paging, facets and unknown parameters, naming them under the body field', async () => {
    expect(await call('/saved', { query: { page: 1, facets: 'type', type: 'villa' } })).toStrictEqual({
      errors: [error('query.page', 'is not an accepted field'), error('query.facets', 'is not an accepted field')],
    });
    expect(await call('/saved', { query_string: 'per_page=5&paged=2&lang=fr&city=miami' })).toStrictEqual({
      errors: [
        error('query_string.per_page', 'is not an accepted field'),
        error('query_string.paged', 'is not an accepted field'),
        error('query_string.lang', 'is not an accepted field'),
      ],
    });
  });

  it('applies the rules of the search, naming fields under the body field', async () => {
    expect(await call('/saved', { query: { min_price: 'cheap', featured: 'yes' } })).toStrictEqual({
      errors: [error('query.min_price', 'must be of type number'), error('query.featured', 'must be of type boolean')],
    });
    expect(await call('/saved', { query: { keyword: null, type: [['villa']] } })).toStrictEqual({
      errors: [
        error('query.keyword', 'must be of type string'),
        error('query.type', 'must be of type string'),
        error('query.type.0', 'must be of type string'),
      ],
    });
    expect(() => normalizeSavedSearchQuery({ keyword: null } as never)).toThrow(
      expect.objectContaining({
        validation: expect.arrayContaining([expect.objectContaining({ instancePath: '/query/keyword', keyword: 'type' })]),
      }),
    );
    expect(await call('/saved', { query: { min_price: 5, 'max-price': 4, sortby: 'relevance' } })).toStrictEqual({
      errors: [error('query.min_price', 'must be at most 4'), error('query.keyword', 'is required')],
    });
    expect(await call('/saved', { query_string: 'radius=3&city=a_b' })).toStrictEqual({
      errors: [
        error('query_string.city', 'must be a comma-separated list of slugs'),
        error('query_string.latitude', 'is required'),
        error('query_string.longitude', 'is required'),
      ],
    });
    expect(await call('/saved', { query: { min_price: [1, 2] } })).toStrictEqual({
      errors: [error('query.min_price', 'must be of type number')],
    });
  });

  it('is empty for an empty query', () => {
    expect(normalizeSavedSearchQuery('')).toStrictEqual({});
    expect(normalizeSavedSearchQuery('?')).toStrictEqual({});
    expect(normalizeSavedSearchQuery({})).toStrictEqual({});
  });
});

// A canonical search, as normalizeSearchQuery gives them.

/** `+ 0` turns -0 into 0, as the normalization does. */
const double = (min: number, max: number) => fc.double({ min, max, noNaN: true }).map((n) => n + 0);
const integer = (min: number, max: number) => fc.integer({ min, max });

function range(value: fc.Arbitrary<number>) {
  return fc.oneof(
    value.map((min) => ({ min })),
    value.map((max) => ({ max })),
    fc.tuple(value, value).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })),
  );
}

// Null-prototype records (fast-check's default) would never equal the plain objects normalization builds.
const PLAIN = { noNullPrototype: true };
const NO_KEYS_REQUIRED = { requiredKeys: [] as never[], noNullPrototype: true };
const text = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
  .filter((value) => value.trim() === value && value.length > 0 && [...value].length <= 200);
const slug = fc
  .stringMatching(/^[a-z0-9é]{1,12}(-[a-zش0-9]{1,6}){0,2}$/)
  .filter((value) => !(/^[1-9][0-9]*$/.test(value) && Number(value) > MAX_ID));
const terms = fc
  .record(
    Object.fromEntries(TAXONOMY_FILTERS.map((name) => [name, fc.uniqueArray(slug, { minLength: 1, maxLength: 4 })])),
    NO_KEYS_REQUIRED,
  )
  .filter((record) => Object.keys(record).length > 0);
const point = { latitude: double(-90, 90), longitude: double(-180, 180) };
const circle = fc.oneof(
  fc.record({ ...point, unit: fc.constant('km' as const) }, PLAIN),
  fc.record({ ...point, radius: double(Number.MIN_VALUE, 20_000), unit: fc.constant('km' as const) }, PLAIN),
  fc.record({ ...point, radius: double(Number.MIN_VALUE, MAX_RADIUS_MI), unit: fc.constant('mi' as const) }, PLAIN),
);
const box = fc
  .tuple(double(-90, 90), double(-90, 90), double(-180, 180), double(-180, 180))
  .map(([a, b, east, west]) => ({ north: Math.max(a, b), south: Math.min(a, b), east, west }));
const polygon = fc
  .array(fc.record(point, PLAIN), { minLength: 3, maxLength: 100 })
  .filter((ring) => ring[0]!.latitude !== ring.at(-1)!.latitude || ring[0]!.longitude !== ring.at(-1)!.longitude);

function searchArbitrary(): fc.Arbitrary<Search> {
  return fc
    .record(
      {
        keyword: text,
        terms,
        price: range(double(0, 1e13)),
        currency: fc.stringMatching(/^[A-Z]{3}$/),
        size: range(double(0, 1e10)),
        land_size: range(double(0, 1e10)),
        bedrooms: range(integer(0, 10_000)),
        bathrooms: range(integer(0, 10_000)),
        garage: integer(0, 10_000),
        year_built: range(integer(1000, 9999)),
        featured: fc.constant(true as const),
        agent_id: integer(1, MAX_ID),
        agency_id: integer(1, MAX_ID),
        user_id: integer(1, MAX_ID),
        ids: fc.uniqueArray(integer(1, MAX_ID), { minLength: 1, maxLength: 100 }).map((ids) => ids.sort((a, b) => a - b)),
        reference: text,
        circle,
        box,
        polygon,
        include_sold: fc.constant(true as const),
        sortby: fc.constantFrom(...SEARCH_SORTS),
        facets: fc.uniqueArray(fc.constantFrom(...FACET_NAMES), { minLength: 1 }),
      },
      NO_KEYS_REQUIRED,
    )
    .map(({ sortby, ...query }): Search => ({ ...query, ...(sortbyOf(query, sortby) ? { sortby } : {}) }));
}

/** Whether `sortby` is valid for the search and not its default (which normalization leaves out). */
function sortbyOf(query: Search, sortby: SearchSort | undefined): boolean {
  if (sortby === undefined || sortby === 'relevance') return false;
  if (sortby === 'distance') return query.circle !== undefined;
  return !(sortby === 'd_date' && query.keyword === undefined);
}
