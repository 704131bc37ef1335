import type { Kysely } from 'kysely';
import type { DB, Taxonomy } from '../src/db/schema/index.js';
import { integerBetween, pick, type Random, seededRandom } from '../src/lib/random.js';
import { searchQueryString } from '../src/modules/search/query/search-canonical.js';
import { normalizeSavedSearchQuery } from '../src/modules/search/query/search-query.js';
import { DEMO_CITIES } from '../src/seed/demo-places.js';

/**
 * Saved searches for the alerts suite: as many as asked, of users who keep 50 each (the API's limit), with
 * queries shaped like those people save on a listing site of the demo data: mostly a city (sometimes an
 * area or a state) with a type, sale or rent and a price range, often a minimum of bedrooms; some with a
 * keyword, a feature or a label; some a circle around a point of a demo city instead of a place name. Stored
 * as the API stores them (the canonical query string of normalizeSavedSearchQuery).
 */

export interface SavedSearchSummary {
  searches: number;
  users: number;
  byFrequency: Record<'instant' | 'daily' | 'weekly', number>;
  seconds: number;
}

const PER_USER = 50;
const ROWS_PER_INSERT = 500;
const SALE_PRICES = [
  50_000, 100_000, 150_000, 200_000, 300_000, 400_000, 500_000, 750_000, 1_000_000, 1_500_000, 2_000_000, 3_000_000, 5_000_000,
];
const RENT_PRICES = [500, 750, 1_000, 1_500, 2_000, 3_000, 5_000, 10_000];
const KEYWORDS = ['pool', 'renovated', 'balcony', 'sea view', 'garden', 'terrace', 'parking', 'quiet', 'bright', 'penthouse'];
/** The leaf property types people search for (parents such as "Residential" are rarely chosen). */
const TYPE_WEIGHTS: Record<string, number> = {
  apartment: 26,
  condo: 10,
  studio: 6,
  penthouse: 4,
  duplex: 3,
  townhouse: 7,
  'single-family-home': 10,
  villa: 8,
  office: 4,
  shop: 2,
  warehouse: 1,
  'residential-land': 2,
};

type Slugs = Record<Taxonomy, string[]>;

export async function seedSavedSearches(db: Kysely<DB>, count: number, seed = 1): Promise<SavedSearchSummary> {
  const started = performance.now();
  const random = seededRandom(seed);
  const slugs = await slugsByTaxonomy(db);
  const users = Math.ceil(count / PER_USER);
  const now = new Date().toISOString();
  const userIds: number[] = [];
  for (let first = 0; first < users; first += ROWS_PER_INSERT) {
    const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, users - first) }, (_, i) => {
      const name = `alerts_bench_${first + i}`;
      return {
        username: name,
        email: `${name}@example.test`,
        password_hash: null,
        role: 'buyer' as const,
        display_name: name,
        created_at: now,
        updated_at: now,
      };
    });
    userIds.push(...(await db.insertInto('users').values(rows).returning('id').execute()).map((row) => row.id));
  }
  const byFrequency = { instant: 0, daily: 0, weekly: 0 };
  for (let first = 0; first < count; first += ROWS_PER_INSERT) {
    const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, count - first) }, (_, i) => {
      const n = first + i;
      const frequency = pickFrequency(random);
      byFrequency[frequency]++;
      return {
        user_id: userIds[Math.floor(n / PER_USER)]!,
        name: `Search ${n + 1}`,
        query_string: searchQueryString(normalizeSavedSearchQuery(queryOf(random, slugs))),
        email_alerts: random() < 0.8 ? 1 : 0,
        frequency,
        created_at: now,
        updated_at: now,
      };
    });
    await db.insertInto('saved_searches').values(rows).execute();
  }
  return { searches: count, users, byFrequency, seconds: (performance.now() - started) / 1000 };
}

function pickFrequency(random: Random): 'instant' | 'daily' | 'weekly' {
  const r = random();
  return r < 0.2 ? 'instant' : r < 0.85 ? 'daily' : 'weekly';
}

/** One saved search's parameters, as a query string a client would send. */
function queryOf(random: Random, slugs: Slugs): string {
  const params: string[] = [];
  const circle = random() < 0.1;
  if (circle) {
    const city = pick(DEMO_CITIES, random);
    const centre = random() < 0.5 ? city : pick(city.areas, random);
    const jitter = () => (random() - 0.5) * 0.05;
    params.push(
      `latitude=${(centre.latitude + jitter()).toFixed(4)}`,
      `longitude=${(centre.longitude + jitter()).toFixed(4)}`,
      `radius=${integerBetween(random, 1, 25)}`,
    );
  } else {
    const place = random();
    if (place < 0.75) params.push(`city=${pickSome(random, slugs.property_city, 0.1)}`);
    else if (place < 0.87) params.push(`area=${pickSome(random, slugs.property_area, 0.3)}`);
    else if (place < 0.95) params.push(`state=${pick(slugs.property_state, random)}`);
    else params.push(`country=${pick(slugs.property_country, random)}`);
  }
  if (random() < 0.65) params.push(`type=${pickTypes(random, slugs.property_type)}`);
  const rent = random() < 0.35;
  if (random() < 0.75) params.push(`status=${rent ? 'for-rent' : 'for-sale'}`);
  if (random() < 0.7) {
    const ladder = rent ? RENT_PRICES : SALE_PRICES;
    const low = integerBetween(random, 0, ladder.length - 2);
    const high = integerBetween(random, low + 1, Math.min(ladder.length - 1, low + 4));
    if (random() < 0.6) params.push(`min_price=${ladder[low]}`);
    params.push(`max_price=${ladder[high]}`);
  }
  if (random() < 0.5) params.push(`min_beds=${integerBetween(random, 1, 4)}`);
  if (random() < 0.15) params.push(`min_baths=${integerBetween(random, 1, 3)}`);
  if (random() < 0.1) params.push(`keyword=${encodeURIComponent(pick(KEYWORDS, random))}`);
  if (random() < 0.08) params.push(`feature=${pickSome(random, slugs.property_feature, 0.3)}`);
  if (random() < 0.04) params.push(`label=${pick(slugs.property_label, random)}`);
  if (random() < 0.03) params.push('featured=true');
  return params.join('&');
}

/** One slug, or with probability `more` two. */
function pickSome(random: Random, slugs: readonly string[], more: number): string {
  const first = pick(slugs, random);
  const second = random() < more ? pick(slugs, random) : first;
  return first === second ? first : `${first},${second}`;
}

function pickTypes(random: Random, known: readonly string[]): string {
  const weighted = Object.entries(TYPE_WEIGHTS).filter(([slug]) => known.includes(slug));
  const total = weighted.reduce((sum, [, weight]) => sum + weight, 0);
  const one = () => {
    let r = random() * total;
    for (const [slug, weight] of weighted) if ((r -= weight) < 0) return slug;
    return weighted[0]![0];
  };
  const first = one();
  const second = random() < 0.25 ? one() : first;
  return first === second ? first : `${first},${second}`;
}

async function slugsByTaxonomy(db: Kysely<DB>): Promise<Slugs> {
  const rows = await db.selectFrom('terms').select(['taxonomy', 'slug']).orderBy('id').execute();
  const slugs = {} as Slugs;
  for (const row of rows) (slugs[row.taxonomy] ??= []).push(row.slug);
  for (const taxonomy of [
    'property_city',
    'property_area',
    'property_state',
    'property_country',
    'property_type',
    'property_feature',
    'property_label',
  ] as const) {
    if (!slugs[taxonomy]?.length) throw new Error(`the alerts bench needs the demo taxonomy: no ${taxonomy} terms`);
  }
  return slugs;
}
