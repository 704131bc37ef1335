import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boxContains,
  boxFromBounds,
  clearFilters,
  clusterQuery,
  EMPTY_STATE,
  type ExploreState,
  facetOptions,
  filterPrice,
  filterQuery,
  hasFilters,
  isSelected,
  listQuery,
  normalizeView,
  parseState,
  placeLongitude,
  selectFacet,
  serializeState,
  stateSearch,
  SORTS,
  wrapLongitude,
} from './explore-state';

const slug = fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('-'));
const slugs = fc.uniqueArray(slug, { maxLength: 5 });
const money = fc.oneof(
  fc.integer({ min: 0, max: 1e12 }),
  fc.integer({ min: 0, max: 1e9 }).map((cents) => cents / 100),
);
const keyword = fc.string({ maxLength: 60 }).filter((text) => text === text.trim());

const state: fc.Arbitrary<ExploreState> = fc
  .record({
    keyword,
    types: slugs,
    statuses: slugs,
    cities: slugs,
    bedrooms: fc.option(fc.integer({ min: 0, max: 99 }), { nil: null }),
    currency: fc.constantFrom('', 'USD', 'EUR', 'AED'),
    price: fc.option(
      fc.oneof(
        fc.tuple(money, money).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })),
        money.map((min) => ({ min, max: null })),
        money.map((max) => ({ min: null, max })),
      ),
      { nil: null },
    ),
    sort: fc.constantFrom('' as const, ...SORTS),
    page: fc.integer({ min: 1, max: 999_999 }),
    view: fc.option(
      fc
        .record({
          zoom: fc.integer({ min: 0, max: 22 }),
          lat: fc.double({ min: -85, max: 85, noNaN: true }),
          lng: fc.double({ min: -180, max: 179.99999, noNaN: true }),
        })
        .map(normalizeView),
      { nil: null },
    ),
    inView: fc.boolean(),
  })
  .map((value) => ({ ...value, sort: value.sort === 'relevance' && !value.keyword ? '' : value.sort }));

describe('the URL state', () => {
  it('round-trips: every state reads back from its own query string', () => {
    fc.assert(
      fc.property(state, (value) => {
        const search = serializeState(value).toString();
        expect(parseState(new URLSearchParams(search))).toEqual(value);
      }),
    );
  });

  it('reads any query string without failing, into a state that round-trips', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('q', 'type', 'status', 'city', 'beds', 'price', 'sort', 'page', 'map', 'in_view', 'x'), fc.string()),
        (raw) => {
          const parsed = parseState(new URLSearchParams(raw));
          expect(parseState(serializeState(parsed))).toEqual(parsed);
        },
      ),
    );
  });

  it('writes a readable address that reads back the same', () => {
    const value = { ...EMPTY_STATE, keyword: 'a&b=c, d/e %', types: ['villa', 'condo'], view: { zoom: 5, lat: 25.76, lng: -80.19 } };
    const search = stateSearch(value);
    expect(search).toBe('?q=a%26b%3Dc,%20d/e%20%25&type=villa,condo&map=5/25.76/-80.19');
    expect(parseState(new URLSearchParams(search))).toEqual(value);
    expect(stateSearch(EMPTY_STATE)).toBe('');
    fc.assert(
      fc.property(state, (any) => {
        expect(parseState(new URLSearchParams(stateSearch(any)))).toEqual(any);
      }),
    );
  });

  it('is plain /explore without filters, and drops what is malformed', () => {
    expect(serializeState(EMPTY_STATE).toString()).toBe('');
    expect(parseState(new URLSearchParams('type=villa,,<b>,villa&beds=x&price=9-1&sort=bogus&page=0&map=x/1/2'))).toEqual({
      ...EMPTY_STATE,
      types: ['villa'],
    });
    // relevance needs a keyword (the API answers 400 otherwise)
    expect(parseState(new URLSearchParams('sort=relevance')).sort).toBe('');
    expect(parseState(new URLSearchParams('q=loft&sort=relevance')).sort).toBe('relevance');
  });

  it('keeps a shared view', () => {
    const parsed = parseState(
      new URLSearchParams('q=sea%20view&type=villa,condo&beds=3&cur=EUR&price=0-2000000&sort=a_price&page=2&map=5/25.76/-80.19&in_view=1'),
    );
    expect(parsed).toEqual({
      keyword: 'sea view',
      types: ['villa', 'condo'],
      statuses: [],
      cities: [],
      bedrooms: 3,
      currency: 'EUR',
      price: { min: 0, max: 2_000_000 },
      sort: 'a_price',
      page: 2,
      view: { zoom: 5, lat: 25.76, lng: -80.19 },
      inView: true,
    });
  });

  it('clears filters but keeps the view and the list mode', () => {
    const busy: ExploreState = {
      ...EMPTY_STATE,
      keyword: 'x',
      types: ['a'],
      sort: 'relevance',
      page: 3,
      view: { zoom: 3, lat: 1, lng: 2 },
      inView: true,
    };
    expect(hasFilters(busy)).toBe(true);
    const cleared = clearFilters(busy);
    expect(hasFilters(cleared)).toBe(false);
    expect(cleared).toEqual({ ...EMPTY_STATE, view: busy.view, inView: true });
  });
});

describe('API queries', () => {
  const busy: ExploreState = {
    ...EMPTY_STATE,
    keyword: 'pool',
    types: ['villa', 'condo'],
    statuses: ['for-sale'],
    cities: ['miami'],
    bedrooms: 0,
    price: { min: 0, max: 2_000_000 },
    sort: 'd_price',
    page: 2,
  };
  const box = { ne_lat: 30, ne_lng: -70, sw_lat: 20, sw_lng: -90 };

  it('maps filters to the search parameters of docs/api.md 4.4', () => {
    expect(filterQuery(busy)).toEqual({
      keyword: 'pool',
      type: 'villa,condo',
      status: 'for-sale',
      city: 'miami',
      bedrooms: 0,
      min_price: 0,
      max_price: 2_000_000,
    });
    expect(filterQuery(EMPTY_STATE)).toEqual({});
  });

  it('asks the list for a page, the order and the facets; the box only when the list follows the map', () => {
    expect(listQuery(busy, 20, box)).toEqual({
      ...filterQuery(busy),
      page: 2,
      per_page: 20,
      sortby: 'd_price',
      facets: 'type,status,city,bedrooms,currency,price',
    });
    expect(listQuery({ ...busy, inView: true }, 20, box)).toMatchObject(box);
    expect(listQuery({ ...EMPTY_STATE, sort: 'relevance' }, 20, null)).not.toHaveProperty('sortby');
  });

  it('asks the map for the same filters inside the box at a whole zoom', () => {
    expect(clusterQuery(busy, box, 7.6)).toEqual({ ...filterQuery(busy), ...box, zoom: 8 });
    expect(clusterQuery(EMPTY_STATE, box, 40).zoom).toBe(22);
    expect(clusterQuery(EMPTY_STATE, box, -1).zoom).toBe(0);
  });
});

describe('facets as filters', () => {
  it('adds and removes "any of" values, and goes back to the first page', () => {
    const one = selectFacet({ ...EMPTY_STATE, page: 4 }, 'type', 'villa', true);
    expect(one).toMatchObject({ types: ['villa'], page: 1 });
    const two = selectFacet(one, 'type', 'condo', true);
    expect(two.types).toEqual(['villa', 'condo']);
    expect(selectFacet(two, 'type', 'condo', true).types).toEqual(['villa', 'condo']);
    expect(selectFacet(two, 'type', 'villa', false).types).toEqual(['condo']);
    expect(isSelected(two, 'type', 'condo')).toBe(true);
    expect(isSelected(two, 'status', 'condo')).toBe(false);
    expect(selectFacet(EMPTY_STATE, 'city', 'paris', true).cities).toEqual(['paris']);
    expect(selectFacet(EMPTY_STATE, 'status', 'for-rent', true).statuses).toEqual(['for-rent']);
  });

  it('chooses one bedroom count and one price range, or any', () => {
    const beds = selectFacet(EMPTY_STATE, 'bedrooms', 0, true);
    expect(beds.bedrooms).toBe(0);
    expect(isSelected(beds, 'bedrooms', 0)).toBe(true);
    expect(selectFacet(beds, 'bedrooms', null, true).bedrooms).toBeNull();
    const range = (min: number, max: number, currency = 'EUR', status: string | null = 'for-sale') => ({ min, max, currency, status });
    const priced = selectFacet(EMPTY_STATE, 'price', range(0, 2_000_000), true);
    expect(priced.price).toEqual({ min: 0, max: 2_000_000 });
    expect(isSelected(priced, 'price', range(0, 2_000_000))).toBe(true);
    expect(isSelected(priced, 'price', range(0, 4_000_000))).toBe(false);
    expect(selectFacet(priced, 'price', null, true).price).toBeNull();
  });

  it('takes a price range with its currency and market, and a typed budget in the ranges’ currency', () => {
    const range = { min: 1_000, max: 2_000, currency: 'AED', status: 'for-rent' };
    const rented = selectFacet(EMPTY_STATE, 'price', range, true);
    expect(rented).toMatchObject({ price: { min: 1_000, max: 2_000 }, currency: 'AED', statuses: ['for-rent'] });
    expect(filterQuery(rented)).toMatchObject({ currency: 'AED', min_price: 1_000, max_price: 2_000, status: 'for-rent' });
    // A market already chosen stays as it is.
    expect(selectFacet({ ...EMPTY_STATE, statuses: ['for-sale', 'for-rent'] }, 'price', range, true).statuses).toEqual([
      'for-sale',
      'for-rent',
    ]);
    // Another currency: the price filter, a number of the old one, goes.
    expect(selectFacet(rented, 'currency', 'USD', true)).toMatchObject({ currency: 'USD', price: null });
    expect(selectFacet(rented, 'currency', null, true)).toMatchObject({ currency: '', price: null });
    // Typed: either end open, swapped when inverted, none when both are empty.
    expect(filterPrice(EMPTY_STATE, 500, null, 'EUR')).toMatchObject({ price: { min: 500, max: null }, currency: 'EUR' });
    expect(filterQuery(filterPrice(EMPTY_STATE, null, 900, 'EUR'))).toEqual({ currency: 'EUR', max_price: 900 });
    expect(filterPrice(EMPTY_STATE, 900, 500, 'EUR').price).toEqual({ min: 500, max: 900 });
    expect(filterPrice(rented, null, null, 'EUR')).toMatchObject({ price: null, currency: 'AED' });
    expect(parseState(new URLSearchParams('price=500-&cur=eur'))).toMatchObject({ price: { min: 500, max: null }, currency: 'EUR' });
    expect(parseState(new URLSearchParams('price=-&cur=euro')).price).toBeNull();
    expect(parseState(new URLSearchParams('cur=euro')).currency).toBe('');
  });

  it('keeps selected values the answer left out, so they can be unticked', () => {
    const selected = { ...EMPTY_STATE, types: ['villa', 'castle'], bedrooms: 9, currency: 'USD', price: { min: 5, max: 10 } };
    expect(facetOptions(selected, 'type', [{ value: 'villa', name: 'Villa', count: 3 }])).toEqual([
      { value: 'villa', name: 'Villa', count: 3 },
      { value: 'castle', name: 'castle', count: 0 },
    ]);
    expect(
      facetOptions(selected, 'bedrooms', [
        { value: 3, name: '3', count: 4 },
        { value: 1, name: '1', count: 9 },
      ]).map((o) => o.value),
    ).toEqual([1, 3, 9]);
    const bucket = { min: 10, max: 20, currency: 'USD', status: null };
    expect(facetOptions(selected, 'price', [{ value: bucket, name: '10–20 USD', count: 1 }]).map((o) => o.value)).toEqual([
      { min: 5, max: 10, currency: 'USD', status: null },
      bucket,
    ]);
    // A budget with an open end is no range: the inputs show it, not an option.
    expect(facetOptions({ ...selected, price: { min: 5, max: null } }, 'price', []).map((o) => o.value)).toEqual([]);
    expect(facetOptions(EMPTY_STATE, 'city', undefined)).toEqual([]);
  });
});

describe('the map box', () => {
  it('is the bounds of an ordinary view, rounded outwards', () => {
    expect(boxFromBounds({ south: 25.123456, west: -80.654321, north: 26.000001, east: -80.1 })).toEqual({
      sw_lat: 25.12345,
      sw_lng: -80.65433,
      ne_lat: 26.00001,
      ne_lng: -80.1,
    });
  });

  it('is the whole world when the view is wider than it, with latitudes clamped', () => {
    expect(boxFromBounds({ south: -120, west: -300, north: 110, east: 300 })).toEqual({
      sw_lat: -90,
      sw_lng: -180,
      ne_lat: 90,
      ne_lng: 180,
    });
  });

  it('crosses the antimeridian with ne_lng west of sw_lng', () => {
    expect(boxFromBounds({ south: -20, west: 170, north: -10, east: 190 })).toEqual({
      sw_lat: -20,
      sw_lng: 170,
      ne_lat: -10,
      ne_lng: -170,
    });
    expect(boxFromBounds({ south: -20, west: -190, north: -10, east: -170 })).toEqual({
      sw_lat: -20,
      sw_lng: 170,
      ne_lat: -10,
      ne_lng: -170,
    });
    // a view ending exactly on the antimeridian does not cross it
    expect(boxFromBounds({ south: 0, west: 100, north: 10, east: 180 })).toEqual({ sw_lat: 0, sw_lng: 100, ne_lat: 10, ne_lng: 180 });
  });

  it('always holds the points the view shows, whichever world copy the map is on', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -85, max: 84, noNaN: true }),
        fc.double({ min: 0.001, max: 5, noNaN: true }),
        fc.double({ min: -720, max: 720, noNaN: true }),
        fc.double({ min: 0.001, max: 359, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (south, height, west, width, fy, fx) => {
          const bounds = { south, north: south + height, west, east: west + width };
          const box = boxFromBounds(bounds);
          for (const value of [box.ne_lng, box.sw_lng]) expect(value >= -180 && value <= 180).toBe(true);
          const lat = south + fy * height;
          const lng = west + fx * width;
          expect(boxContains(box, lat, wrapLongitude(lng))).toBe(true);
        },
      ),
    );
  });

  it('places markers on the copy of the world nearest the centre', () => {
    expect(placeLongitude(-179, 175)).toBe(181);
    expect(placeLongitude(179, -175)).toBe(-181);
    expect(placeLongitude(2.35, 0)).toBeCloseTo(2.35);
    expect(placeLongitude(2.35, 360)).toBeCloseTo(362.35);
    expect(wrapLongitude(540)).toBe(-180);
    expect(wrapLongitude(-0)).toBe(0);
  });
});
