import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geoKey, unitVector } from '../../src/lib/geo-grid.js';
import { seededRandom } from '../../src/lib/random.js';
import { facetCounts } from '../../src/modules/search/engine/engine-facets.js';
import { matchSlots } from '../../src/modules/search/engine/engine-match.js';
import { orderOf, termOrderOf } from '../../src/modules/search/engine/engine-orders.js';
import { pageOfMatches } from '../../src/modules/search/engine/engine-page.js';
import type { IndexedListing } from '../../src/modules/search/engine/indexed-listing.js';
import { cellOfGeoKey, ListingIndex } from '../../src/modules/search/engine/listing-index.js';
import { matchesListing, type MatchableListing } from '../../src/modules/search/matcher/search-matcher.js';
import type { ResolvedSearch } from '../../src/modules/search/query/search-terms.js';
import type { SearchQuery } from '../../src/modules/search/query/search-types.js';

/**
 * The engine's index at a size where its lists turn into bitmaps and replaced listings leave dead slots
 * (the parity property over the databases uses a few dozen listings): thousands of listings put, replaced and
 * removed, with and without compaction (and trimming), against the saved-search matcher (which search-parity.test.ts holds to
 * the SQL search) and plain sorts and counts of the same listings.
 */

const TYPES = [1, 2, 3];
const CITIES = [11, 12];
const FEATURES = [21, 22, 23];
const WORDS = ['sunni', 'hous', 'garden', 'ocean', 'view', 'loft'];
/** An L of vertical, horizontal and sloped edges; a fifth of the listings sit on its corners' lines (on its edges). */
const POLYGON = [
  { latitude: 25.6, longitude: -80.4 },
  { latitude: 25.6, longitude: -80.1 },
  { latitude: 25.75, longitude: -80.1 },
  { latitude: 25.75, longitude: -80.25 },
  { latitude: 25.9, longitude: -80.3 },
  { latitude: 25.9, longitude: -80.4 },
];
const AGENTS = [
  { id: 1, agency_id: 100 },
  { id: 2, agency_id: 101 },
  { id: 3, agency_id: null },
];

/**
 * `narrow`: whole prices and sizes, coordinates with six decimals, as most datasets have (the index keeps them
 * in integer columns); else some prices and sizes with decimals and coordinates with all of a double's digits
 * (the columns widen to doubles as they meet the first).
 */
function randomListing(random: () => number, id: number, narrow: boolean): IndexedListing {
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const maybe = <T>(value: T) => (random() < 0.15 ? null : value);
  const digits = (degrees: number) => (narrow ? Math.round(degrees * 1e6) / 1e6 : degrees);
  const located = random() < 0.9;
  const onEdges = random() < 0.2;
  const latitude = onEdges ? pick(POLYGON).latitude : digits(25.5 + random() * 0.5);
  const longitude = onEdges && random() < 0.5 ? pick(POLYGON).longitude : digits(-80.5 + random() * 0.5);
  const [x, y, z] = unitVector(latitude, longitude);
  const words = WORDS.filter(() => random() < 0.4);
  return {
    id,
    status: random() < 0.8 ? 'publish' : 'sold',
    price: maybe(pick([100_000, 250_000, narrow ? 250_001 : 250_000.5, 900_000])),
    currency: pick(['USD', 'EUR']),
    size: maybe(pick([50, narrow ? 80 : 80.5, 120])),
    land_size: null,
    bedrooms: maybe(Math.floor(random() * 5)),
    bathrooms: maybe(1 + Math.floor(random() * 3)),
    garage: maybe(Math.floor(random() * 3)),
    year_built: maybe(pick([1950, 2000, 2020])),
    featured: random() < 0.1,
    author_id: pick([7, 8]),
    agency_id: random() < 0.5 ? pick([100, 101]) : null,
    reference: `R-${id}`,
    search_text: words.join(' '),
    title_tokens: words.slice(0, 2).join(' '),
    // Code point order is not UTF-16's: U+FF21 sorts before the surrogate pair of U+1F3E0 by code point, after it by unit.
    sort_title: pick(['alpha', 'beta', 'gamma', 'Émile', 'zeta', '\uFF21lpha', '\u{1F3E0} house']),
    published_at: new Date(Date.UTC(2026, 0, 1 + Math.floor(random() * 30))).toISOString(),
    latitude: located ? latitude : null,
    longitude: located ? longitude : null,
    geo_key: located ? geoKey(latitude, longitude) : null,
    geo_x: located ? x : null,
    geo_y: located ? y : null,
    geo_z: located ? z : null,
    term_ids: [pick(TYPES), pick(CITIES), ...FEATURES.filter(() => random() < 0.5)],
    agent_ids: AGENTS.filter(() => random() < 0.3).map((agent) => agent.id),
  };
}

function matchable(listing: IndexedListing): MatchableListing {
  const agencies = new Map(AGENTS.map((agent) => [agent.id, agent.agency_id]));
  return {
    ...listing,
    geo: listing.geo_x === null ? null : [listing.geo_x, listing.geo_y!, listing.geo_z!],
    term_ids: new Set(listing.term_ids),
    agent_ids: listing.agent_ids,
    agent_agency_ids: listing.agent_ids.flatMap((agent) => (agencies.get(agent) == null ? [] : [agencies.get(agent)!])),
  };
}

/** The orders of docs/api.md 4.4 written plainly: nulls last either way, ties by id descending. */
function modelOrder(sort: string): (a: IndexedListing, b: IndexedListing) => number {
  const nullsLast = (x: number | null, y: number | null, direction: number) =>
    x === null || y === null ? Number(x === null) - Number(y === null) : direction * (x - y);
  const date = (listing: IndexedListing) => Date.parse(listing.published_at);
  const key: Record<string, (a: IndexedListing, b: IndexedListing) => number> = {
    d_date: (a, b) => date(b) - date(a),
    a_date: (a, b) => date(a) - date(b),
    a_price: (a, b) => nullsLast(a.price, b.price, 1),
    d_price: (a, b) => nullsLast(a.price, b.price, -1),
    a_size: (a, b) => nullsLast(a.size, b.size, 1),
    a_title: (a, b) => Buffer.compare(Buffer.from(a.sort_title), Buffer.from(b.sort_title)),
    featured_first: (a, b) => Number(b.featured) - Number(a.featured) || date(b) - date(a),
  };
  return (a, b) => key[sort]!(a, b) || b.id - a.id;
}

interface World {
  index: ListingIndex;
  listings: Map<number, IndexedListing>;
}

/** 3,000 listings put, a quarter of them replaced and a tenth removed; compacted or not. */
function world(seed: number, compact: boolean, narrow: boolean): World {
  const random = seededRandom(seed);
  const index = new ListingIndex();
  for (const agent of AGENTS) index.putAgent(agent);
  for (const [taxonomy, ids] of [
    ['property_type', TYPES],
    ['property_city', CITIES],
    ['property_feature', FEATURES],
  ] as const) {
    for (const id of ids) index.putTerm({ id, taxonomy, slug: `t${id}`, name: `T${id}` });
  }
  const listings = new Map<number, IndexedListing>();
  for (let id = 1; id <= 3_000; id++) listings.set(id, randomListing(random, id, narrow));
  for (const listing of listings.values()) index.put(listing);
  churn(random, { index, listings }, { known: 3_000, upTo: 3_000, replaced: 0.25, narrow });
  if (compact) {
    index.compact();
    index.trim();
  }
  return { index, listings };
}

/**
 * Each id from 1 to `upTo` in turn: one above `known` is put; of the others a share `replaced` is replaced by a
 * new random listing, and a tenth of the rest removed.
 */
function churn(
  random: () => number,
  { index, listings }: World,
  { known, upTo, replaced, narrow }: { known: number; upTo: number; replaced: number; narrow: boolean },
): void {
  for (let id = 1; id <= upTo; id++) {
    if (id > known || random() < replaced) {
      const listing = randomListing(random, id, narrow);
      listings.set(id, listing);
      index.put(listing);
    } else if (random() < 0.1) {
      listings.delete(id);
      index.remove(id);
    }
  }
}

/** Each pair: the same listings, not compacted and compacted. */
const pairs = [false, true].map((narrow) => [world(1, false, narrow), world(1, true, narrow)] as const);

const query = fc
  .record({
    keyword: fc.constantFrom('hous', 'garden view', 'ocean loft'),
    price: fc.constantFrom({ min: 250_000 }, { min: 100_000, max: 250_000 }, { max: 250_000.5 }),
    bedrooms: fc.constantFrom({ min: 2 }, { min: 1, max: 3 }),
    currency: fc.constantFrom('USD', 'EUR'),
    garage: fc.constantFrom(1, 2),
    include_sold: fc.constant(true as const),
    box: fc.constant({ north: 25.8, south: 25.6, east: -80.2, west: -80.4 }),
    circle: fc.constant({ latitude: 25.75, longitude: -80.25, radius: 12, unit: 'km' as const }),
    polygon: fc.constant(POLYGON),
    agency_id: fc.constantFrom(100, 101),
    sortby: fc.constantFrom('d_date', 'a_price', 'd_price', 'a_title', 'featured_first', 'a_size', 'a_date'),
  })
  // A few filters at a time, so that searches keep many matches (the facets then count by bitmaps).
  .chain((all) =>
    fc
      .subarray(Object.keys(all), { maxLength: 3 })
      .map((keys) => Object.fromEntries(keys.map((key) => [key, all[key as keyof typeof all]]))),
  ) as fc.Arbitrary<SearchQuery>;
const termIds = fc
  .record({
    type: fc.subarray(TYPES, { minLength: 1 }),
    city: fc.subarray(CITIES, { minLength: 1 }),
    feature: fc.subarray(FEATURES, { minLength: 1, maxLength: 2 }),
  })
  .chain((all) =>
    fc
      .subarray(Object.keys(all), { maxLength: 2 })
      .map((keys) => Object.fromEntries(keys.map((key) => [key, all[key as keyof typeof all]]))),
  );

/** What the engine answers for the search in each world, held to the matcher, plain sorts and counts. */
function check(q: SearchQuery, terms: ResolvedSearch['termIds'], page: number): void {
  for (const worlds of pairs) checkWorlds(worlds, q, terms, page);
}

function checkWorlds(worlds: readonly World[], q: SearchQuery, terms: ResolvedSearch['termIds'], page: number): void {
  const search: ResolvedSearch = { query: { ...q, facets: ['type', 'city', 'bedrooms', 'price'] }, termIds: terms };
  const expected = [...worlds[0]!.listings.values()].map(matchable).filter((listing) => matchesListing(listing, search));
  const answers = worlds.map(({ index }) => {
    const matches = matchSlots(index, { search });
    const sort = q.sortby ?? 'd_date';
    const ids = (window: { page: number; perPage: number }) =>
      pageOfMatches(index, matches, { search }, sort, { ...window, offset: (window.page - 1) * window.perPage });
    return {
      ids: Array.from(matches, (slot) => index.ids[slot]!).sort((a, b) => a - b),
      // Every match in order, then a window of them: the walk off the presorted order and the heap must agree.
      all: ids({ page: 1, perPage: 5_000 }),
      window: ids({ page, perPage: 20 }),
      facets: facetCounts(index, { search }, search.query.facets!, matches, 'USD'),
    };
  });
  expect(answers[0]!.ids).toEqual(expected.map((listing) => listing.id).sort((a, b) => a - b));
  const listingsOf = worlds[0]!.listings;
  expect(answers[0]!.all).toEqual(
    expected
      .map((listing) => listingsOf.get(listing.id)!)
      .sort(modelOrder(q.sortby ?? 'd_date'))
      .map((listing) => listing.id),
  );
  expect(answers[0]!.window).toEqual(answers[0]!.all.slice((page - 1) * 20, page * 20));
  expect(answers[1]).toEqual(answers[0]);
  // The facets without a filter of their own count the matches.
  const countsOf = (values: (number | string | null)[]) => {
    const counts: Record<string, number> = {};
    for (const value of values) if (value !== null) counts[value] = (counts[value] ?? 0) + 1;
    return counts;
  };
  const facet = (name: string) => Object.fromEntries(answers[0]!.facets[name]!.map((count) => [String(count.value), count.count]));
  if (search.query.bedrooms === undefined) expect(facet('bedrooms')).toEqual(countsOf(expected.map((listing) => listing.bedrooms)));
  for (const [name, ids] of [
    ['type', TYPES],
    ['city', CITIES],
  ] as const) {
    if (terms[name] !== undefined) continue;
    expect(facet(name)).toEqual(
      countsOf(expected.flatMap((listing) => ids.filter((id) => listing.term_ids.has(id)).map((id) => `t${id}`))),
    );
  }
}

describe('the engine index at scale', () => {
  // A new seed each run, so its own timeout: some draws take several times the work of others.
  it('matches, orders and counts as the matcher and plain sorts do, with dead slots and after compaction', () => {
    fc.assert(
      fc.property(query, termIds, fc.integer({ min: 1, max: 30 }), (q, terms, page) => check(q, terms, page)),
      { numRuns: 50 },
    );
  }, 120_000);

  it('pages price orders bounded on a price that listings have exactly (the stretch of the order read)', () => {
    check({ price: { max: 250_000.5 }, sortby: 'd_price' }, {}, 3);
    check({ price: { min: 250_000 }, sortby: 'a_price' }, {}, 2);
    check({ price: { min: 250_000, max: 250_000.5 }, sortby: 'd_price' }, { type: [1] }, 1);
  });

  it('intersects dense filters led by a price range or a small source: by the lead’s slots, or by the shared ones when fewer', () => {
    // A type and two features share about 250 of 3,000 slots, a wide price range holds most: the shared slots are
    // priced one by one. A narrow range holds fewer than four times the shared slots: it is read off the price
    // order instead. (No city: a city within a price range drives off its own price order, below.)
    check({ price: { min: 100_000 }, sortby: 'a_price' }, { type: [1], feature: [21, 22] }, 2);
    check({ price: { min: 250_000, max: 250_001 }, sortby: 'a_price' }, { type: [1], feature: [21] }, 1);
    // 800 ids (no bitmap, no price) lead two features, a type and a city sharing about 125 slots.
    const ids = Array.from({ length: 800 }, (_, n) => n + 1);
    check({ ids, sortby: 'd_date' }, { type: [2], city: [12], feature: [21, 22] }, 1);
    check({ ids: ids.slice(0, 200), sortby: 'd_date' }, { type: [2], city: [12] }, 1);
  });

  it('drives a city within a price range off the city’s own price order, kept as listings change and after compaction', () => {
    const random = seededRandom(11);
    const changing = world(5, false, true);
    const { index } = changing;
    const liveInOrder = (order: Int32Array) => Array.from(order).filter((slot) => index.isLive(slot));
    const agree = () => {
      // Read again each time: a compaction puts renumbered postings in place of the old ones.
      const city = index.termPostings.get(11)!;
      for (const price of [{ min: 100_000, max: 250_001 }, { max: 250_000 }, { min: 900_000 }]) {
        checkWorlds([changing, changing], { price, sortby: 'a_price' }, { city: [11], type: [2] }, 1);
        checkWorlds([changing, changing], { price, sortby: 'd_price' }, { city: [11] }, 2);
      }
      expect(liveInOrder(termOrderOf(index, 'a_price', 11, city))).toEqual(
        liveInOrder(orderOf(index, 'a_price')).filter((slot) => city.has(slot)),
      );
    };
    agree();
    // Put, replaced and removed after the city's order was made: it takes in the slots added since.
    churn(random, changing, { known: 3_000, upTo: 3_300, replaced: 0.2, narrow: true });
    agree();
    // Compaction renumbers the slots: the city's order is made again.
    index.compact();
    agree();
  });

  it('answers as before at each pause of a compaction in pieces, and as compacted once it is put in place', () => {
    const changing = world(7, false, false);
    const compacted = world(7, true, false);
    const q: SearchQuery = { keyword: 'hous', sortby: 'a_price' };
    const terms = { city: [11] };
    const before = { slotCount: changing.index.slotCount, live: changing.index.size };
    const work = changing.index.compaction();
    let pauses = 0;
    for (let step = work.next(); ; step = work.next()) {
      if (step.done) {
        step.value();
        break;
      }
      // Searches between the pieces read the index as it was: same slots, same answers.
      if (pauses++ % 5 === 0) checkWorlds([changing, compacted], q, terms, 1);
      expect(changing.index.slotCount).toBe(before.slotCount);
    }
    expect(pauses).toBeGreaterThan(10);
    expect(changing.index.slotCount).toBe(before.live);
    expect(changing.index.deadSlots).toBe(0);
    checkWorlds([changing, compacted], q, terms, 1);
    checkWorlds([changing, compacted], { price: { min: 250_000 }, sortby: 'd_date' }, { type: [1] }, 2);
  });

  it('lays a compacted index out in grid order: each cell in consecutive slots, listings without a place last', () => {
    for (const [, { index }] of pairs) {
      const cells = Array.from({ length: index.slotCount }, (_, slot) =>
        index.isLocated(slot) ? cellOfGeoKey(index.geoKeyOf(slot)) : Infinity,
      );
      expect(index.size).toBe(index.slotCount);
      expect(cells).toEqual([...cells].sort((a, b) => a - b));
      expect(new Set(cells).size).toBeGreaterThan(10);
    }
  });

  it('keeps narrow data in integer columns and widens a column at its first value with decimals', () => {
    const [narrow, wide] = [pairs[1]![1].index, pairs[0]![1].index];
    for (const column of [narrow.price, narrow.floorSize, narrow.latitude, narrow.longitude]) expect(column).toBeInstanceOf(Int32Array);
    expect(narrow.bedrooms).toBeInstanceOf(Int16Array);
    for (const column of [wide.price, wide.floorSize, wide.latitude, wide.longitude]) expect(column).toBeInstanceOf(Float64Array);
  });

  it('answers from a stored geo key that the coordinates would not give (a row written by other code)', () => {
    const random = seededRandom(7);
    const index = new ListingIndex();
    const listings = Array.from({ length: 40 }, (_, n) => randomListing(random, n + 1, true)).filter((l) => l.latitude !== null);
    // The first listing's key is moved one finest cell over: as if another program had rounded differently.
    const [odd, ...others] = listings;
    const stored = odd!.geo_key! + 1;
    index.put({ ...odd!, geo_key: stored });
    for (const listing of others) index.put(listing);
    index.compact();
    const slot = index.slotOf(odd!.id);
    expect(index.geoKeyOf(slot)).toBe(stored);
    for (const listing of others) expect(index.geoKeyOf(index.slotOf(listing.id))).toBe(listing.geo_key);
  });
});
