import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import type { TermLink } from '../../src/modules/properties/properties.repository.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { addFavorite, bearer, links, newListing, newTerm, newUser, tokenFor } from '../helpers/factories.js';
import { errorBody } from '../helpers/expectations.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

const idsOf = (res: LightMyRequestResponse): number[] => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.properties.map((p: { id: number }) => p.id);
};

interface Spot {
  types?: TermRecord[];
  country?: TermRecord;
  state?: TermRecord;
  city?: TermRecord;
  price?: number | null;
  status?: ListingState;
}

describeEachDialect('GET /properties/{id}/similar (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    seller = await newUser(db, { role: 'seller' });
  });
  afterAll(() => t.close());

  const similar = (id: number, query = '', auth: Auth = {}) =>
    t.app.inject({ method: 'GET', url: `${API}/properties/${id}/similar${query}`, headers: auth });
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(errorBody(code));
  };

  /** Fresh terms for one test, so that no other test's listings can match. */
  const world = async () => {
    const term = (taxonomy: Parameters<typeof newTerm>[1]) => newTerm(t.services.taxonomies, taxonomy);
    return {
      house: await term('property_type'),
      flat: await term('property_type'),
      country: await term('property_country'),
      otherCountry: await term('property_country'),
      state: await term('property_state'),
      otherState: await term('property_state'),
      city: await term('property_city'),
      otherCity: await term('property_city'),
    };
  };
  const listing = ({ types = [], country, state, city, price = null, status = 'publish' }: Spot) => {
    const terms: TermLink[] = [
      ...links('property_type', ...types),
      ...(country ? links('property_country', country) : []),
      ...(state ? links('property_state', state) : []),
      ...(city ? links('property_city', city) : []),
    ];
    return newListing(db, { status, price, terms, author_id: seller.id });
  };

  it('finds published listings of the same type, in the same city, within ±25 % of the price, nearest first', async () => {
    const w = await world();
    const here = { country: w.country, state: w.state, city: w.city };
    const base = await listing({ types: [w.house], ...here, price: 100_000 });
    const near = await listing({ types: [w.house], ...here, price: 90_000 });
    const above = await listing({ types: [w.house], ...here, price: 120_000 });
    const edgeHigh = await listing({ types: [w.house], ...here, price: 125_000 });
    const edgeLow = await listing({ types: [w.house], ...here, price: 75_000 });
    const exact = await listing({ types: [w.flat, w.house], ...here, price: 100_000 });
    // Left out: outside the band, another type, another city, not published, no price.
    await listing({ types: [w.house], ...here, price: 125_001 });
    await listing({ types: [w.house], ...here, price: 74_999 });
    await listing({ types: [w.flat], ...here, price: 100_000 });
    await listing({ types: [w.house], country: w.country, state: w.state, city: w.otherCity, price: 100_000 });
    for (const status of ['pending', 'draft', 'sold', 'on_hold', 'expired'] as const) {
      await listing({ types: [w.house], ...here, price: 100_000, status });
    }
    await listing({ types: [w.house], ...here, price: null });

    const res = await similar(base, '?limit=20');
    expect(Object.keys(res.json()).sort()).toEqual(['data', 'success']);
    expect(Object.keys(res.json().data)).toEqual(['properties']);
    // Equal distances (75 000 and 125 000): ids descending.
    expect(idsOf(res)).toEqual([exact, near, above, edgeLow, edgeHigh]);
    expect(idsOf(await similar(base))).toEqual([exact, near, above, edgeLow]);
    expect(idsOf(await similar(base, '?limit=2'))).toEqual([exact, near]);
    const summary = res.json().data.properties[0];
    expect(summary).toMatchObject({ id: exact, status: 'publish', is_favorite: false, price: 100_000 });
    expect(summary).not.toHaveProperty('description');
  });

  it('falls back to the same state when the listing has no city', async () => {
    const w = await world();
    const base = await listing({ types: [w.house], country: w.country, state: w.state, price: 100 });
    const inCity = await listing({ types: [w.house], country: w.country, state: w.state, city: w.city, price: 100 });
    const inOtherCity = await listing({ types: [w.house], country: w.country, state: w.state, city: w.otherCity, price: 100 });
    await listing({ types: [w.house], country: w.country, state: w.otherState, price: 100 });
    await listing({ types: [w.house], country: w.country, price: 100 });
    expect(idsOf(await similar(base))).toEqual([inOtherCity, inCity]);
  });

  it('falls back to the same country when the listing has neither city nor state', async () => {
    const w = await world();
    const base = await listing({ types: [w.house], country: w.country, price: 100 });
    const anyState = await listing({ types: [w.house], country: w.country, state: w.otherState, city: w.otherCity, price: 100 });
    const countryOnly = await listing({ types: [w.house], country: w.country, price: 100 });
    await listing({ types: [w.house], country: w.otherCountry, price: 100 });
    await listing({ types: [w.house], price: 100 });
    expect(idsOf(await similar(base))).toEqual([countryOnly, anyState]);
  });

  it('looks anywhere when the listing has no location, and at any price when it has none', async () => {
    const w = await world();
    const base = await listing({ types: [w.house] });
    const abroad = await listing({ types: [w.house], country: w.otherCountry, price: 5 });
    const nowhere = await listing({ types: [w.house], price: 5_000_000 });
    const unpriced = await listing({ types: [w.house] });
    await listing({ types: [w.flat] });
    expect(idsOf(await similar(base, '?limit=20'))).toEqual([unpriced, nowhere, abroad]);
  });

  it('matches any of the listing’s types, and nothing when it has none', async () => {
    const w = await world();
    const base = await listing({ types: [w.house, w.flat], city: w.city, price: 100 });
    const flat = await listing({ types: [w.flat], city: w.city, price: 100 });
    const house = await listing({ types: [w.house], city: w.city, price: 100 });
    expect(idsOf(await similar(base))).toEqual([house, flat]);
    const untyped = await listing({ city: w.city, price: 100 });
    expect(idsOf(await similar(untyped))).toEqual([]);
  });

  it('answers for any listing the caller may see, and 404 for the others', async () => {
    const w = await world();
    const pending = await listing({ types: [w.house], city: w.city, price: 100, status: 'pending' });
    const match = await listing({ types: [w.house], city: w.city, price: 100 });
    expectError(await similar(pending), 404, 'not_found');
    expectError(await similar(pending, '', bearer(await tokenFor(t.app, await newUser(db)))), 404, 'not_found');
    expect(idsOf(await similar(pending, '', bearer(await tokenFor(t.app, seller))))).toEqual([match]);
    const sold = await listing({ types: [w.house], city: w.city, price: 100, status: 'sold' });
    expect(idsOf(await similar(sold))).toEqual([match]);
    expectError(await similar(2_000_000_000), 404, 'not_found');
  });

  it('sets is_favorite for a signed-in caller', async () => {
    const w = await world();
    const base = await listing({ types: [w.house], city: w.city, price: 100 });
    const liked = await listing({ types: [w.house], city: w.city, price: 100 });
    const buyer = await newUser(db);
    await addFavorite(db, buyer.id, liked);
    const res = await similar(base, '', bearer(await tokenFor(t.app, buyer)));
    expect(res.json().data.properties).toEqual([expect.objectContaining({ id: liked, is_favorite: true })]);
  });

  it('refuses a limit outside 1–20, unknown parameters and bad ids with 400; a bad token with 401', async () => {
    const w = await world();
    const base = await listing({ types: [w.house], price: 100 });
    for (const query of ['?limit=0', '?limit=21', '?limit=two', '?limit=1.5', '?type=house']) {
      expectError(await similar(base, query), 400, 'validation_failed');
    }
    expectError(await similar(0), 400, 'validation_failed');
    expectError(await similar(base, '', { authorization: 'Bearer nonsense' }), 401, 'invalid_token');
  });
});
