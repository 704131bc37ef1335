import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, ListingState, NewListing, Taxonomy, UserRow } from '../../src/db/schema/index.js';
import { sortKey } from '../../src/lib/slug.js';
import type { TermLink } from '../../src/modules/properties/properties.repository.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { errorBody, pagination } from '../helpers/expectations.js';
import { addFavorite, bearer, links, newAgencyWithAgent, newAgent, newListing, newTerm, newUser, tokenFor } from '../helpers/factories.js';

/**
 * The search routes of docs/api.md 4.2 and 4.4 through HTTP, one app per dialect. Each group of listings has an
 * author (or agent, or agency) of its own that every search names (`user_id`), so that groups never see each
 * other's listings; published days are distinct where an order is asserted, equal where a tie is meant.
 */

const API = '/realty-api/v1';
type Auth = Record<string, string>;
type Summary = { id: number; is_favorite: boolean; distance?: number };

const HIDDEN_STATES: ListingState[] = ['draft', 'pending', 'on_hold', 'expired', 'disapproved'];
/** Paris, the centre of the geo searches; 1° of a meridian is 6371.0088 km × π / 180 = 111.195 km. */
const PARIS = 'latitude=48.8566&longitude=2.3522';

const day = (n: number) => new Date(Date.UTC(2026, 0, n)).toISOString();
const summariesOf = (res: LightMyRequestResponse): Summary[] => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.properties;
};
const idsOf = (res: LightMyRequestResponse) => summariesOf(res).map((p) => p.id);

type Spec = Partial<NewListing> & { status?: ListingState; terms?: TermLink[]; published?: number };

describeEachDialect('search routes (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  const get = (url: string, auth: Auth = {}, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `${API}${url}`, headers: { ...auth, ...headers } });
  const search = (query: string, auth?: Auth) => get(`/properties/search?${query}`, auth);
  const expectError = (res: LightMyRequestResponse, fields: string[]) => {
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body).toMatchObject(errorBody('validation_failed'));
    expect(body.request_id).toBe(res.headers['x-request-id']);
    expect(body.errors.map((error: { field: string }) => error.field)).toEqual(fields);
  };

  /** A listing of `author`; `published` is its day of first publication, `sort_title` follows the title. */
  const listing = (author: UserRow, { published = 1, title = 'A listing', status = 'publish', ...spec }: Spec = {}) =>
    newListing(db, { author_id: author.id, title, sort_title: sortKey(title), status, published_at: day(published), ...spec });
  const term = (taxonomy: Taxonomy, name: string) => newTerm(t.services.taxonomies, taxonomy, { name });

  let terms: Record<string, TermRecord>;
  /** The catalogue: five published listings of `seller` covering every term and range filter. */
  let seller: UserRow;
  let sunny: number, lake: number, cafe: number, villa: number, plot: number, sold: number;
  let hidden: number[];

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    terms = {};
    const names: [Taxonomy, string][] = [
      ['property_type', 'House'],
      ['property_type', 'Apartment'],
      ['property_type', 'Villa'],
      ['property_status', 'For sale'],
      ['property_status', 'For rent'],
      ['property_label', 'Hot'],
      ['property_label', 'New'],
      ['property_feature', 'Pool'],
      ['property_feature', 'Garden'],
      ['property_feature', 'Gym'],
      ['property_country', 'USA'],
      ['property_country', 'Spain'],
      ['property_state', 'Florida'],
      ['property_city', 'Miami'],
      ['property_city', 'Tampa'],
      ['property_city', 'Orlando'],
      ['property_area', 'Brickell'],
    ];
    for (const [taxonomy, name] of names) terms[sortKey(name).replace(/ /g, '-')] = await term(taxonomy, name);
    const T = terms;

    seller = await newUser(db, { role: 'seller' });
    sunny = await listing(seller, {
      published: 1,
      title: 'Sunny house',
      reference: 'R-100',
      price: 100_000,
      size: 120,
      land_size: 500,
      bedrooms: 3,
      bathrooms: 2,
      garage: 1,
      year_built: 1990,
      featured: 1,
      terms: [
        ...links('property_type', T.house!),
        ...links('property_status', T['for-sale']!),
        ...links('property_label', T.hot!),
        ...links('property_feature', T.pool!, T.garden!),
        ...links('property_country', T.usa!),
        ...links('property_state', T.florida!),
        ...links('property_city', T.miami!),
        ...links('property_area', T.brickell!),
      ],
    });
    lake = await listing(seller, {
      published: 2,
      title: 'Two houses by the lake',
      price: 250_000,
      size: 200,
      land_size: 1000,
      bedrooms: 4,
      bathrooms: 3,
      garage: 2,
      year_built: 2005,
      terms: [
        ...links('property_type', T.house!),
        ...links('property_status', T['for-rent']!),
        ...links('property_feature', T.pool!),
        ...links('property_country', T.usa!),
        ...links('property_state', T.florida!),
        ...links('property_city', T.tampa!),
      ],
    });
    cafe = await listing(seller, {
      published: 3,
      title: 'Apartment above the Café',
      price: 250_000,
      currency: 'EUR',
      size: 80,
      bedrooms: 2,
      bathrooms: 1,
      garage: 0,
      year_built: 2020,
      terms: [
        ...links('property_type', T.apartment!),
        ...links('property_status', T['for-sale']!),
        ...links('property_label', T.new!),
        ...links('property_feature', T.garden!),
        ...links('property_country', T.usa!),
        ...links('property_state', T.florida!),
        ...links('property_city', T.miami!),
      ],
    });
    villa = await listing(seller, {
      published: 4,
      title: 'Villa Élise',
      price: 1_000_000,
      currency: 'EUR',
      size: 400,
      land_size: 2000,
      bedrooms: 5,
      bathrooms: 4,
      garage: 3,
      year_built: 2015,
      featured: 1,
      terms: [
        ...links('property_type', T.villa!),
        ...links('property_label', T.hot!),
        ...links('property_feature', T.pool!, T.garden!, T.gym!),
        ...links('property_country', T.spain!),
      ],
    });
    plot = await listing(seller, { published: 5, title: 'Plain plot' });
    // Listings that match every filter of the catalogue tests by their terms and price, but are not published.
    const houseInMiami = [...links('property_type', T.house!), ...links('property_city', T.miami!)];
    sold = await listing(seller, { published: 0, status: 'sold', title: 'Sold house', price: 100_000, terms: houseInMiami });
    hidden = [];
    for (const status of HIDDEN_STATES)
      hidden.push(await listing(seller, { status, title: `${status} house`, price: 100_000, terms: houseInMiami }));
  });
  afterAll(() => t.close());

  const catalogue = async (query: string, auth?: Auth) => idsOf(await search(`user_id=${seller.id}&${query}`, auth));

  describe('filters', () => {
    it('by type, status and label (any of them), by slug or id', async () => {
      expect(await catalogue('')).toEqual([plot, villa, cafe, lake, sunny]);
      expect(await catalogue('type=house')).toEqual([lake, sunny]);
      expect(await catalogue('type=house,apartment')).toEqual([cafe, lake, sunny]);
      expect(await catalogue(`type=${terms.apartment!.id}`)).toEqual([cafe]);
      expect(await catalogue(`type=villa,${terms.apartment!.id}`)).toEqual([villa, cafe]);
      expect(await catalogue('status=for-rent')).toEqual([lake]);
      expect(await catalogue(`status=${terms['for-sale']!.id}`)).toEqual([cafe, sunny]);
      expect(await catalogue('label=hot')).toEqual([villa, sunny]);
      expect(await catalogue('label=hot,new')).toEqual([villa, cafe, sunny]);
      // A term of another taxonomy is not a type.
      expect(await catalogue(`type=${terms.pool!.id}`)).toEqual([]);
    });

    it('by feature: all of them', async () => {
      expect(await catalogue('feature=pool')).toEqual([villa, lake, sunny]);
      expect(await catalogue('feature=pool,garden')).toEqual([villa, sunny]);
      expect(await catalogue(`feature=pool,garden,${terms.gym!.id}`)).toEqual([villa]);
      expect(await catalogue('feature=pool,sauna')).toEqual([]);
    });

    it('by country, state, city and area, by slug or id; an unknown slug finds nothing', async () => {
      expect(await catalogue('country=usa')).toEqual([cafe, lake, sunny]);
      expect(await catalogue(`country=${terms.spain!.id}`)).toEqual([villa]);
      expect(await catalogue('state=florida')).toEqual([cafe, lake, sunny]);
      expect(await catalogue(`state=${terms.florida!.id}`)).toEqual([cafe, lake, sunny]);
      expect(await catalogue('city=miami')).toEqual([cafe, sunny]);
      expect(await catalogue(`city=${terms.tampa!.id}`)).toEqual([lake]);
      expect(await catalogue('city=miami,tampa')).toEqual([cafe, lake, sunny]);
      expect(await catalogue('area=brickell')).toEqual([sunny]);
      expect(await catalogue(`area=${terms.brickell!.id}`)).toEqual([sunny]);
      expect(await catalogue('city=orlando')).toEqual([]);
      const unknown = await search(`user_id=${seller.id}&city=atlantis`);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual({ success: true, data: { properties: [], pagination: pagination(0, 1, 10) } });
    });

    it('by price, inclusive, and currency', async () => {
      expect(await catalogue('min_price=100000&max_price=250000')).toEqual([cafe, lake, sunny]);
      expect(await catalogue('min_price=100000.01&max_price=249999.99')).toEqual([]);
      expect(await catalogue('min_price=250000')).toEqual([villa, cafe, lake]);
      expect(await catalogue('max_price=100000')).toEqual([sunny]);
      expect(await catalogue('min_price=100000&max_price=250000&currency=eur')).toEqual([cafe]);
      expect(await catalogue('currency=USD')).toEqual([plot, lake, sunny]);
    });

    it('by size and land size, inclusive', async () => {
      expect(await catalogue('min_size=120&max_size=200')).toEqual([lake, sunny]);
      expect(await catalogue('max_size=80')).toEqual([cafe]);
      expect(await catalogue('min_land_size=1000')).toEqual([villa, lake]);
      expect(await catalogue('max_land_size=500')).toEqual([sunny]);
    });

    it('by bedrooms and bathrooms, exact or ranges; garage minimum; year built', async () => {
      expect(await catalogue('bedrooms=3')).toEqual([sunny]);
      expect(await catalogue('min_beds=3&max_beds=4')).toEqual([lake, sunny]);
      expect(await catalogue('min_beds=4')).toEqual([villa, lake]);
      expect(await catalogue('max_beds=2')).toEqual([cafe]);
      expect(await catalogue('bathrooms=1')).toEqual([cafe]);
      expect(await catalogue('min_baths=3')).toEqual([villa, lake]);
      expect(await catalogue('max_baths=2')).toEqual([cafe, sunny]);
      expect(await catalogue('garage=2')).toEqual([villa, lake]);
      expect(await catalogue('garage=1')).toEqual([villa, lake, sunny]);
      expect(await catalogue('min_year_built=2005&max_year_built=2015')).toEqual([villa, lake]);
      expect(await catalogue('max_year_built=1990')).toEqual([sunny]);
    });

    it('by featured, ids and reference', async () => {
      expect(await catalogue('featured=true')).toEqual([villa, sunny]);
      expect(await catalogue('featured=false')).toEqual([plot, villa, cafe, lake, sunny]);
      expect(await catalogue(`ids=${sunny},${cafe},${hidden[0]},2147483647`)).toEqual([cafe, sunny]);
      expect(await catalogue('reference=R-100')).toEqual([sunny]);
      expect(await catalogue('reference=R-10')).toEqual([]);
    });

    it('by user, agent and agency (its own listings and its agents’)', async () => {
      const { agencyId, agentId } = await newAgencyWithAgent(db);
      const otherAgent = await newAgent(db);
      const author = await newUser(db, { role: 'agent' });
      const own = await listing(author, { published: 1, agency_id: agencyId });
      const agents = await listing(author, { published: 2 });
      const others = await listing(author, { published: 3 });
      await db
        .insertInto('listing_agents')
        .values([
          { listing_id: agents, agent_id: agentId, position: 0 },
          { listing_id: others, agent_id: otherAgent, position: 0 },
        ])
        .execute();
      expect(idsOf(await search(`user_id=${author.id}`))).toEqual([others, agents, own]);
      expect(idsOf(await search(`agency_id=${agencyId}`))).toEqual([agents, own]);
      expect(idsOf(await search(`agent_id=${agentId}`))).toEqual([agents]);
      expect(idsOf(await search(`agent_id=${otherAgent}&user_id=${author.id}`))).toEqual([others]);
      expect(idsOf(await search(`agent_id=${otherAgent}&user_id=${seller.id}`))).toEqual([]);
    });

    it('sold listings only with include_sold, other states never, whoever asks', async () => {
      const admin = bearer(await tokenFor(t.app, await newUser(db, { role: 'administrator' })));
      const owner = bearer(await tokenFor(t.app, seller));
      for (const auth of [undefined, owner, admin]) {
        expect(await catalogue('type=house', auth)).toEqual([lake, sunny]);
        expect(await catalogue('type=house&include_sold=false', auth)).toEqual([lake, sunny]);
        expect(await catalogue('type=house&include_sold=true', auth)).toEqual([lake, sunny, sold]);
        expect(await catalogue('include_sold=true&max_price=100000&sortby=a_date', auth)).toEqual([sold, sunny]);
        expect(await catalogue(`include_sold=true&ids=${hidden.join(',')}`, auth)).toEqual([]);
      }
    });
  });

  describe('keyword', () => {
    it('stems, folds accents and case, and needs every word', async () => {
      expect(await catalogue('keyword=houses')).toEqual([lake, sunny]);
      expect(await catalogue('keyword=house')).toEqual([lake, sunny]);
      expect(await catalogue('keyword=CAFE')).toEqual([cafe]);
      expect(await catalogue('keyword=élise')).toEqual([villa]);
      expect(await catalogue('keyword=sunny%20houses')).toEqual([sunny]);
      expect(await catalogue('keyword=sunny%20lake')).toEqual([]);
      expect(await catalogue('keyword=r-100')).toEqual([sunny]);
    });

    it('ranks an exact reference first, then title words, then the newest (relevance, the default)', async () => {
      const author = await newUser(db, { role: 'seller' });
      const inTitle = await listing(author, { published: 3, title: 'Lake view GH 7', reference: 'X-1' });
      const byReference = await listing(author, { published: 1, title: 'Quiet flat', reference: 'GH-7' });
      const halfTitle = await listing(author, { published: 2, title: 'GH flat', description: '<p>7 rooms</p>' });
      const elsewhere = await listing(author, { published: 4, title: 'Flat', description: '<p>GH 7</p>' });
      await listing(author, { published: 5, title: 'GH only' });
      const keyword = `user_id=${author.id}&keyword=GH-7`;
      expect(idsOf(await search(keyword))).toEqual([byReference, inTitle, halfTitle, elsewhere]);
      expect(idsOf(await search(`${keyword}&sortby=relevance`))).toEqual([byReference, inTitle, halfTitle, elsewhere]);
      expect(idsOf(await search(`${keyword}&sortby=d_date`))).toEqual([elsewhere, inTitle, halfTitle, byReference]);
    });
  });

  describe('geo', () => {
    let mapper: UserRow;
    let near: number, mid: number, west: number, far: number, nowhere: number, suva: number, overTheLine: number, vanuatu: number;
    beforeAll(async () => {
      mapper = await newUser(db, { role: 'seller' });
      const at = (published: number, latitude: number | null, longitude: number | null) =>
        listing(mapper, { published, latitude, longitude });
      near = await at(1, 48.8666, 2.3522); // 0.01° north of Paris: 1.112 km
      mid = await at(2, 48.9066, 2.3522); // 0.05°: 5.560 km
      west = await at(3, 48.95, 2.21); // 14.693 km, inside the box, outside the triangle
      far = await at(4, 49.8566, 2.3522); // 1°: 111.195 km
      nowhere = await at(5, null, null);
      suva = await at(6, -18.14, 178.44);
      overTheLine = await at(7, -17.9, -179.8);
      vanuatu = await at(8, -17.7, 168.3);
    });
    const located = async (query: string) => summariesOf(await search(`user_id=${mapper.id}&${query}`)).map((p) => [p.id, p.distance]);

    it('within a radius in km or mi, each result with its distance in that unit', async () => {
      expect(await located(`${PARIS}&radius=6`)).toEqual([
        [mid, 5.56],
        [near, 1.112],
      ]);
      expect(await located(`${PARIS}&radius=5`)).toEqual([[near, 1.112]]);
      expect(await located(`${PARIS}&radius=5&radius_unit=km`)).toEqual([[near, 1.112]]);
      expect(await located(`${PARIS}&radius=5&radius_unit=mi`)).toEqual([
        [mid, 3.455],
        [near, 0.691],
      ]);
      expect(await located(`${PARIS}&radius=200`)).toEqual([
        [far, 111.195],
        [west, 14.693],
        [mid, 5.56],
        [near, 1.112],
      ]);
      const farKm = (await located(`${PARIS}&radius=112&ids=${far}`))[0]?.[1];
      expect(farKm).toBeCloseTo((6371.0088 * Math.PI) / 180, 2);
      const farMi = (await located(`${PARIS}&radius=70&radius_unit=mi&ids=${far}`))[0]?.[1];
      expect(farMi).toBeCloseTo((6371.0088 * Math.PI) / 180 / 1.609344, 2);
    });

    it('sorts by distance, listings without coordinates last; a centre alone filters nothing', async () => {
      expect(await located(`${PARIS}&sortby=distance&ids=${[near, mid, west, far, nowhere].join(',')}`)).toEqual([
        [near, 1.112],
        [mid, 5.56],
        [west, 14.693],
        [far, 111.195],
        [nowhere, undefined],
      ]);
      const all = summariesOf(await search(`user_id=${mapper.id}&${PARIS}&sortby=distance`));
      expect(all.map((p) => p.id)).toEqual([near, mid, west, far, vanuatu, overTheLine, suva, nowhere]);
      expect(all.at(-1)).not.toHaveProperty('distance');
      expect(summariesOf(await search(`user_id=${mapper.id}`)).every((p) => !('distance' in p))).toBe(true);
    });

    it('inside a box, also across the antimeridian, and inside a polygon', async () => {
      expect(await located('ne_lat=49&ne_lng=2.5&sw_lat=48.8&sw_lng=2.2')).toEqual([
        [west, undefined],
        [mid, undefined],
        [near, undefined],
      ]);
      expect((await located('ne_lat=-17&ne_lng=-179.5&sw_lat=-19&sw_lng=178')).map(([id]) => id)).toEqual([overTheLine, suva]);
      expect((await located('ne_lat=-17&ne_lng=-179.5&sw_lat=-19&sw_lng=168')).map(([id]) => id)).toEqual([vanuatu, overTheLine, suva]);
      expect((await located('ne_lat=-17&ne_lng=180&sw_lat=-19&sw_lng=178')).map(([id]) => id)).toEqual([suva]);
      expect((await located('polygon=48.8%202.2,49%202.35,48.8%202.5')).map(([id]) => id)).toEqual([mid, near]);
      // The ring closes by itself; a closing vertex is the same polygon.
      expect((await located('polygon=48.8%202.2,49%202.35,48.8%202.5,48.8%202.2')).map(([id]) => id)).toEqual([mid, near]);
    });
  });

  describe('aliases and array forms', () => {
    it('read as their canonical parameters', async () => {
      expect(await catalogue('min-price=100000&max-price=100000')).toEqual([sunny]);
      expect(await catalogue('min-area=200&max-area=400')).toEqual([villa, lake]);
      expect(await catalogue('min-beds=4')).toEqual([villa, lake]);
      expect(await catalogue('max-beds=2')).toEqual([cafe]);
      expect(await catalogue('min-baths=3')).toEqual([villa, lake]);
      expect(await catalogue('max-baths=1')).toEqual([cafe]);
      expect(await catalogue('location=miami')).toEqual([cafe, sunny]);
      expect(await catalogue('areas=brickell')).toEqual([sunny]);
      expect(await catalogue('states=florida')).toEqual([cafe, lake, sunny]);
      expect(await catalogue('type[]=house&type[]=villa')).toEqual([villa, lake, sunny]);
      expect(await catalogue('type=house&type=villa')).toEqual([villa, lake, sunny]);
      expect(await catalogue('feature[]=pool&feature[]=garden')).toEqual([villa, sunny]);
      expect(await catalogue('min_price=1&min-price=1')).toEqual([villa, cafe, lake, sunny]);
      const paged = await search(`user_id=${seller.id}&paged=2&per_page=2`);
      expect(idsOf(paged)).toEqual([cafe, lake]);
      expect(paged.json().data.pagination).toEqual(pagination(5, 2, 2));
    });

    it('lat and lng are the centre', async () => {
      const geo = await search('lat=48.8566&lng=2.3522&radius=1000&sortby=distance&per_page=1');
      expect(summariesOf(geo)[0]).toMatchObject({ distance: 1.112 });
    });
  });

  describe('sortby', () => {
    it('orders every way, ties by id descending, missing values last', async () => {
      const author = await newUser(db, { role: 'seller' });
      const tied = { description: '<p>tied</p>' };
      const beta = await listing(author, { ...tied, title: 'Beta', price: 200, size: 50, published: 2, latitude: 10.02, longitude: 10 });
      const alpha = await listing(author, {
        ...tied,
        title: 'alpha',
        price: 100,
        featured: 1,
        published: 2,
        latitude: 10.01,
        longitude: 10,
      });
      const betaTwin = await listing(author, {
        ...tied,
        title: 'Béta',
        price: 200,
        size: 50,
        published: 3,
        latitude: 10.02,
        longitude: 10,
      });
      const gamma = await listing(author, { ...tied, title: 'Gamma', size: 80, featured: 1, published: 1 });
      const delta = await listing(author, {
        ...tied,
        title: 'Delta',
        price: 300,
        size: 50,
        featured: 1,
        published: 2,
        latitude: 10.03,
        longitude: 10,
      });
      const sorted = async (sortby: string, extra = '') => idsOf(await search(`user_id=${author.id}&sortby=${sortby}${extra}`));
      expect(await sorted('d_date')).toEqual([betaTwin, delta, alpha, beta, gamma]);
      expect(await sorted('a_date')).toEqual([gamma, delta, alpha, beta, betaTwin]);
      expect(await sorted('a_price')).toEqual([alpha, betaTwin, beta, delta, gamma]);
      expect(await sorted('d_price')).toEqual([delta, betaTwin, beta, alpha, gamma]);
      expect(await sorted('a_title')).toEqual([alpha, betaTwin, beta, delta, gamma]);
      expect(await sorted('d_title')).toEqual([gamma, delta, betaTwin, beta, alpha]);
      expect(await sorted('a_size')).toEqual([delta, betaTwin, beta, gamma, alpha]);
      expect(await sorted('d_size')).toEqual([gamma, delta, betaTwin, beta, alpha]);
      expect(await sorted('featured_first')).toEqual([delta, alpha, gamma, betaTwin, beta]);
      expect(await sorted('distance', '&latitude=10&longitude=10')).toEqual([alpha, betaTwin, beta, delta, gamma]);
      expect(await sorted('relevance', '&keyword=tied')).toEqual([betaTwin, delta, alpha, beta, gamma]);
      expect(idsOf(await search(`user_id=${author.id}`))).toEqual(await sorted('d_date'));
    });
  });

  describe('facets', () => {
    let owner: UserRow;
    beforeAll(async () => {
      owner = await newUser(db, { role: 'seller' });
      const T = terms;
      const place = (
        type: TermRecord,
        city: TermRecord,
        bedrooms: number | null,
        bathrooms: number,
        price: number,
        features: TermRecord[] = [],
      ) =>
        listing(owner, {
          bedrooms,
          bathrooms,
          price,
          terms: [...links('property_type', type), ...links('property_city', city), ...links('property_feature', ...features)],
        });
      await place(T.house!, T.miami!, 2, 1, 100, [T.pool!]);
      await place(T.house!, T.tampa!, 3, 2, 150, [T.pool!, T.gym!]);
      await place(T.villa!, T.miami!, 3, 2, 200);
      await place(T.apartment!, T.miami!, 2, 1, 900);
      await place(T.villa!, T.tampa!, null, 2, 1000);
      await place(T.villa!, T.miami!, 4, 3, 500);
      await place(T.house!, T.tampa!, 2, 1, 150);
    });
    const facetsOf = async (query: string) => {
      const res = await search(`user_id=${owner.id}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.facets;
    };
    const facet = (value: unknown, name: string, count: number) => ({ value, name, count });
    /** A range of the price facet: its prices in one currency (USD, the default) and of one status (none here). */
    const range = (min: number, max: number, count: number, currency = 'USD', status: string | null = null) =>
      facet({ min, max, currency, status }, `${min}–${max} ${currency}`, count);
    const ALL_PRICES = [range(100, 200, 3), range(900, 1000, 2), range(200, 300, 1), range(500, 600, 1)];

    it('count each facet without its own filter, every other filter applied, by count descending', async () => {
      const facets = await facetsOf(
        'type=house&city=miami&facets=type,city,feature,bedrooms,bathrooms,price,status,label,country,state,area',
      );
      expect(facets).toEqual({
        type: [facet('villa', 'Villa', 2), facet('apartment', 'Apartment', 1), facet('house', 'House', 1)],
        city: [facet('tampa', 'Tampa', 2), facet('miami', 'Miami', 1)],
        feature: [facet('pool', 'Pool', 1)],
        bedrooms: [facet(2, '2', 1)],
        bathrooms: [facet(1, '1', 1)],
        price: [range(100, 100, 1)],
        status: [],
        label: [],
        country: [],
        state: [],
        area: [],
      });
      const res = await search(`user_id=${owner.id}&type=house&city=miami&facets=type`);
      expect(res.json().data.properties).toHaveLength(1);
      expect(Object.keys(res.json().data).sort()).toEqual(['facets', 'pagination', 'properties']);
    });

    it('leave zero counts out and fit price ranges to the results, the highest holding its max', async () => {
      expect(await facetsOf('facets=bedrooms,bathrooms,price')).toEqual({
        bedrooms: [facet(2, '2', 3), facet(3, '3', 2), facet(4, '4', 1)],
        bathrooms: [facet(1, '1', 3), facet(2, '2', 3), facet(3, '3', 1)],
        price: ALL_PRICES,
      });
      // The price facet ignores the price filter; the others apply it.
      const priced = await facetsOf('min_price=150&facets=price,bedrooms');
      expect(priced.price).toEqual(ALL_PRICES);
      expect(priced.bedrooms).toEqual([facet(2, '2', 2), facet(3, '3', 2), facet(4, '4', 1)]);
      expect(await facetsOf('facets=feature')).toEqual({ feature: [facet('pool', 'Pool', 2), facet('gym', 'Gym', 1)] });
      expect(await facetsOf('city=orlando&facets=type,price')).toEqual({ type: [], price: [] });
    });

    it('count currencies without the currency filter, and price ranges within it', async () => {
      const abroad = await newUser(db, { role: 'seller' });
      await listing(abroad, { price: 300, currency: 'EUR', bedrooms: 2 });
      await listing(abroad, { price: 400, currency: 'EUR', bedrooms: 3 });
      await listing(abroad, { price: 5000, currency: 'USD', bedrooms: 2 });
      await listing(abroad, { price: null, currency: 'USD' });
      const facetsAbroad = async (query: string) => (await search(`user_id=${abroad.id}&${query}`)).json().data.facets;
      expect(await facetsAbroad('facets=currency')).toEqual({ currency: [facet('EUR', 'EUR', 2), facet('USD', 'USD', 2)] });
      // The currency facet leaves out its own filter; the price facet applies it, so its ranges never mix currencies.
      expect(await facetsAbroad('currency=eur&bedrooms=2&facets=currency,price')).toEqual({
        currency: [facet('EUR', 'EUR', 1), facet('USD', 'USD', 1)],
        price: [range(300, 300, 1, 'EUR')],
      });
      expect(await facetsAbroad('currency=EUR&facets=price')).toEqual({
        price: [range(300, 310, 1, 'EUR'), range(390, 400, 1, 'EUR')],
      });
      // A search naming no currency gets the site's default (USD): the euro prices are not added in.
      expect(await facetsAbroad('facets=price')).toEqual({ price: [range(5000, 5000, 1)] });
    });

    it('range the prices of one status, never sale and rent prices together', async () => {
      const landlord = await newUser(db, { role: 'seller' });
      const [sale, rent] = [terms['for-sale']!, terms['for-rent']!];
      for (const price of [200_000, 250_000, 400_000]) await listing(landlord, { price, terms: links('property_status', sale) });
      for (const price of [1_500, 2_000]) await listing(landlord, { price, terms: links('property_status', rent) });
      await listing(landlord, { price: 900, terms: [] }); // no status: in neither market's ranges
      const facetsOf = async (query: string) => (await search(`user_id=${landlord.id}&${query}`)).json().data.facets;
      // No status named: the one most priced listings have (for sale, 3 of 5).
      expect(await facetsOf('facets=price')).toEqual({
        price: [
          range(200_000, 220_000, 1, 'USD', 'for-sale'),
          range(240_000, 260_000, 1, 'USD', 'for-sale'),
          range(380_000, 400_000, 1, 'USD', 'for-sale'),
        ],
      });
      // A status named: its prices alone, whatever the other's share.
      expect(await facetsOf('status=for-rent&facets=price')).toEqual({
        price: [range(1_500, 1_550, 1, 'USD', 'for-rent'), range(1_950, 2_000, 1, 'USD', 'for-rent')],
      });
      // Two named: the commonest of them; on a tie, the first slug (for-rent before for-sale).
      const statusesOf = async (query: string) => [
        ...new Set((await facetsOf(query)).price.map((c: { value: { status: string } }) => c.value.status)),
      ];
      expect(await statusesOf('status=for-rent,for-sale&facets=price')).toEqual(['for-sale']);
      await listing(landlord, { price: 2_500, terms: links('property_status', rent) });
      expect(await statusesOf('status=for-rent,for-sale&facets=price')).toEqual(['for-rent']);
    });

    it('count statuses, labels, countries, states and areas by slug', async () => {
      const res = await search(`user_id=${seller.id}&label=hot&facets=status,label,country,state,area`);
      expect(idsOf(res)).toEqual([villa, sunny]);
      expect(res.json().data.facets).toEqual({
        status: [facet('for-sale', 'For sale', 1)],
        label: [facet('hot', 'Hot', 2), facet('new', 'New', 1)],
        country: [facet('spain', 'Spain', 1), facet('usa', 'USA', 1)],
        state: [facet('florida', 'Florida', 1)],
        area: [facet('brickell', 'Brickell', 1)],
      });
    });
  });

  describe('errors', () => {
    it('refuse unknown parameters and values out of range, naming the field', async () => {
      expectError(await search('colour=red'), ['colour']);
      expectError(await search('min_price=-1'), ['min_price']);
      expectError(await search('latitude=91&longitude=0'), ['latitude']);
      expectError(await search('per_page=101'), ['per_page']);
      expectError(await search('per_page=0'), ['per_page']);
      expectError(await search('page=0'), ['page']);
      expectError(await search('bedrooms=1.5'), ['bedrooms']);
      expectError(await search('min_year_built=999'), ['min_year_built']);
      expectError(await search('featured=maybe'), ['featured']);
      expectError(await search('sortby=nearest'), ['sortby']);
      expectError(await search('facets=colour'), ['facets']);
      expectError(await search('type=two%20words'), ['type']);
      expectError(await search(`ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`), ['ids']);
      expectError(await search('polygon=1%201,2%202'), ['polygon']);
      expectError(await search(`${PARIS}&radius=0`), ['radius']);
      expectError(await search(`${PARIS}&radius=20001`), ['radius']);
      expectError(await search(`${PARIS}&radius=12428&radius_unit=mi`), ['radius']);
      expectError(await search('min_price=10&max_price=5'), ['min_price']);
      expectError(await search('bedrooms=2&min_beds=1'), ['min_beds']);
      expectError(await search('min_price=1&min-price=2'), ['min-price']);
      expectError(await search('ne_lat=10&ne_lng=10'), ['sw_lat', 'sw_lng']);
      // `lang` is accepted everywhere.
      expect((await search('lang=fr')).statusCode).toBe(200);
    });

    it('refuse a radius, a distance order or a unit without a centre, and relevance without a keyword', async () => {
      expectError(await search('radius=5'), ['latitude', 'longitude']);
      expectError(await search('latitude=48&radius=5'), ['longitude']);
      expectError(await search('sortby=distance'), ['latitude', 'longitude']);
      expectError(await search('radius_unit=mi'), ['latitude']);
      expectError(await search('sortby=relevance'), ['keyword']);
      expectError(await search('sortby=relevance&keyword=%20'), ['keyword']);
    });
  });

  describe('paging and caching', () => {
    it('gives true figures on every page, and past the last one an empty list', async () => {
      const page = async (n: number) => {
        const res = await search(`user_id=${seller.id}&per_page=2&page=${n}`);
        return { ids: idsOf(res), pagination: res.json().data.pagination };
      };
      expect(await page(1)).toEqual({ ids: [plot, villa], pagination: pagination(5, 1, 2) });
      expect(await page(3)).toEqual({ ids: [sunny], pagination: pagination(5, 3, 2) });
      expect(await page(4)).toEqual({ ids: [], pagination: pagination(5, 4, 2) });
      const res = await search(`user_id=${seller.id}&type=house`);
      expect(res.json().data.pagination).toEqual(pagination(2, 1, 10));
      // One type by price is read from the term rows alone (search.repository.ts), which count on their own way.
      const byPrice = (page: number) => search(`type=house&sortby=a_price&per_page=1&page=${page}`);
      const total = (await byPrice(1)).json().data.pagination.total_records;
      expect(total).toBeGreaterThanOrEqual(2);
      expect((await byPrice(total)).json().data.pagination).toEqual(pagination(total, total, 1));
      const past = await byPrice(total + 1);
      expect(idsOf(past)).toEqual([]);
      expect(past.json().data.pagination).toEqual(pagination(total, total + 1, 1));
    });

    it('follows terms created and renamed after a search named them (term ids are kept per terms stamp)', async () => {
      const islander = await newUser(db, { role: 'seller' });
      const islands = async (query: string) => idsOf(await search(`user_id=${islander.id}&${query}`));
      expect(await islands('city=atlantis')).toEqual([]);
      const atlantis = await term('property_city', 'Atlantis');
      const home = await listing(islander, { title: 'Island home', terms: links('property_city', atlantis) });
      expect(await islands('city=atlantis')).toEqual([home]);
      const admin = bearer(await tokenFor(t.app, await newUser(db, { role: 'administrator' })));
      const renamed = await t.app.inject({
        method: 'PUT',
        url: `${API}/terms/property_city/${atlantis.id}`,
        headers: admin,
        payload: { slug: 'atlantida' },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(await islands('city=atlantis')).toEqual([]);
      expect(await islands('city=atlantida')).toEqual([home]);
    });

    it('marks favorites for a signed-in caller privately; anonymous answers are shared with an ETag', async () => {
      const buyer = await newUser(db);
      await addFavorite(db, buyer.id, sunny);
      const query = `user_id=${seller.id}&type=house`;
      const mine = await search(query, bearer(await tokenFor(t.app, buyer)));
      expect(summariesOf(mine).map((p) => [p.id, p.is_favorite])).toEqual([
        [lake, false],
        [sunny, true],
      ]);
      expect(mine.headers['cache-control']).toBe('private, no-cache');
      expect(mine.headers.etag).toBeUndefined();

      const anonymous = await search(query);
      expect(summariesOf(anonymous).map((p) => [p.id, p.is_favorite])).toEqual([
        [lake, false],
        [sunny, false],
      ]);
      expect(anonymous.headers['cache-control']).toBe('public, no-cache');
      const etag = anonymous.headers.etag as string;
      expect(etag).toMatch(/^W\/"/);
      const again = await get(`/properties/search?${query}`, {}, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });
  });

  describe('GET /properties', () => {
    it('without parameters answers the plain published list, newest first', async () => {
      const published = await db
        .selectFrom('listings')
        .select('id')
        .where('status', '=', 'publish')
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const res = await get('/properties');
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json().data).sort()).toEqual(['pagination', 'properties']);
      expect(idsOf(res)).toEqual(published.slice(0, 10).map((row) => row.id));
      expect(res.json().data.pagination).toEqual(pagination(published.length, 1, 10));
      // The same listings and figures as the search path (facets make it one), in every list order.
      for (const query of ['per_page=100', 'per_page=100&sortby=a_price', 'per_page=7&page=2&sortby=a_title']) {
        const plain = (await get(`/properties?${query}`)).json().data;
        const searched = (await search(`${query}&facets=type`)).json().data;
        expect(plain.properties).toEqual(searched.properties);
        expect(plain.pagination).toEqual(searched.pagination);
      }
    });

    it('takes every search parameter', async () => {
      expect(idsOf(await get(`/properties?user_id=${seller.id}&type=house`))).toEqual([lake, sunny]);
      expect(idsOf(await get(`/properties?user_id=${seller.id}&keyword=houses&sortby=a_date`))).toEqual([sunny, lake]);
      expectError(await get('/properties?colour=red'), ['colour']);
    });
  });

  describe('GET /agents/{id}/properties and /agencies/{id}/properties', () => {
    it('search only the owner’s listings; a hidden agent is still 404', async () => {
      const { agencyId, agentId } = await newAgencyWithAgent(db);
      const author = await newUser(db, { role: 'agent' });
      const T = terms;
      const own = await listing(author, { published: 1, agency_id: agencyId, price: 100, terms: links('property_type', T.house!) });
      const agents = await listing(author, { published: 2, price: 300, terms: links('property_type', T.villa!) });
      const outside = await listing(author, { published: 3, price: 100, terms: links('property_type', T.house!) });
      await db.insertInto('listing_agents').values({ listing_id: agents, agent_id: agentId, position: 0 }).execute();
      expect(idsOf(await search(`user_id=${author.id}&type=house`))).toEqual([outside, own]);

      expect(idsOf(await get(`/agencies/${agencyId}/properties?type=house`))).toEqual([own]);
      expect(idsOf(await get(`/agencies/${agencyId}/properties?type=house,villa&sortby=d_price`))).toEqual([agents, own]);
      expect(idsOf(await get(`/agencies/${agencyId}/properties?max-price=100`))).toEqual([own]);
      expect(idsOf(await get(`/agents/${agentId}/properties?type=house`))).toEqual([]);
      expect(idsOf(await get(`/agents/${agentId}/properties?type[]=villa&min_price=300`))).toEqual([agents]);
      const faceted = (await get(`/agencies/${agencyId}/properties?type=house&facets=type`)).json().data;
      expect(faceted.facets).toEqual({
        type: [
          { value: 'house', name: 'House', count: 1 },
          { value: 'villa', name: 'Villa', count: 1 },
        ],
      });
      expectError(await get(`/agencies/${agencyId}/properties?colour=red`), ['colour']);
      expectError(await get(`/agents/${agentId}/properties?sortby=distance`), ['latitude', 'longitude']);

      const hiddenAgent = await newAgent(db, { agency_id: agencyId, visible: 0 });
      await db.insertInto('listing_agents').values({ listing_id: own, agent_id: hiddenAgent, position: 1 }).execute();
      for (const query of ['', '?type=house']) {
        const res = await get(`/agents/${hiddenAgent}/properties${query}`);
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toMatchObject(errorBody('not_found'));
      }
      expect((await get(`/agencies/999999/properties?type=house`)).statusCode).toBe(404);
    });
  });
});
