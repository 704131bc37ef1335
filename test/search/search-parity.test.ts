import type { FastifyBaseLogger } from 'fastify';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexFeed } from '../../src/modules/search/engine/index-feed.service.js';
import { SearchEngine } from '../../src/modules/search/engine/search-engine.service.js';
import { clustersInBox, clustersOfMatches } from '../../src/modules/search/geo/geo-cells.repository.js';
import { searchConditions, searchedStates } from '../../src/modules/search/query/search-filters.repository.js';
import type { DB, ListingState, Taxonomy } from '../../src/db/schema/index.js';
import { insertListing } from '../../src/modules/properties/properties.repository.js';
import { countFacet, countFacets } from '../../src/modules/search/facets/search-facets.repository.js';
import { matchesListing } from '../../src/modules/search/matcher/search-matcher.js';
import { loadMatchableListings } from '../../src/modules/search/matcher/search-matcher.repository.js';
import { resolveTerms } from '../../src/modules/search/query/search-terms.repository.js';
import { FACET_NAMES, SEARCH_SORTS, type SearchQuery, type SearchSort } from '../../src/modules/search/query/search-types.js';
import { findSearchPage } from '../../src/modules/search/search.repository.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/database.js';
import { insertTermRow, newAgency, newAgent, newUser } from '../helpers/factories.js';

/**
 * docs/api.md 4.4: "Results are identical on SQLite and PostgreSQL for the same data", and docs/api.md 7: the in-memory
 * matcher that saved-search alerts use "must agree exactly with what the search endpoint returns". Random
 * listings, random searches: every database gives the same listings in the same order and the same facet
 * counts, the matcher picks exactly the listings the databases return, and the search engine (kept by its
 * feed from the change log, each dataset replacing the last) gives what the SQL gives: the same page of any
 * window, the same total, facets and map clusters.
 */

const TERMS: Record<string, { taxonomy: Taxonomy; slugs: string[] }> = {
  type: { taxonomy: 'property_type', slugs: ['apartment', 'house', 'villa'] },
  status: { taxonomy: 'property_status', slugs: ['for-sale', 'for-rent'] },
  label: { taxonomy: 'property_label', slugs: ['hot', 'new'] },
  feature: { taxonomy: 'property_feature', slugs: ['pool', 'garden', 'gym', 'lift'] },
  country: { taxonomy: 'property_country', slugs: ['usa', 'fiji'] },
  city: { taxonomy: 'property_city', slugs: ['miami', 'suva', 'tampa'] },
};
const WORDS = ['sunny', 'houses', 'house', 'garden', 'café', 'cafe', 'ocean', 'view', 'loft', 'the', 'quiet', 'street'];
/** Centres near which listings lie: Miami, Suva (near the antimeridian), and a point near the north pole. */
const CENTRES = [
  [25.77, -80.19],
  [-18.14, 178.44],
  [-17.9, -179.8],
  [89.6, 10],
] as const;
const STATES: ListingState[] = ['publish', 'publish', 'publish', 'sold', 'draft', 'expired'];

interface ListingSpec {
  state: ListingState;
  title: string[];
  description: string[];
  reference: number;
  price: number | null;
  currency: 'USD' | 'EUR';
  size: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  garage: number | null;
  year: number | null;
  featured: boolean;
  /** Day of first publication; searched listings (publish, sold) always have one (listing-states.ts). */
  published: number;
  centre: number | null;
  offset: [number, number];
  author: number;
  agency: number | null;
  agents: number[];
  terms: Record<string, number[]>;
}

const small = <T>(values: readonly T[]) => fc.constantFrom(...values);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });
const termPicks = Object.fromEntries(
  Object.entries(TERMS).map(([name, { slugs }]) => [
    name,
    fc.subarray(
      slugs.map((_, i) => i),
      { maxLength: name === 'city' || name === 'country' ? 1 : slugs.length },
    ),
  ]),
) as Record<string, fc.Arbitrary<number[]>>;

const listingSpec: fc.Arbitrary<ListingSpec> = fc.record({
  state: small(STATES),
  title: fc.array(small(WORDS), { minLength: 1, maxLength: 4 }),
  description: fc.array(small(WORDS), { maxLength: 6 }),
  reference: fc.integer({ min: 1, max: 6 }),
  // Few distinct values, so that sorts meet ties and ranges meet their bounds.
  price: maybe(small([0, 1000, 150_000, 150_000.5, 300_000, 2_000_000])),
  currency: small(['USD', 'EUR'] as const),
  size: maybe(small([40, 75.5, 120, 300])),
  bedrooms: maybe(fc.integer({ min: 0, max: 4 })),
  bathrooms: maybe(small([1, 2, 3])),
  garage: maybe(fc.integer({ min: 0, max: 3 })),
  year: maybe(small([1890, 1990, 2024])),
  featured: fc.boolean(),
  published: fc.integer({ min: 0, max: 5 }),
  centre: maybe(fc.integer({ min: 0, max: CENTRES.length - 1 })),
  offset: fc.tuple(fc.double({ min: -0.4, max: 0.4, noNaN: true }), fc.double({ min: -0.4, max: 0.4, noNaN: true })),
  author: fc.integer({ min: 0, max: 1 }),
  agency: maybe(fc.integer({ min: 0, max: 1 })),
  agents: fc.subarray([0, 1, 2]),
  terms: fc.record(termPicks),
});

const slugsOf = (name: string) => fc.subarray(TERMS[name]!.slugs, { minLength: 1, maxLength: 2 });
const range = (values: readonly number[]) =>
  fc
    .record({ min: fc.option(small(values), { nil: undefined }), max: fc.option(small(values), { nil: undefined }) })
    .map((r) => (r.min !== undefined && r.max !== undefined && r.min > r.max ? { min: r.max, max: r.min } : r));
const centre = small(CENTRES).map(([latitude, longitude]) => ({ latitude, longitude }));

/** A search over indexes of the dataset's people (turned into each database's ids by `withIds`). */
interface SearchSpec {
  query: SearchQuery;
  /** A page of the results the engine and the SQL must agree on. */
  window?: { page: number; perPage: number };
  /** The zoom of the map clusters compared, for a search with a box. */
  zoom?: number;
  agent?: number;
  agency?: number;
  user?: number;
}

const searchSpec: fc.Arbitrary<SearchSpec> = fc
  .record({
    keyword: small(['house', 'Houses garden', 'CAFE', 'the', 'ocean view', 'R-3', 'nothing']),
    type: slugsOf('type'),
    status: slugsOf('status'),
    label: slugsOf('label'),
    feature: slugsOf('feature'),
    country: slugsOf('country'),
    city: fc.constantFrom<string[]>(['miami'], ['suva', 'tampa'], ['nowhere']),
    price: range([0, 1000, 150_000, 150_000.5, 2_000_000]),
    currency: small(['USD', 'EUR']),
    size: range([40, 75.5, 300]),
    bedrooms: range([0, 2, 4]),
    bathrooms: range([1, 2, 3]),
    garage: fc.integer({ min: 0, max: 3 }),
    year_built: range([1890, 2000, 2024]),
    featured: fc.constant(true as const),
    include_sold: fc.constant(true as const),
    reference: small(['R-1', 'R-2']),
    circle: fc.record({ centre, radius: small([5, 30, 60, 20_000]), unit: small(['km', 'mi'] as const) }),
    box: fc.oneof(
      fc.constant({ north: 26.5, south: 25, east: -79.5, west: -81 }),
      fc.constant({ north: -17, south: -19, east: -179.5, west: 178 }),
      fc.constant({ north: 90, south: 89, east: 180, west: -180 }),
    ),
    polygon: fc.constant<SearchQuery['polygon']>([
      { latitude: 25.2, longitude: -80.6 },
      { latitude: 26.3, longitude: -80.5 },
      { latitude: 25.8, longitude: -80.1 },
      { latitude: 26.2, longitude: -79.7 },
      { latitude: 25.3, longitude: -79.8 },
    ]),
    sortby: small(SEARCH_SORTS),
    facets: fc.subarray([...FACET_NAMES], { minLength: 1, maxLength: 3 }),
    agent: fc.integer({ min: 0, max: 2 }),
    agency: fc.integer({ min: 0, max: 1 }),
    user: fc.integer({ min: 0, max: 1 }),
  })
  .chain((all) =>
    // A few filters at a time, so that searches keep matches and meet their bounds; the order and facets often.
    fc.subarray(Object.keys(all) as (keyof typeof all)[], { maxLength: 4 }).map((keys) => {
      const picked: Partial<typeof all> = {};
      for (const key of keys) (picked as Record<string, unknown>)[key] = all[key];
      return picked;
    }),
  )
  .map((picked) => {
    const { type, status, label, feature, country, city, circle, agent, agency, user, sortby, facets, ...rest } = picked;
    const terms = Object.fromEntries(Object.entries({ type, status, label, feature, country, city }).filter(([, v]) => v !== undefined));
    const query: SearchQuery = { ...(rest as SearchQuery), ...(Object.keys(terms).length ? { terms } : {}) };
    if (circle) query.circle = { ...circle.centre, radius: circle.radius, unit: circle.unit };
    let sort: SearchSort | undefined = sortby;
    if (sort === 'distance' && !query.circle) sort = undefined;
    if (sort === 'relevance' && query.keyword === undefined) sort = undefined;
    if (sort) query.sortby = sort;
    if (facets) query.facets = facets;
    return { query, agent, agency, user };
  })
  .chain((spec) =>
    // Every search also names a window of its results and a map zoom (used when it has a box).
    fc
      .record({
        window: fc.record({ page: fc.integer({ min: 1, max: 4 }), perPage: fc.integer({ min: 1, max: 7 }) }),
        zoom: small([2, 6, 9, 12, 14, 17]),
      })
      .map((extra) => ({ ...spec, ...extra })),
  );

/** Searches asking for many facets, most of which their few filters leave to be counted together (countSharedFacets). */
const manyFacetsSpec: fc.Arbitrary<SearchSpec> = searchSpec.chain((spec) =>
  fc.subarray([...FACET_NAMES], { minLength: 4 }).map((facets) => ({ ...spec, query: { ...spec.query, facets } })),
);

/**
 * A map: a box cutting through the listings around a centre (across the antimeridian near Suva), maybe with
 * sold listings or a filter, at a zoom whose clusters are coarser or finer than the engine's index cells.
 */
const mapSpec: fc.Arbitrary<SearchSpec> = fc
  .record({
    centre,
    // In 1/10,000 of a degree: doubles would crowd at their bounds and at zero.
    half: fc.tuple(fc.integer({ min: 50, max: 3_000 }), fc.integer({ min: 50, max: 3_000 })).map(([a, b]) => [a / 1e4, b / 1e4] as const),
    shift: fc
      .tuple(fc.integer({ min: -1_500, max: 1_500 }), fc.integer({ min: -1_500, max: 1_500 }))
      .map(([a, b]) => [a / 1e4, b / 1e4] as const),
    include_sold: fc.option(fc.constant(true as const), { nil: undefined }),
    bedrooms: fc.option(range([0, 2, 4]), { nil: undefined }),
    zoom: small([2, 6, 9, 10, 12, 13, 14, 15, 17]),
  })
  .map(({ centre: { latitude, longitude }, half, shift, include_sold, bedrooms, zoom }) => {
    const middle = { latitude: latitude + shift[0], longitude: wrap(longitude + shift[1]) };
    const box = {
      north: Math.min(90, middle.latitude + half[0]),
      south: Math.max(-90, middle.latitude - half[0]),
      east: wrap(middle.longitude + half[1]),
      west: wrap(middle.longitude - half[1]),
    };
    const query: SearchQuery = { box, ...(include_sold ? { include_sold } : {}), ...(bedrooms ? { bedrooms } : {}) };
    return { query, zoom };
  });

/** The shape search.repository.ts answers from term rows alone: one term, maybe a city and a price range, by price. */
const termByPriceSpec: fc.Arbitrary<SearchSpec> = fc
  .record({
    taxonomy: small(['type', 'status', 'label', 'feature']),
    pick: fc.nat(),
    city: fc.option(fc.constantFrom<string[]>(['miami'], ['suva', 'tampa']), { nil: undefined }),
    price: fc.option(range([0, 1000, 150_000, 150_000.5, 2_000_000]), { nil: undefined }),
    sortby: small(['a_price', 'd_price'] as const),
    include_sold: fc.option(fc.constant(true as const), { nil: undefined }),
  })
  .map(({ taxonomy, pick, city, price, sortby, include_sold }) => {
    const slugs = TERMS[taxonomy]!.slugs;
    const query: SearchQuery = { terms: { [taxonomy]: [slugs[pick % slugs.length]!], ...(city ? { city } : {}) }, sortby };
    if (price) query.price = price;
    if (include_sold) query.include_sold = include_sold;
    return { query };
  });

interface World {
  dialect: string;
  database: TestDatabase;
  engine: SearchEngine;
  users: number[];
  agencies: number[];
  agents: number[];
  termIds: Record<string, number[]>;
}

const worlds: World[] = [];

beforeAll(async () => {
  for (const dialect of DIALECTS) {
    const database = await createTestDatabase(dialect);
    const { db } = database;
    const termIds: Record<string, number[]> = {};
    for (const [name, { taxonomy, slugs }] of Object.entries(TERMS)) {
      termIds[name] = [];
      for (const slug of slugs) termIds[name]!.push(await insertTermRow(db, taxonomy, slug));
    }
    const users = [(await newUser(db, { role: 'agent' })).id, (await newUser(db, { role: 'owner' })).id];
    const agencies = [await newAgency(db), await newAgency(db)];
    const agents = [await newAgent(db, { agency_id: agencies[0]! }), await newAgent(db, { agency_id: agencies[1]! }), await newAgent(db)];
    const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as unknown as FastifyBaseLogger;
    const engine = new SearchEngine(db, new IndexFeed(db, database.localWrites, silent));
    worlds.push({ dialect, database, engine, users, agencies, agents, termIds });
  }
});

afterAll(async () => {
  for (const world of worlds) await world.database.dispose();
});

/** Replaces the listings of a world with the dataset; returns the new ids in dataset order. */
async function load(world: World, specs: readonly ListingSpec[]): Promise<number[]> {
  const { db } = world.database;
  await db.deleteFrom('listings').execute();
  const ids: number[] = [];
  for (const [index, spec] of specs.entries()) {
    const at = (day: number) => new Date(Date.UTC(2026, 0, 1 + day)).toISOString();
    const [lat, lng] = spec.centre === null ? [null, null] : CENTRES[spec.centre]!;
    const longitude = lng === null ? null : wrap(lng + spec.offset[1]);
    const latitude = lat === null ? null : Math.max(-90, Math.min(90, lat + spec.offset[0]));
    const terms = Object.entries(spec.terms).flatMap(([name, picks]) =>
      picks.map((pick) => ({ termId: world.termIds[name]![pick]!, taxonomy: TERMS[name]!.taxonomy })),
    );
    const id = await insertListing(
      db,
      {
        slug: `parity-${index}`,
        title: spec.title.join(' '),
        description: `<p>${spec.description.join(' ')}</p>`,
        status: spec.state,
        reference: `R-${spec.reference}`,
        price: spec.price,
        second_price: null,
        currency: spec.currency,
        size: spec.size,
        land_size: null,
        bedrooms: spec.bedrooms,
        bathrooms: spec.bathrooms,
        rooms: null,
        garage: spec.garage,
        year_built: spec.year,
        featured: spec.featured ? 1 : 0,
        latitude,
        longitude,
        author_id: world.users[spec.author]!,
        agency_id: spec.agency === null ? null : world.agencies[spec.agency]!,
        created_at: at(0),
        updated_at: at(0),
        published_at: spec.state === 'draft' ? null : at(spec.published),
        expires_at: null,
      },
      terms,
    );
    if (spec.agents.length) {
      await db
        .insertInto('listing_agents')
        .values(spec.agents.map((agent, position) => ({ listing_id: id, agent_id: world.agents[agent]!, position })))
        .execute();
    }
    ids.push(id);
  }
  return ids;
}

function wrap(longitude: number): number {
  return longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude;
}

function withIds(world: World, spec: SearchSpec): SearchQuery {
  return {
    ...spec.query,
    ...(spec.agent !== undefined ? { agent_id: world.agents[spec.agent]! } : {}),
    ...(spec.agency !== undefined ? { agency_id: world.agencies[spec.agency]! } : {}),
    ...(spec.user !== undefined ? { user_id: world.users[spec.user]! } : {}),
  };
}

interface Outcome {
  /** Dataset indexes of the matches, in the search's order. */
  order: number[];
  /** For the price orders, the matcher's listings sorted by the rule of docs/api.md 4.4 (nulls last, ties by id descending). */
  priceOrder: number[] | null;
  total: number;
  facets: Record<string, unknown>;
  /** Dataset indexes the matcher accepts, ascending. */
  matched: number[];
  /** The spec's window of the results, as dataset indexes. */
  window: number[];
  clusters: unknown;
}

async function run(world: World, ids: readonly number[], spec: SearchSpec): Promise<Outcome> {
  const db: Kysely<DB> = world.database.db;
  const search = await resolveTerms(db, withIds(world, spec));
  const sort: SearchSort = search.query.sortby ?? (search.query.keyword !== undefined ? 'relevance' : 'd_date');
  const page = await findSearchPage(db, search, sort, { page: 1, perPage: 100, offset: 0 });
  const names = search.query.facets ?? [];
  // As SearchService chooses it, with USD as the site's default.
  const priceCurrency = search.query.currency ?? 'USD';
  const facets = await countFacets(db, search, names, priceCurrency);
  // The facets counted together (countSharedFacets) equal each facet counted alone.
  const alone = await Promise.all(names.map((name) => countFacet(db, search, name, priceCurrency)));
  expect(names.map((name) => facets[name])).toEqual(alone);
  const listings = await loadMatchableListings(db, ids);
  const indexOf = new Map(ids.map((id, index) => [id, index]));
  const everything = { page: 1, perPage: 100, offset: 0 };
  const window = spec.window ? { ...spec.window, offset: (spec.window.page - 1) * spec.window.perPage } : everything;
  const sqlWindow = await findSearchPage(db, search, sort, window);
  // The engine: every match, a window of them, the facets and the clusters, as the SQL gives them.
  const engineAll = await world.engine.search(search, sort, everything, priceCurrency);
  expect({ ids: engineAll.ids, total: engineAll.total }).toEqual(page);
  expect(engineAll.facets ?? {}).toEqual(facets);
  expect((await world.engine.search(search, sort, window, priceCurrency)).ids).toEqual(sqlWindow.ids);
  let clusters: unknown = null;
  if (search.query.box && spec.zoom !== undefined) {
    const { box: _box, include_sold: _sold, ...others } = search.query;
    const boxOnly = Object.keys(others).length === 0;
    const sqlClusters = boxOnly
      ? await clustersInBox(db, searchedStates(search.query), search.query.box, spec.zoom)
      : await clustersOfMatches(db, searchConditions(db, search), search.query.box, spec.zoom);
    expect(await world.engine.map(search, search.query.box, spec.zoom)).toEqual(sqlClusters);
    clusters = sqlClusters;
  }
  const matches = listings.filter((listing) => matchesListing(listing, search));
  const direction = sort === 'a_price' ? 1 : sort === 'd_price' ? -1 : 0;
  const priceOrder = direction
    ? [...matches]
        .sort((a, b) => Number(a.price === null) - Number(b.price === null) || direction * ((a.price ?? 0) - (b.price ?? 0)) || b.id - a.id)
        .map((listing) => indexOf.get(listing.id)!)
    : null;
  return {
    priceOrder,
    window: sqlWindow.ids.map((id) => indexOf.get(id)!),
    clusters,
    order: page.ids.map((id) => indexOf.get(id)!),
    total: page.total,
    facets,
    matched: listings
      .filter((listing) => matchesListing(listing, search))
      .map((listing) => indexOf.get(listing.id)!)
      .sort((a, b) => a - b),
  };
}

describe('search parity: SQLite, PostgreSQL, the search engine and the in-memory matcher', () => {
  it('give the same listings in the same order, the same facet counts and clusters, and the matcher agrees', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(listingSpec, { minLength: 5, maxLength: 30 }),
        fc.array(
          fc.oneof(
            { arbitrary: searchSpec, weight: 4 },
            { arbitrary: termByPriceSpec, weight: 1 },
            { arbitrary: manyFacetsSpec, weight: 1 },
            { arbitrary: mapSpec, weight: 2 },
          ),
          { minLength: 4, maxLength: 8 },
        ),
        async (specs, searches) => {
          const loaded = await Promise.all(worlds.map((world) => load(world, specs)));
          for (const spec of searches) {
            const outcomes = await Promise.all(worlds.map((world, i) => run(world, loaded[i]!, spec)));
            const [first, ...others] = outcomes;
            expect(first!.order.length).toBe(first!.total);
            expect([...first!.order].sort((a, b) => a - b)).toEqual(first!.matched);
            if (first!.priceOrder) expect(first!.order).toEqual(first!.priceOrder);
            for (const other of others) expect(other).toEqual(first);
          }
        },
      ),
      { numRuns: 30 },
    );
  }, 300_000);
});

describe('map parity: the search engine and SQL', () => {
  it('give the same clusters for boxes cutting through dense listings', async () => {
    // Listings within about 10 km of the centres, so that box edges cut through the engine's index cells.
    const spread = fc.integer({ min: -1_000, max: 1_000 }).map((n) => n / 1e4);
    const dense = fc
      .tuple(listingSpec, spread, spread)
      .map(([spec, lat, lng]) => ({ ...spec, centre: spec.centre ?? 0, offset: [lat, lng] as [number, number] }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(dense, { minLength: 40, maxLength: 120 }),
        fc.array(mapSpec, { minLength: 4, maxLength: 8 }),
        async (specs, maps) => {
          const loaded = await Promise.all(worlds.map((world) => load(world, specs)));
          for (const spec of maps) {
            const outcomes = await Promise.all(worlds.map((world, i) => run(world, loaded[i]!, spec)));
            const [first, ...others] = outcomes;
            for (const other of others) expect(other).toEqual(first);
          }
        },
      ),
      { numRuns: 10 },
    );
  }, 300_000);
});
