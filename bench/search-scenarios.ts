import {
  boxWithFacets,
  cityTypePrice,
  distinctPaths,
  type DrawQuery,
  hexagon,
  keywords,
  keywordsInCity,
  mapClusters,
  polygonParameter,
  polygonWithPrice,
  radius,
} from './search-requests.js';

/**
 * The searches of the search suite (issue 18), on the demo data of src/seed (Miami: three areas within 6 km
 * of its centre, about 10 % of the listings). Each has its fixed request (the issue's) and rotates over
 * distinct requests of the same shape (search-requests.ts), measured on every dataset beside a bare twin.
 */
export type ScenarioKey = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h';

export interface SearchScenario {
  key: ScenarioKey;
  name: string;
  /** The fixed request: path on the API server, query string included. */
  path: string;
  /** One more request of its shape. */
  draw: DrawQuery;
  /** Least real/bare throughput ratio at 10 connections: at 100,000 listings and at 1,000,000. */
  targetRatio: { at100k: number; at1M: number };
  /** From the smallest to the largest dataset of a database, its median latency must grow less than GROWTH_TARGET times. */
  growthTarget?: true;
  /** Its SQL is captured and explained (query-plans.ts). */
  explain?: true;
}

/** Median latency may grow by less than this from the smallest to the largest dataset (issue 5). */
export const GROWTH_TARGET = 3;

const API = '/realty-api/v1';
const SEARCH = `${API}/properties/search`;
const MAP = `${API}/properties/search/map`;
/** Miami's centre in the demo places (src/seed/demo-places.ts). */
const MIAMI = { latitude: 25.7617, longitude: -80.1918 };
/** About 5 % of Miami's published listings: sale apartments in the middle of its price range. */
const APARTMENTS_IN_MIAMI = `${SEARCH}?city=miami&type=apartment&min_price=500000&max_price=650000&sortby=a_price`;
const MIAMI_HEXAGON = polygonParameter(hexagon(MIAMI, 8));

export const SEARCH_SCENARIOS: readonly SearchScenario[] = [
  {
    key: 'a',
    name: '(a) city + type + price, by price',
    path: APARTMENTS_IN_MIAMI,
    draw: cityTypePrice(),
    targetRatio: { at100k: 0.2, at1M: 0.1 },
    growthTarget: true,
    explain: true,
  },
  // "renovated" (a condition in some descriptions, an adjective in some titles) and "balcony" (a feature):
  // about 3 % of the listings have both.
  {
    key: 'b',
    name: '(b) keyword "renovated balcony"',
    path: `${SEARCH}?keyword=renovated+balcony`,
    draw: keywords,
    targetRatio: { at100k: 0.08, at1M: 0.02 },
  },
  {
    key: 'c',
    name: '(c) 10 km around Miami, by distance',
    path: `${SEARCH}?latitude=${MIAMI.latitude}&longitude=${MIAMI.longitude}&radius=10&sortby=distance`,
    draw: radius,
    targetRatio: { at100k: 0.1, at1M: 0.05 },
    growthTarget: true,
    explain: true,
  },
  {
    key: 'd',
    name: '(d) box over Miami + 4 facets',
    path: `${SEARCH}?ne_lat=25.83&ne_lng=-80.15&sw_lat=25.7&sw_lng=-80.28&facets=type,city,bedrooms,price`,
    draw: boxWithFacets,
    targetRatio: { at100k: 0.05, at1M: 0.01 },
  },
  {
    key: 'e',
    name: '(e) map clusters, zoom 10',
    // 1.4° of longitude by 0.9° of latitude around the centre.
    path: `${MAP}?ne_lat=26.2117&ne_lng=-79.4918&sw_lat=25.3117&sw_lng=-80.8918&zoom=10`,
    draw: mapClusters,
    targetRatio: { at100k: 0.1, at1M: 0.05 },
    growthTarget: true,
  },
  {
    key: 'f',
    name: '(f) as (a), page 50',
    path: `${APARTMENTS_IN_MIAMI}&page=50`,
    draw: cityTypePrice([30, 70]),
    targetRatio: { at100k: 0.2, at1M: 0.1 },
  },
  {
    key: 'g',
    name: '(g) keyword + city + 2 facets',
    path: `${SEARCH}?keyword=renovated+balcony&city=miami&facets=type,price`,
    draw: keywordsInCity,
    targetRatio: { at100k: 0.08, at1M: 0.02 },
  },
  {
    key: 'h',
    name: '(h) 6-vertex polygon + min price',
    path: `${SEARCH}?${new URLSearchParams({ polygon: MIAMI_HEXAGON, min_price: '400000' }).toString()}`,
    draw: polygonWithPrice,
    targetRatio: { at100k: 0.1, at1M: 0.05 },
  },
];

/**
 * The target ratio of a scenario on a dataset: the table gives it at 100,000 and 1,000,000 listings;
 * a smaller dataset (a quick check) is held to the 100,000 one, a size between the two to the 1,000,000 one.
 */
export function targetRatioAt(scenario: SearchScenario, listings: number): number {
  return listings <= 100_000 ? scenario.targetRatio.at100k : scenario.targetRatio.at1M;
}

/** The fixed request first, then distinct ones of its shape: `count` in all, the same on every run. */
export function scenarioPaths(scenario: SearchScenario, count: number): string[] {
  const base = scenario.path.slice(0, scenario.path.indexOf('?'));
  return distinctPaths(count, scenario.path, base, scenario.draw, scenario.key.charCodeAt(0));
}

/** How many listings an answer says match: `pagination.total_records` of a search, `total` of the map. */
export function matchesOf(body: string): number {
  const data = (JSON.parse(body) as { data: { total?: number; pagination?: { total_records: number } } }).data;
  const total = data.pagination?.total_records ?? data.total;
  if (typeof total !== 'number') throw new Error(`no total in ${body.slice(0, 200)}`);
  return total;
}
