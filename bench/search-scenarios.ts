/**
 * The searches of the search suite (issue 5), on the demo data of src/seed (Miami: three areas within 6 km
 * of its centre, about 10 % of the listings). Each is measured on every dataset, beside a bare twin.
 */
export interface SearchScenario {
  key: 'a' | 'b' | 'c' | 'd' | 'e' | 'f';
  name: string;
  /** Path on the API server, query string included. */
  path: string;
  /** From the smallest to the largest SQLite dataset, its median latency must grow less than GROWTH_TARGET times. */
  growthTarget?: true;
  /** Least real/bare throughput ratio on the smallest datasets (SQLite and PostgreSQL). */
  targetRatio?: number;
  /** Its SQL is captured and explained (query-plans.ts). */
  explain?: true;
}

/** Median latency may grow by less than this from 100,000 to 1,000,000 listings. */
export const GROWTH_TARGET = 3;

const API = '/realty-api/v1';
/** Miami's centre in the demo places (src/seed/demo-places.ts). */
const MIAMI = { latitude: 25.7617, longitude: -80.1918 };
/** About 5 % of Miami's published listings: sale apartments in the middle of its price range. */
const PRICE_RANGE = 'min_price=500000&max_price=650000';
const APARTMENTS_IN_MIAMI = `${API}/properties/search?city=miami&type=apartment&${PRICE_RANGE}&sortby=a_price`;

export const SEARCH_SCENARIOS: readonly SearchScenario[] = [
  { key: 'a', name: '(a) city + type + price, by price', path: APARTMENTS_IN_MIAMI, growthTarget: true, targetRatio: 0.1, explain: true },
  // "renovated" (a condition in some descriptions, an adjective in some titles) and "balcony" (a feature):
  // about 3 % of the listings have both.
  { key: 'b', name: '(b) keyword "renovated balcony"', path: `${API}/properties/search?keyword=renovated+balcony` },
  {
    key: 'c',
    name: '(c) 10 km around Miami, by distance',
    path: `${API}/properties/search?latitude=${MIAMI.latitude}&longitude=${MIAMI.longitude}&radius=10&sortby=distance`,
    growthTarget: true,
    explain: true,
  },
  {
    key: 'd',
    name: '(d) box over Miami + 4 facets',
    path: `${API}/properties/search?ne_lat=25.83&ne_lng=-80.15&sw_lat=25.7&sw_lng=-80.28&facets=type,city,bedrooms,price`,
  },
  {
    key: 'e',
    name: '(e) map clusters, zoom 10',
    // 1.4° of longitude by 0.9° of latitude around the centre.
    path: `${API}/properties/search/map?ne_lat=26.2117&ne_lng=-79.4918&sw_lat=25.3117&sw_lng=-80.8918&zoom=10`,
    growthTarget: true,
  },
  { key: 'f', name: '(f) as (a), page 50', path: `${APARTMENTS_IN_MIAMI}&page=50` },
];

/** How many listings an answer says match: `pagination.total_records` of a search, `total` of the map. */
export function matchesOf(body: string): number {
  const data = (JSON.parse(body) as { data: { total?: number; pagination?: { total_records: number } } }).data;
  const total = data.pagination?.total_records ?? data.total;
  if (typeof total !== 'number') throw new Error(`no total in ${body.slice(0, 200)}`);
  return total;
}
