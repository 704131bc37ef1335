import { between, pick, pickWeighted, type Random, seededRandom } from '../src/lib/random.js';
import { slugify } from '../src/lib/slug.js';
import { DEMO_TYPES, FEATURES_BY_KIND, type TypeProfile } from '../src/seed/demo-listing-types.js';
import { type CityProfile, DEMO_CITIES } from '../src/seed/demo-places.js';

/**
 * The rotating requests of the search suite: for each scenario, a generator of one request of its shape drawn
 * from the demo data's own places, types, prices and words (src/seed), so that most of them find listings, in
 * about the numbers the scenario's fixed request finds. distinctPaths draws them, seeded, until it has as many
 * distinct ones as asked: the same list on every run and machine.
 */

/** One request of a scenario's shape: its query string, without the `?`. */
export type DrawQuery = (random: Random) => string;

const KM_PER_DEGREE_LATITUDE = 110.574;

/**
 * Words of the demo listings' titles and descriptions (src/seed/demo-listing-drafts.ts): the adjectives of
 * titles and the conditions of descriptions. NOTE: copied, as that file does not export them; a word that
 * leaves the demo text only makes some requests find less.
 */
const DESCRIPTIVE_WORDS = [
  'renovated',
  'bright',
  'spacious',
  'modern',
  'charming',
  'elegant',
  'sunny',
  'stylish',
  'cozy',
  'luxurious',
  'quiet',
  'prime',
  'corner',
  'refurbished',
  'flexible',
  'maintained',
  'updated',
  'original',
];
/** Feature names (in every description's highlights) and the nouns of titles, lower case. */
const FEATURE_WORDS = [...new Set(Object.values(FEATURES_BY_KIND).flat())].map((name) => name.toLowerCase());
const NOUNS = [...new Set(DEMO_TYPES.map((type) => type.titleNoun.toLowerCase()))];

/** Two words as a listing's text pairs them: a description and a feature, a noun and a feature, or a description and a noun. */
function keywordPair(random: Random): string {
  const draw = random();
  if (draw < 0.5) return `${pick(DESCRIPTIVE_WORDS, random)} ${pick(FEATURE_WORDS, random)}`;
  if (draw < 0.8) return `${pick(NOUNS, random)} ${pick(FEATURE_WORDS, random)}`;
  return `${pick(DESCRIPTIVE_WORDS, random)} ${pick(NOUNS, random)}`;
}

const RESIDENTIAL = DEMO_TYPES.filter((type) => type.kind === 'residential');

const cityOf = (random: Random): CityProfile => pickWeighted(DEMO_CITIES, (city) => city.weight, random);

/** A sale price band of a type in a city: about as wide as the fixed request's 500,000-650,000 (× 1.3). */
function priceBand(random: Random, city: CityProfile, type: TypeProfile): { min: number; max: number } {
  const [smallest, largest] = type.floorM2 ?? [50, 150];
  const typical = city.salePerM2 * type.priceFactor * between(random, smallest, largest);
  const min = roundTo(typical * between(random, 0.85, 1), 5_000);
  return { min, max: roundTo(min * between(random, 1.2, 1.4), 5_000) };
}

/** (a) and (f): a city, a residential type, a sale price band, by price; `pages` draws a page. */
export function cityTypePrice(pages?: readonly [number, number]): DrawQuery {
  return (random) => {
    const city = cityOf(random);
    const type = pickWeighted(RESIDENTIAL, (t) => t.weight, random);
    const { min, max } = priceBand(random, city, type);
    const query = new URLSearchParams({
      city: slugify(city.city),
      type: slugify(type.name),
      min_price: String(min),
      max_price: String(max),
      sortby: 'a_price',
    });
    if (pages) query.set('page', String(pages[0] + Math.floor(random() * (pages[1] - pages[0] + 1))));
    return query.toString();
  };
}

/** (b): two words. */
export const keywords: DrawQuery = (random) => new URLSearchParams({ keyword: keywordPair(random) }).toString();

/** (c): 10 km around a point within half a city's radius of its centre, by distance. */
export const radius: DrawQuery = (random) => {
  const centre = pointNear(random, cityOf(random), 0.5);
  return new URLSearchParams({
    latitude: fixed(centre.latitude),
    longitude: fixed(centre.longitude),
    radius: '10',
    sortby: 'distance',
  }).toString();
};

/** (d): a box of 0.1-0.16° a side (the fixed one: 0.13°) over part of a city, with four facets. */
export const boxWithFacets: DrawQuery = (random) => {
  const centre = pointNear(random, cityOf(random), 0.4);
  const box = boxAround(centre, between(random, 0.05, 0.08), between(random, 0.05, 0.08));
  return new URLSearchParams({ ...box, facets: 'type,city,bedrooms,price' }).toString();
};

/** (e): a map of about 1.4° × 0.9° (± 15 %) within 0.25° of a city's centre, zoom 10. */
export const mapClusters: DrawQuery = (random) => {
  const city = cityOf(random);
  const centre = { latitude: city.latitude + between(random, -0.25, 0.25), longitude: city.longitude + between(random, -0.25, 0.25) };
  const scale = between(random, 0.85, 1.15);
  return new URLSearchParams({ ...boxAround(centre, 0.45 * scale, 0.7 * scale), zoom: '10' }).toString();
};

/** (g): two words in one city, with the type and price facets. */
export const keywordsInCity: DrawQuery = (random) =>
  new URLSearchParams({ keyword: keywordPair(random), city: slugify(cityOf(random).city), facets: 'type,price' }).toString();

/** (h): a six-sided polygon of 4-9 km around a point of a city (each corner turned and drawn in a little), and a least price. */
export const polygonWithPrice: DrawQuery = (random) => {
  const city = cityOf(random);
  const centre = pointNear(random, city, 0.4);
  const radiusKm = between(random, 4, 9);
  const corners = Array.from({ length: 6 }, (_, k) => {
    const bearing = ((k * 60 + between(random, -15, 15)) * Math.PI) / 180;
    return offsetKm(centre, radiusKm * between(random, 0.7, 1) * Math.cos(bearing), radiusKm * between(random, 0.7, 1) * Math.sin(bearing));
  });
  const minPrice = roundTo(city.salePerM2 * between(random, 50, 100), 5_000);
  return new URLSearchParams({ polygon: polygonParameter(corners), min_price: String(minPrice) }).toString();
};

/** `lat lng,lat lng,…` of the search parameter. */
export function polygonParameter(corners: readonly { latitude: number; longitude: number }[]): string {
  return corners.map((corner) => `${fixed(corner.latitude)} ${fixed(corner.longitude)}`).join(',');
}

/** A regular hexagon of `radiusKm` around `centre`, as the fixed (h) uses. */
export function hexagon(centre: { latitude: number; longitude: number }, radiusKm: number): { latitude: number; longitude: number }[] {
  return Array.from({ length: 6 }, (_, k) => {
    const bearing = (k * 60 * Math.PI) / 180;
    return offsetKm(centre, radiusKm * Math.cos(bearing), radiusKm * Math.sin(bearing));
  });
}

/**
 * `count` distinct paths: `fixed` first (the scenario's own request), then `draw`n ones under `base`, seeded
 * by `seed`. Fails when the shape cannot give that many.
 */
export function distinctPaths(count: number, fixedPath: string, base: string, draw: DrawQuery, seed: number): string[] {
  const random = seededRandom(seed);
  const paths = new Set([fixedPath]);
  for (let attempts = 0; paths.size < count; attempts++) {
    if (attempts > count * 100) throw new Error(`${base}: only ${paths.size} distinct requests after ${attempts} draws (${count} asked)`);
    paths.add(`${base}?${draw(random)}`);
  }
  return [...paths];
}

function pointNear(random: Random, city: CityProfile, share: number): { latitude: number; longitude: number } {
  const distance = city.radiusKm * share * Math.sqrt(random());
  const bearing = 2 * Math.PI * random();
  return offsetKm(city, distance * Math.cos(bearing), distance * Math.sin(bearing));
}

function offsetKm(from: { latitude: number; longitude: number }, northKm: number, eastKm: number): { latitude: number; longitude: number } {
  return {
    latitude: from.latitude + northKm / KM_PER_DEGREE_LATITUDE,
    longitude: from.longitude + eastKm / (111.32 * Math.cos((from.latitude * Math.PI) / 180)),
  };
}

function boxAround(centre: { latitude: number; longitude: number }, halfLatitude: number, halfLongitude: number): Record<string, string> {
  return {
    ne_lat: fixed(centre.latitude + halfLatitude),
    ne_lng: fixed(centre.longitude + halfLongitude),
    sw_lat: fixed(centre.latitude - halfLatitude),
    sw_lng: fixed(centre.longitude - halfLongitude),
  };
}

/** Four decimals (about 10 m): enough to make requests distinct. */
const fixed = (degrees: number) => degrees.toFixed(4);

function roundTo(value: number, step: number): number {
  return Math.max(step, Math.round(value / step) * step);
}
