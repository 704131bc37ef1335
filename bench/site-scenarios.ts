import { seededRandom } from '../src/lib/random.js';

/**
 * The website's scenarios (BENCH_SUITE=site): what each rotates over, and the least real/bare throughput ratio it
 * must reach. Each page kind is found by its URL: a kind whose first URL answers 404 (its pages not on this
 * branch yet) is skipped with a line saying so, and runs as soon as its routes exist.
 */
export interface SiteScenario {
  key: 'home' | 'listing' | 'results' | 'sitemap';
  name: string;
  targetRatio: number;
  /** What the rotation is made of, for the report. */
  rotates: string;
  /**
   * The Accept-Encoding its clients send, when they send one: crawlers take sitemaps gzipped (Googlebot asks for
   * gzip), so that scenario and its twin move the gzipped bytes. Pages are measured uncompressed, as the API is.
   */
  acceptEncoding?: 'gzip';
}

const SITE_SCENARIOS: readonly SiteScenario[] = [
  { key: 'home', name: 'home page', targetRatio: 0.4, rotates: '4 languages × tracking parameters (utm_*, gclid, fbclid)' },
  { key: 'listing', name: 'listing page', targetRatio: 0.3, rotates: 'the `url` paths of distinct published listings' },
  {
    key: 'results',
    name: 'results, 20 cards with facets',
    targetRatio: 0.15,
    rotates: 'distinct searches (city × type × status × sort, then price bands)',
  },
  {
    key: 'sitemap',
    name: 'sitemap shard (listings)',
    targetRatio: 0.2,
    rotates: 'every listing shard of every language',
    acceptEncoding: 'gzip',
  },
];

/**
 * The scenarios BENCH_SITE_SCENARIOS names (a comma-separated list of keys, e.g. `sitemap`), all of them when it
 * is unset: one scenario can be measured without waiting for the others.
 */
export function selectedSiteScenarios(names: string | undefined): readonly SiteScenario[] {
  if (!names?.trim()) return SITE_SCENARIOS;
  const keys = names.split(',').map((name) => name.trim());
  const unknown = keys.filter((key) => !SITE_SCENARIOS.some((scenario) => scenario.key === key));
  if (unknown.length > 0) {
    throw new Error(`BENCH_SITE_SCENARIOS: unknown ${unknown.join(', ')} (known: ${SITE_SCENARIOS.map((s) => s.key).join(', ')})`);
  }
  return SITE_SCENARIOS.filter((scenario) => keys.includes(scenario.key));
}

const LANGUAGE_HOMES = ['/', '/ar/', '/es/', '/fr/'] as const;
const SOURCES = ['newsletter', 'facebook', 'google', 'twitter', 'partner', 'instagram', 'bing', 'email', 'tiktok', 'linkedin'];
const MEDIUMS = ['email', 'social', 'cpc', 'referral', 'display'];

/**
 * The home page as visitors reach it: its four languages, and links that carry campaign parameters (a newsletter,
 * an ad, a shared post). The page reads none of them, so they are the page path as real traffic takes it, not a
 * way around a cache: `count` distinct URLs, the four plain ones first.
 */
export function homePaths(count: number): string[] {
  const paths: string[] = [...LANGUAGE_HOMES];
  for (let n = 0; paths.length < count; n++) {
    const home = LANGUAGE_HOMES[n % LANGUAGE_HOMES.length]!;
    const campaign = `utm_source=${SOURCES[n % SOURCES.length]}&utm_medium=${MEDIUMS[n % MEDIUMS.length]}&utm_campaign=spring-${n}`;
    const click = n % 3 === 0 ? `&gclid=Cj0KCQ${n.toString(36)}` : n % 3 === 1 ? `&fbclid=IwAR${n.toString(36)}` : '';
    paths.push(`${home}?${campaign}${click}`);
  }
  return paths;
}

export interface SearchVocabulary {
  cities: readonly string[];
  types: readonly string[];
  statuses: readonly string[];
}

const SORTS = ['d_date', 'a_price', 'd_price', 'featured_first'] as const;

/**
 * Distinct searches of the results page, 20 a page with the facets a results page shows: city × type × status ×
 * order from the demo data's own terms, then price bands when those run out; seeded, the same list on every run.
 */
export function resultsPaths(vocabulary: SearchVocabulary, count: number): string[] {
  const random = seededRandom(39);
  const paths = new Set<string>();
  const { cities, types, statuses } = vocabulary;
  for (const city of cities)
    for (const type of types)
      for (const status of statuses)
        for (const sortby of SORTS) {
          if (paths.size >= count) break;
          paths.add(`/properties?city=${city}&type=${type}&status=${status}&sortby=${sortby}&per_page=20`);
        }
  while (paths.size < count) {
    const city = cities[Math.floor(random() * cities.length)]!;
    const min = 50_000 * (1 + Math.floor(random() * 40));
    paths.add(`/properties?city=${city}&min_price=${min}&max_price=${min * 2}&sortby=a_price&per_page=20`);
  }
  return [...paths];
}
