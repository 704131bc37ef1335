import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, ListingState } from '../../src/db/schema/index.js';
import { seededRandom } from '../../src/lib/random.js';
import { distanceKm } from '../../src/modules/search/geo/geo.js';
import { searchColumnsOf } from '../../src/lib/search-columns.js';
import { searchConditions } from '../../src/modules/search/query/search-filters.repository.js';
import { resolveTerms } from '../../src/modules/search/query/search-terms.repository.js';
import type { SearchQuery } from '../../src/modules/search/query/search-types.js';
import { inSearchOrder } from '../../src/modules/search/search.repository.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { planOf } from './search-storage-fixtures.js';

/**
 * The plans of the search's own queries (the page and the count of findSearchPage, built from the same
 * exported pieces) read the indexes named for them: listing_terms_search_idx for term, city and price
 * filters, the `(status, geo_key)` index for a small circle, the keyword index for a keyword. Both
 * databases get statistics (ANALYZE; the app runs `PRAGMA optimize` on SQLite), and planOf turns off
 * PostgreSQL's sequential scans, which would always win on test-sized tables.
 */

const LISTINGS = 1_500;
const CITIES = 20;
const TYPES = ['house', 'flat', 'villa'] as const;
const CENTRE = { latitude: 48.8566, longitude: 2.3522 };
/** One listing carries it: selective enough for any planner to take the keyword index. */
const RARE_WORD = 'zebra';

interface Spot {
  status: ListingState;
  type: number;
  city: number;
  price: number;
  latitude: number;
  longitude: number;
  rare: boolean;
}

describeEachDialect('search plans (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  let spots: Spot[];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    const at = new Date().toISOString();
    const term = async (taxonomy: 'property_type' | 'property_city', slug: string) =>
      (
        await db
          .insertInto('terms')
          .values({ taxonomy, name: slug, slug, sort_key: slug, created_at: at, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const typeIds: number[] = [];
    for (const slug of TYPES) typeIds.push(await term('property_type', slug));
    const cityIds: number[] = [];
    for (let n = 0; n < CITIES; n++) cityIds.push(await term('property_city', `city-${n}`));

    const random = seededRandom(2026);
    spots = Array.from({ length: LISTINGS }, (_, n) => ({
      status: random() < 0.8 || n === 7 ? 'publish' : 'draft',
      type: n % TYPES.length,
      city: n % CITIES,
      price: Math.floor(random() * 1_000_000),
      // Spread over the world, a few near the centre.
      ...(n % 500 === 0
        ? { latitude: CENTRE.latitude + (random() - 0.5) / 100, longitude: CENTRE.longitude + (random() - 0.5) / 100 }
        : { latitude: random() * 170 - 85, longitude: random() * 360 - 180 }),
      rare: n === 7,
    }));
    const rows = spots.map((spot, n) => {
      const title = spot.rare ? `Loft ${RARE_WORD}` : `Listing ${n}`;
      const { latitude, longitude } = spot;
      return {
        slug: `plan-${n}`,
        title,
        status: spot.status,
        currency: 'EUR',
        price: spot.price,
        latitude,
        longitude,
        published_at: spot.status === 'publish' ? at : null,
        created_at: at,
        updated_at: at,
        ...searchColumnsOf({ title, latitude, longitude }),
      };
    });
    const ids: number[] = [];
    for (let start = 0; start < rows.length; start += 500) {
      const inserted = await db
        .insertInto('listings')
        .values(rows.slice(start, start + 500))
        .returning('id')
        .execute();
      ids.push(...inserted.map((row) => row.id));
    }
    const links = spots.flatMap((spot, n) => [
      { listing_id: ids[n]!, term_id: typeIds[spot.type]!, taxonomy: 'property_type' as const, position: 0 },
      { listing_id: ids[n]!, term_id: cityIds[spot.city]!, taxonomy: 'property_city' as const, position: 0 },
    ]);
    for (let start = 0; start < links.length; start += 500)
      await db
        .insertInto('listing_terms')
        .values(links.slice(start, start + 500))
        .execute();
    await sql`analyze`.execute(db);
  }, 60_000);
  afterAll(() => database.dispose());

  /** The two queries of findSearchPage (search.repository.ts) for a normalized search. */
  const searchQueries = async (query: SearchQuery) => {
    const search = await resolveTerms(db, query);
    const matching = db.selectFrom('listings as l').where((eb) => eb.and(searchConditions(db, search)(eb)));
    return {
      page: inSearchOrder(db, matching.select('l.id'), search, query.sortby ?? (query.keyword ? 'relevance' : 'd_date')).limit(10),
      count: matching.select((eb) => eb.fn.countAll().as('n')),
    };
  };
  const countOf = async (query: SearchQuery) => Number((await (await searchQueries(query)).count.executeTakeFirstOrThrow()).n);
  const published = (test: (spot: Spot) => boolean) => spots.filter((spot) => spot.status === 'publish' && test(spot)).length;

  it('answers a city, type and price search from listing_terms_search_idx', async () => {
    const query: SearchQuery = { terms: { city: ['city-3'], type: ['house'] }, price: { min: 100_000, max: 600_000 } };
    const inRange = (spot: Spot) => spot.city === 3 && spot.type === 0 && spot.price >= 100_000 && spot.price <= 600_000;
    expect(await countOf(query)).toBe(published(inRange));
    const { page, count } = await searchQueries(query);
    for (const plan of [await planOf(db, page), await planOf(db, count)]) {
      if (dialect === 'sqlite') {
        expect(plan).toMatch(
          /SEARCH lt USING COVERING INDEX listing_terms_search_idx \(term_id=\? AND status=\? AND city_id=\? AND price>\? AND price<\?\)/,
        );
      } else {
        expect(plan).toMatch(
          /Index Scan on listing_terms_search_idx.*\n\s+Index Cond: \(\(term_id = \d+\) AND \(status = 'publish'::text\) AND \(city_id = \d+\) AND \(price >= /,
        );
      }
    }
  });

  // listings_geo_points_idx begins with (status, geo_key) and covers the exact test too.
  const GEO_INDEX_SQLITE = /SEARCH l USING (?:COVERING )?INDEX listings_geo_points_idx \(status=\? AND geo_key>\? AND geo_key<\?\)/;
  const GEO_INDEX_POSTGRES = /Index Scan on listings_geo_points_idx .*\n\s+Index Cond: \(\(status = 'publish'::text\) AND \(geo_key >= /;
  const smallCircle: SearchQuery = { circle: { ...CENTRE, radius: 2, unit: 'km' } };

  it('counts a small-radius search through the (status, geo_key) index', async () => {
    expect(await countOf(smallCircle)).toBe(published((spot) => distanceKm(CENTRE, spot) <= 2));
    const plan = await planOf(db, (await searchQueries(smallCircle)).count);
    expect(plan).toMatch(dialect === 'sqlite' ? GEO_INDEX_SQLITE : GEO_INDEX_POSTGRES);
  });

  it('reads the page of a small-radius search through the (status, geo_key) index', async () => {
    const plan = await planOf(db, (await searchQueries(smallCircle)).page);
    expect(plan).toMatch(dialect === 'sqlite' ? GEO_INDEX_SQLITE : GEO_INDEX_POSTGRES);
  });

  it('finds keywords through the keyword index', async () => {
    for (const query of [{ keyword: RARE_WORD }, { keyword: RARE_WORD, sortby: 'd_date' }] satisfies SearchQuery[]) {
      expect(await countOf(query)).toBe(published((spot) => spot.rare));
      const { page, count } = await searchQueries(query);
      for (const plan of [await planOf(db, page), await planOf(db, count)]) {
        if (dialect === 'sqlite') expect(plan).toMatch(/SCAN listings_fts VIRTUAL TABLE/);
        else
          expect(plan).toMatch(
            /Bitmap Index Scan on listings_search_idx .*\n\s+Index Cond: \(array_to_tsvector\(string_to_array\(search_text/,
          );
      }
    }
  });
});
