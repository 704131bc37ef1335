import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { titleHits } from '../../db/dialect/full-text.js';
import { statementsAreRoundTrips, unindexedSortKey } from '../../db/dialect/index.js';
import type { DB } from '../../db/schema/index.js';
import type { PageWindow } from '../../lib/paging.js';
import { queryTerms } from '../../lib/search-tokens.js';
import type { RadiusCircle } from './geo/geo.js';
import { countInCircle } from './geo/geo-cells.repository.js';
import { dotWith } from './geo/geo-filters.repository.js';
import { type SearchDB, searchConditions, searchedStates } from './query/search-filters.repository.js';
import type { ResolvedSearch } from './query/search-terms.js';
import type { SearchSort } from './query/search-types.js';

type ListingsQuery<O> = SelectQueryBuilder<SearchDB, 'l', O>;

/**
 * The orders of `sortby` (docs/api.md 4.4). Every order ends with `id` descending, so that equal keys come out the
 * same on SQLite and PostgreSQL; listings without the sorted value (no price, size, coordinates) come last in
 * both directions, since `(x is null)` sorts false first on both. Searched listings (`publish`, `sold`) always
 * have `published_at`: it is set on entering `publish`, and `sold` is reached from there only (listing-states.ts).
 */
export function inSearchOrder<O>(db: Kysely<DB>, query: ListingsQuery<O>, search: ResolvedSearch, sort: SearchSort): ListingsQuery<O> {
  // A selective filter reads its own index (geo keys, words, term rows, ids); the sort then orders its few rows.
  const key = (column: 'l.published_at' | 'l.price' | 'l.size' | 'l.sort_title' | 'l.featured') =>
    hasSelectiveFilter(search) ? unindexedSortKey(db, sql.ref(column)) : sql.ref(column);
  switch (sort) {
    case 'd_date':
    case 'a_date':
      query = query.orderBy(key('l.published_at'), sort === 'd_date' ? 'desc' : 'asc');
      break;
    case 'a_price':
    case 'd_price':
      query = query.orderBy(sql`(l.price is null)`).orderBy(key('l.price'), sort === 'a_price' ? 'asc' : 'desc');
      break;
    case 'a_size':
    case 'd_size':
      query = query.orderBy(sql`(l.size is null)`).orderBy(key('l.size'), sort === 'a_size' ? 'asc' : 'desc');
      break;
    case 'a_title':
    case 'd_title':
      query = query.orderBy(key('l.sort_title'), sort === 'a_title' ? 'asc' : 'desc');
      break;
    case 'featured_first':
      query = query.orderBy(key('l.featured'), 'desc').orderBy('l.published_at', 'desc');
      break;
    case 'distance': {
      const centre = search.query.circle!;
      query = query.orderBy(sql`(l.geo_x is null)`).orderBy((eb) => dotWith(eb, centre), 'desc');
      break;
    }
    case 'relevance': {
      const keyword = search.query.keyword!;
      const terms = queryTerms(keyword);
      query = query.orderBy(sql`(case when l.reference = ${keyword} then 0 else 1 end)`);
      if (terms.length > 0) query = query.orderBy(titleHits(db, terms), 'desc');
      query = query.orderBy('l.published_at', 'desc');
      break;
    }
  }
  return query.orderBy('l.id', 'desc');
}

export interface SearchPage {
  ids: number[];
  total: number;
}

/**
 * One page of a search's listing ids in the order of `sort`, and the number of listings it matches. A search
 * by radius alone is counted from the geo cell aggregates and, sorted by distance, read from a smaller circle
 * first (radiusOnly below): both cost about the same at any density of listings.
 */
export async function findSearchPage(db: Kysely<DB>, search: ResolvedSearch, sort: SearchSort, window: PageWindow): Promise<SearchPage> {
  const circle = radiusOnly(search);
  if (circle) {
    const total = await countInCircle(db, searchedStates(search.query), circle);
    const ids = sort === 'distance' ? await nearestIds(db, search, circle, total, window) : await pageIds(db, search, sort, window);
    return { ids, total };
  }
  const termRows = termRowsAlone(db, search, sort);
  if (termRows) {
    const direction = sort === 'a_price' ? 'asc' : 'desc';
    // A price bound leaves out listings without a price; else they come last, as in inSearchOrder.
    const bounded = search.query.price?.min !== undefined || search.query.price?.max !== undefined;
    const ordered = bounded ? termRows : termRows.orderBy(sql`(lt.price is null)`);
    const page = ordered.orderBy('lt.price', direction).orderBy('lt.listing_id', 'desc').limit(window.perPage).offset(window.offset);
    const count = async () => Number((await termRows.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    // On PostgreSQL a statement's round trip costs more than reading the range (in a CPU profile of this
    // search the socket writes were the largest single item), so the page counts it on the way. SQLite has no
    // round trips, and there the page stops after its own rows while counting on the way reads the whole range.
    if (statementsAreRoundTrips(db)) return pageOf(await page.select(['lt.listing_id as id', countedOnTheWay]).execute(), count);
    const [rows, total] = await Promise.all([page.select('lt.listing_id as id').execute(), count()]);
    return { ids: rows.map((row) => row.id), total };
  }
  if (hasSelectiveFilter(search)) {
    // The page reads every match to order them (inSearchOrder), so it counts them on the way.
    const page = matchingListings(db, search).select(['l.id', countedOnTheWay]);
    const rows = await inSearchOrder(db, page, search, sort).limit(window.perPage).offset(window.offset).execute();
    return pageOf(rows, () => countMatches(db, search));
  }
  const [ids, total] = await Promise.all([pageIds(db, search, sort, window), countMatches(db, search)]);
  return { ids, total };
}

/** The number of rows a statement matched before its LIMIT, on every row of the page: one statement instead of a page and a count. */
const countedOnTheWay = sql<number | string>`count(*) over ()`.as('total');

/** The page of rows selected with countedOnTheWay; a page past the end has no row to carry the total, which `count` then gives. */
async function pageOf(rows: { id: number; total: number | string }[], count: () => Promise<number>): Promise<SearchPage> {
  return { ids: rows.map((row) => row.id), total: rows.length > 0 ? Number(rows[0]!.total) : await count() };
}

/**
 * The most common search of a listing site, one type (or status, label, feature) in a city within a price
 * range by price, read from listing_terms_search_idx alone: its rows carry the listing's state, city and
 * price (search-filters.repository.ts), and within one term, state and city they are in price order, so the page is
 * the first rows of one index range and the count never visits a listing. Undefined for any other search,
 * which goes the general way (with the same answer).
 */
function termRowsAlone(db: Kysely<DB>, search: ResolvedSearch, sort: SearchSort) {
  if (sort !== 'a_price' && sort !== 'd_price') return undefined;
  const { terms, price, include_sold: _states, sortby: _sort, facets: _facets, ...others } = search.query;
  const named = Object.keys(terms ?? {});
  const carrier = named.find((name) => name !== 'city');
  const termIds = carrier ? search.termIds[carrier as keyof ResolvedSearch['termIds']] : undefined;
  const cityIds = search.termIds.city;
  if (search.scope || Object.keys(others).length > 0 || named.length > (cityIds ? 2 : 1) || termIds?.length !== 1) return undefined;
  if (cityIds?.length === 0) return undefined;
  let rows = db
    .selectFrom('listing_terms as lt')
    .where('lt.term_id', '=', termIds[0]!)
    .where('lt.status', 'in', searchedStates(search.query));
  if (cityIds) rows = rows.where('lt.city_id', 'in', cityIds);
  if (price?.min !== undefined) rows = rows.where('lt.price', '>=', price.min);
  if (price?.max !== undefined) rows = rows.where('lt.price', '<=', price.max);
  return rows;
}

function matchingListings(db: Kysely<DB>, search: ResolvedSearch) {
  return db.selectFrom('listings as l').where((eb) => eb.and(searchConditions(db, search)(eb)));
}

async function pageIds(db: Kysely<DB>, search: ResolvedSearch, sort: SearchSort, window: PageWindow): Promise<number[]> {
  const rows = await inSearchOrder(db, matchingListings(db, search).select('l.id'), search, sort)
    .limit(window.perPage)
    .offset(window.offset)
    .execute();
  return rows.map((row) => row.id);
}

async function countMatches(db: Kysely<DB>, search: ResolvedSearch): Promise<number> {
  const row = await matchingListings(db, search)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Filters that narrow a search through an index of their own, better than walking a sort's index. */
function hasSelectiveFilter(search: ResolvedSearch): boolean {
  const { query } = search;
  return (
    search.scope !== undefined ||
    Object.keys(search.termIds).length > 0 ||
    [
      query.keyword,
      query.circle?.radius,
      query.box,
      query.polygon,
      query.ids,
      query.reference,
      query.agent_id,
      query.agency_id,
      query.user_id,
    ].some((value) => value !== undefined)
  );
}

/** The circle of a search that filters by radius and nothing else (the states aside), which the aggregates can count. */
function radiusOnly(search: ResolvedSearch): RadiusCircle | undefined {
  const { circle, include_sold: _states, sortby: _sort, facets: _facets, ...filters } = search.query;
  if (circle?.radius === undefined || search.scope || Object.keys(filters).length > 0) return undefined;
  return { ...circle, radius: circle.radius };
}

/** How much wider than the estimate the first inner circle is drawn, so that uneven density rarely needs a second try. */
const INNER_MARGIN = 1.5;

/**
 * The page of the listings nearest the centre. Every listing within a smaller circle is nearer than any
 * outside it, so when an inner circle holds the page and everything before it, its own nearest are the page.
 * Its radius comes from the total as if listings were spread evenly, widened (twice per try) until it holds
 * enough; the full circle is the last try.
 */
async function nearestIds(
  db: Kysely<DB>,
  search: ResolvedSearch,
  circle: RadiusCircle,
  total: number,
  window: PageWindow,
): Promise<number[]> {
  const needed = window.offset + window.perPage;
  let radius = total > needed ? circle.radius * Math.sqrt(needed / total) * INNER_MARGIN : circle.radius;
  for (; radius < circle.radius; radius *= 2) {
    const inner: ResolvedSearch = { ...search, query: { ...search.query, circle: { ...circle, radius } } };
    const ids = await pageIds(db, inner, 'distance', { page: 1, perPage: needed, offset: 0 });
    if (ids.length === needed) return ids.slice(window.offset);
  }
  return pageIds(db, search, 'distance', window);
}
