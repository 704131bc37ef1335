import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newSignedInUser, newTerm, unique } from '../helpers/factories.js';
import { API, type Auth, createdId, expectError, type SavedSearchClient, savedSearchClient } from './saved-search-fixtures.js';

describeEachDialect('GET /saved-searches/{id} (%s)', (dialect) => {
  let t: TestApp;
  let client: SavedSearchClient;
  let apartment: TermRecord;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    client = savedSearchClient(t.app);
    apartment = await newTerm(t.services.taxonomies, 'property_type', { name: unique('Apartment ') });
  });
  afterAll(() => t.close());

  const getOne = (auth: Auth | undefined, id: number | string, query = '') =>
    t.app.inject({ method: 'GET', url: `${API}/saved-searches/${id}${query}`, headers: auth ?? {} });

  it('answers the caller’s saved search: the record of the list and of the create answer', async () => {
    const { auth } = await newSignedInUser(t);
    const created = await client.create(auth, {
      name: 'Flats',
      query: { type: [apartment.slug], 'min-beds': 2 },
      email_alerts: false,
      frequency: 'weekly',
    });
    expect(created.statusCode, created.body).toBe(201);
    const record = created.json().data;
    const res = await getOne(auth, record.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: record });
    expect(record).toMatchObject({
      name: 'Flats',
      query: { type: [apartment.slug], min_beds: 2 },
      query_string: `type=${apartment.slug}&min_beds=2`,
      display_text: expect.stringContaining(apartment.name),
      email_alerts: false,
      frequency: 'weekly',
      last_notified_at: null,
    });
    expect((await client.list(auth)).json().data.saved_searches).toEqual([record]);
  });

  it('shows a change at once, and the display text in the request’s language', async () => {
    const { auth } = await newSignedInUser(t);
    const id = await createdId(client, auth, { query: { 'min-beds': 3 } });
    expect((await client.update(auth, id, { name: 'Renamed', frequency: 'instant' })).statusCode).toBe(200);
    expect((await getOne(auth, id)).json().data).toMatchObject({ id, name: 'Renamed', frequency: 'instant' });
    const english = (await getOne(auth, id)).json().data.display_text;
    const french = (await getOne(auth, id, '?lang=fr')).json().data.display_text;
    expect(french).not.toBe(english);
  });

  it('answers 404 for another user’s saved search, an unknown id and a deleted one', async () => {
    const owner = await newSignedInUser(t);
    const stranger = await newSignedInUser(t);
    const id = await createdId(client, owner.auth, { query: { 'min-beds': 1 } });
    expectError(await getOne(stranger.auth, id), 404, 'not_found');
    expectError(await getOne(owner.auth, 2_000_000_000), 404, 'not_found');
    expect((await client.remove(owner.auth, id)).statusCode).toBe(200);
    expectError(await getOne(owner.auth, id), 404, 'not_found');
  });

  it('answers 401 without a token and with an invalid one', async () => {
    expectError(await getOne(undefined, 1), 401, 'unauthorized');
    expectError(await getOne(bearer('not.a.token'), 1), 401, 'invalid_token');
  });

  it('refuses malformed ids and unknown query parameters with 400', async () => {
    const { auth } = await newSignedInUser(t);
    const id = await createdId(client, auth, { query: { 'min-beds': 1 } });
    for (const bad of ['0', 'abc', '1.5', '2147483648']) expectError(await getOne(auth, bad), 400, 'validation_failed');
    expectError(await getOne(auth, id, '?page=1'), 400, 'validation_failed');
    expectError(await getOne(auth, id, '?user_id=1'), 400, 'validation_failed');
  });

  it('keeps GET /saved-searches/{id}/matches apart, and documents the route', async () => {
    const { auth } = await newSignedInUser(t);
    const id = await createdId(client, auth, { query: { 'min-beds': 1 } });
    expect((await client.matches(auth, id)).json().data).toHaveProperty('properties');
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    const operation = doc.paths[`${API}/saved-searches/{id}`].get;
    expect(operation.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));
  });
});
