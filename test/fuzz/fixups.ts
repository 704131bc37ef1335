import { pick, type Random } from '../../src/lib/random.js';
import { SEARCH_ALIASES } from '../../src/modules/search/query/search-query.schemas.js';
import type { Taxonomy } from '../../src/db/schema/index.js';
import { chance, validValue } from './values.js';
import type { JsonSchema } from './operations.js';
import type { World } from './world.js';

/**
 * Rules a schema cannot say (pairs that go together, one target of several, a minimum below its maximum):
 * applied to the well-meaning requests, so that they pass validation and reach the services, and so do the
 * hostile requests built on them.
 */

/** Houzez-style aliases → the parameter each stands for (docs/api.md 4.4). */
const ALIASES: Readonly<Record<string, string>> = SEARCH_ALIASES;

const RANGES: [string, string][] = [
  ['min_price', 'max_price'],
  ['min_size', 'max_size'],
  ['min_land_size', 'max_land_size'],
  ['min_beds', 'max_beds'],
  ['min_baths', 'max_baths'],
  ['min_year_built', 'max_year_built'],
  ['start_date', 'end_date'],
];

const CENTRE = ['latitude', 'longitude', 'radius', 'radius_unit'];
const BOX = ['ne_lat', 'ne_lng', 'sw_lat', 'sw_lng'];

/** The search parameters of docs/api.md 4.4, made consistent. `names` are the parameters the route takes. */
export function fixQuery(query: [string, string][], names: Set<string>, random: Random): [string, string][] {
  const values = new Map<string, string>(query);
  // An alias beside its canonical name: keep one.
  for (const [alias, name] of Object.entries(ALIASES)) if (values.has(alias) && values.has(name)) values.delete(alias);
  const canonical = (name: string) =>
    values.has(name) ? name : (Object.entries(ALIASES).find(([a, c]) => c === name && values.has(a))?.[0] ?? name);
  for (const [min, max] of RANGES) {
    const [low, high] = [values.get(canonical(min)), values.get(canonical(max))];
    if (low === undefined || high === undefined) continue;
    const inverted = Number.isNaN(Number(low)) || Number.isNaN(Number(high)) ? low > high : Number(low) > Number(high);
    if (inverted) {
      values.set(canonical(min), high);
      values.set(canonical(max), low);
    }
  }
  if (values.has('bedrooms')) for (const name of ['min_beds', 'max_beds', 'min-beds', 'max-beds']) values.delete(name);
  if (values.has('bathrooms')) for (const name of ['min_baths', 'max_baths', 'min-baths', 'max-baths']) values.delete(name);
  // One geographic region: a circle, a box (the map's own), or a polygon; each complete.
  const has = (names: string[]) => names.some((name) => values.has(name) || values.has(canonical(name)));
  const wantsCentre = has(CENTRE) || values.get('sortby') === 'distance';
  const wantsBox = has(BOX) || names.has('zoom');
  if (wantsBox || values.has('polygon')) for (const name of [...CENTRE, 'lat', 'lng']) values.delete(name);
  if (wantsBox) values.delete('polygon');
  if (wantsBox) {
    const [sw, ne] = [25 + random() * 0.5, 25.8 + random() * 0.5];
    for (const [name, value] of [
      ['sw_lat', sw],
      ['ne_lat', ne],
      ['sw_lng', -81],
      ['ne_lng', -79.8],
    ] as const)
      values.set(name, String(Math.round(value * 1e4) / 1e4));
  } else if (wantsCentre && !values.has('polygon')) {
    if (!values.has('latitude') && !values.has('lat')) values.set('latitude', '25.77');
    if (!values.has('longitude') && !values.has('lng')) values.set('longitude', '-80.19');
  } else if (values.get('sortby') === 'distance') values.set('sortby', 'd_date');
  if (values.get('sortby') === 'relevance' && !values.has('keyword') && names.has('keyword')) values.set('keyword', 'villa');
  return [...values.entries()].filter(([key]) => names.has(key) || key === 'lang');
}

/** A body that means something: the fields that go together, the one target of several, ids that fit. */
export function fixBody(
  body: unknown,
  schema: JsonSchema,
  context: { random: Random; world: World; method: string; pathParams: Record<string, string> },
): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { random, world } = context;
  const value = body as Record<string, unknown>;
  const properties = schema.properties ?? {};
  // Sign-in: a name, or an e-mail, not both.
  if ('username' in properties && 'email' in properties && 'password' in properties && !('first_name' in properties)) {
    if (value.grant_type !== 'refresh_token' && value.username === undefined && value.email === undefined)
      value.username = pick(world.usernames, random);
    if (value.username !== undefined && value.email !== undefined) delete value.email;
    if (value.grant_type === 'refresh_token') {
      delete value.username;
      delete value.password;
      value.refresh_token = pick(world.tokens.refresh, random);
    }
  }
  // A saved search: `query` or `query_string`, one of them; and a query of realistic parameters.
  if ('query' in properties && 'query_string' in properties) {
    if (value.query !== undefined && value.query_string !== undefined) delete value[chance(random, 0.5) ? 'query' : 'query_string'];
    if (value.query === undefined && value.query_string === undefined) value.query_string = 'keyword=villa&min_price=1000';
    if (value.query !== undefined) {
      const type = pick(world.termsByTaxonomy.property_type, random);
      const city = pick(world.termsByTaxonomy.property_city, random);
      value.query = pick(
        [
          { keyword: 'villa' },
          { type: type.slug, min_price: 1000, max_price: 900000 },
          { city: [city.slug, String(city.id)], bedrooms: 2, sortby: 'a_price' },
          { latitude: 25.77, longitude: -80.19, radius: 25, radius_unit: 'km' },
          { feature: pick(world.termsByTaxonomy.property_feature, random).slug, include_sold: true, facets: 'type,price' },
        ],
        random,
      );
    }
  }
  // Notifications: exactly one target.
  if ('user_id' in properties && 'role' in properties && 'all' in properties) {
    const targets = ['user_id', 'role', 'all'].filter((key) => value[key] !== undefined);
    const keep = targets.length > 0 ? pick(targets, random) : 'user_id';
    for (const key of ['user_id', 'role', 'all']) if (key !== keep) delete value[key];
    if (keep === 'user_id' && value.user_id === undefined) value.user_id = pick(world.ids.user, random);
    if (keep === 'all') value.all = true;
  }
  // Checkout: a method for what is not free.
  if ('item' in properties && 'method' in properties && value.method === undefined && chance(random, 0.8)) {
    value.method = pick(['bank_transfer', 'stripe'], random);
  }
  // Listings: the featured image is one of the gallery's.
  if ('featured_image_id' in properties) {
    const gallery = Array.isArray(value.media_ids) ? (value.media_ids as unknown[]) : [];
    if (gallery.length > 0) value.featured_image_id = gallery[0];
    else delete value.featured_image_id;
    if (value.agency_id !== undefined && chance(random, 0.7)) delete value.agency_id;
  }
  // Terms: the fields each taxonomy takes, and a parent of the same taxonomy.
  const taxonomy = context.pathParams.taxonomy as Taxonomy | undefined;
  if (taxonomy && taxonomy in world.termsByTaxonomy && 'color' in properties) {
    if (taxonomy !== 'property_status' && taxonomy !== 'property_label') delete value.color;
    const place: Record<string, Taxonomy> = { country_id: 'property_state', state_id: 'property_city', city_id: 'property_area' };
    const parentOf: Record<string, Taxonomy> = { country_id: 'property_country', state_id: 'property_state', city_id: 'property_city' };
    for (const [key, takenBy] of Object.entries(place)) {
      if (taxonomy !== takenBy) delete value[key];
      else if (value[key] !== undefined) value[key] = pick(world.termsByTaxonomy[parentOf[key]!], random).id;
    }
    if (value.parent !== undefined) value.parent = chance(random, 0.5) ? 0 : pick(world.termsByTaxonomy[taxonomy], random).id;
    if (value.slug !== undefined) delete value.slug;
  }
  // A change names at least one field.
  const optional = Object.keys(properties).filter((key) => !(schema.required ?? []).includes(key));
  if (context.method === 'PUT' && Object.keys(value).length === 0 && optional.length > 0) {
    const key = pick(optional, random);
    value[key] = validValue(properties[key]!, { random, world, name: key });
  }
  return value;
}
