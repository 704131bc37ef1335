import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, links, newListing, newTerm, newUser, tokenFor } from '../helpers/factories.js';

const API = '/realty-api/v1';
type Json = Record<string, unknown>;

// issue 40 item 4: the listing editor's map goes to the chosen place, so each place has a centre.
describeEachDialect('the centre of a place (%s)', (dialect) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let seller: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'administrator' })));
    seller = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'seller' })));
  });
  afterAll(() => t.close());

  const post = (taxonomy: string, payload: Json, headers = admin) =>
    t.app.inject({ method: 'POST', url: `${API}/terms/${taxonomy}`, headers, payload });
  const put = (taxonomy: string, id: number, payload: Json, headers = admin) =>
    t.app.inject({ method: 'PUT', url: `${API}/terms/${taxonomy}/${id}`, headers, payload });
  const get = (taxonomy: string, id: number) => t.app.inject({ method: 'GET', url: `${API}/terms/${taxonomy}/${id}` });

  it('is set by an administrator, both coordinates or neither, on places only', async () => {
    const created = await post('property_city', { name: 'Nerja', latitude: 36.7469, longitude: -3.8779 });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as number;
    expect(created.json().data.center).toEqual({ latitude: 36.7469, longitude: -3.8779 });
    // The lists carry a centre that was set.
    const listed = (await t.app.inject({ method: 'GET', url: `${API}/property-cities?include=${id}` })).json().data.cities;
    expect(listed[0].center).toEqual({ latitude: 36.7469, longitude: -3.8779 });

    const halfField = (res: { statusCode: number; json(): Json }) => [
      res.statusCode,
      (res.json().errors as { field: string }[])?.[0]?.field,
    ];
    expect(halfField(await post('property_city', { name: 'Half', latitude: 10 }))).toEqual([400, 'longitude']);
    expect(halfField(await put('property_city', id, { longitude: 10 }))).toEqual([400, 'latitude']);
    expect(halfField(await post('property_type', { name: 'Centred type', latitude: 1, longitude: 2 }))).toEqual([400, 'latitude']);
    expect((await post('property_city', { name: 'Off the map', latitude: 91, longitude: 0 })).statusCode).toBe(400);
    expect((await put('property_city', id, { latitude: 1, longitude: 2 }, seller)).statusCode).toBe(403);
    expect((await get('property_city', id)).json().data.center).toEqual({ latitude: 36.7469, longitude: -3.8779 });
  });

  it('is otherwise the mean position of its published listings, absent without any', async () => {
    const db = t.database.db;
    const city = await newTerm(t.services.taxonomies, 'property_city');
    expect((await get('property_city', city.id)).json().data).not.toHaveProperty('center');
    await newListing(db, { latitude: 10, longitude: 20, terms: links('property_city', city) });
    await newListing(db, { latitude: 12, longitude: 24, terms: links('property_city', city) });
    // Neither a draft nor a listing without a position moves it.
    await newListing(db, { status: 'draft', latitude: 80, longitude: 80, terms: links('property_city', city) });
    await newListing(db, { terms: links('property_city', city) });
    const res = await get('property_city', city.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.center).toEqual({ latitude: 11, longitude: 22 });
    // The lists do not compute it: a pass over every city's listings on each list.
    const listed = (await t.app.inject({ method: 'GET', url: `${API}/property-cities?include=${city.id}` })).json().data.cities;
    expect(listed[0]).not.toHaveProperty('center');

    // Set, it wins; cleared (both null), the listings' mean is back.
    expect((await put('property_city', city.id, { latitude: 1.5, longitude: 2.5 })).json().data.center).toEqual({
      latitude: 1.5,
      longitude: 2.5,
    });
    expect((await put('property_city', city.id, { latitude: null, longitude: null })).json().data).not.toHaveProperty('center');
    expect((await get('property_city', city.id)).json().data.center).toEqual({ latitude: 11, longitude: 22 });
  });

  it('answers 404 for an unknown term or one of another taxonomy, and no centre for a term that is no place', async () => {
    const type = await newTerm(t.services.taxonomies, 'property_type');
    expect((await get('property_city', type.id)).statusCode).toBe(404);
    expect((await get('property_city', 2_147_483_647)).statusCode).toBe(404);
    expect((await get('property_nowhere', 1)).statusCode).toBe(400);
    const res = await get('property_type', type.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).not.toHaveProperty('center');
  });
});
