import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { errorBody, pagination } from '../helpers/expectations.js';
import { bearer, newSignedInUser, newTerm, newUser, signIn, unique } from '../helpers/factories.js';
import { API, type Auth, createdId, expectError, fieldsOf, type SavedSearchClient, savedSearchClient } from './saved-search-fixtures.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describeEachDialect('saved searches: create, list, update, delete (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let client: SavedSearchClient;
  let apartment: TermRecord;
  let forSale: TermRecord;
  let miami: TermRecord;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    client = savedSearchClient(t.app);
    apartment = await newTerm(t.services.taxonomies, 'property_type', { name: unique('Apartment ') });
    forSale = await newTerm(t.services.taxonomies, 'property_status', { name: unique('For Sale ') });
    miami = await newTerm(t.services.taxonomies, 'property_city', { name: unique('Miami ') });
  });
  afterAll(() => t.close());

  it('answers 401 to every route without a token', async () => {
    expectError(await client.create(undefined, { query: {} }), 401, 'unauthorized');
    expectError(await client.list(undefined), 401, 'unauthorized');
    expectError(await client.list(undefined, '', '/users/saved-searches'), 401, 'unauthorized');
    expectError(await client.update(undefined, 1, { name: 'x' }), 401, 'unauthorized');
    expectError(await client.remove(undefined, 1), 401, 'unauthorized');
    expectError(await client.remove(undefined, 1, '/users/saved-searches'), 401, 'unauthorized');
    expectError(await client.matches(undefined, 1), 401, 'unauthorized');
    expectError(await client.list(bearer('not.a.token')), 401, 'invalid_token');
  });

  it('creates from a query object: 201 with the record itself, named by its display text, stored canonical', async () => {
    const { auth } = await newSignedInUser(t);
    const res = await client.create(auth, {
      query: {
        type: [apartment.slug],
        status: forSale.slug,
        location: miami.slug,
        'min-beds': 2,
        'min-price': 200000,
        max_price: '500000',
        currency: 'usd',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const expectedText = `${apartment.name} ${forSale.name} in ${miami.name} · 2+ beds · $200,000–$500,000`;
    const record = res.json().data;
    expect(res.json()).toEqual({ success: true, data: record });
    expect(record).toEqual({
      id: expect.any(Number),
      name: expectedText,
      query: {
        type: [apartment.slug],
        status: [forSale.slug],
        city: [miami.slug],
        min_price: 200000,
        max_price: 500000,
        currency: 'USD',
        min_beds: 2,
      },
      query_string: `type=${apartment.slug}&status=${forSale.slug}&city=${miami.slug}&min_price=200000&max_price=500000&currency=USD&min_beds=2`,
      display_text: expectedText,
      email_alerts: true,
      frequency: 'daily',
      last_notified_at: null,
      created_at: expect.stringMatching(TIMESTAMP),
    });
    expect(record.id).toBeGreaterThan(0);

    // The list shows the same record; the stored row holds the canonical string.
    const listed = await client.list(auth);
    expect(listed.json().data.saved_searches).toEqual([record]);
    const row = await db.selectFrom('saved_searches').selectAll().where('id', '=', record.id).executeTakeFirstOrThrow();
    expect(row.query_string).toBe(record.query_string);
  });

  it('creates from a query string with aliases and `type[]` arrays, converting them to canonical names', async () => {
    const { auth } = await newSignedInUser(t);
    const res = await client.create(auth, {
      query_string:
        '?type[]=Villa&type[]=loft&location=miami&min-price=100000&max-area=250&lat=25.5&lng=-80.25&radius=5&radius_unit=mi&featured=true&sortby=d_date',
      name: 'Florida',
      email_alerts: false,
      frequency: 'weekly',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'Florida',
      query: {
        type: ['villa', 'loft'],
        city: ['miami'],
        min_price: 100000,
        max_size: 250,
        featured: true,
        latitude: 25.5,
        longitude: -80.25,
        radius: 5,
        radius_unit: 'mi',
      },
      query_string:
        'type=villa,loft&city=miami&min_price=100000&max_size=250&featured=true&latitude=25.5&longitude=-80.25&radius=5&radius_unit=mi',
      email_alerts: false,
      frequency: 'weekly',
    });
    // `sortby=d_date` is the default order: a canonical search leaves it out.
    expect(res.json().data.query).not.toHaveProperty('sortby');
  });

  it('keeps a non-default `sortby`, sorts `ids`, and reads its own record’s `query` back as the same search', async () => {
    const { auth } = await newSignedInUser(t);
    const first = await client.create(auth, {
      query: { 'max-price': 500000, states: ['florida'], ids: [5, 3, 3], include_sold: 'true', sortby: 'a_price' },
    });
    expect(first.statusCode, first.body).toBe(201);
    const { query, query_string: queryString } = first.json().data;
    expect(query).toEqual({ state: ['florida'], max_price: 500000, ids: [3, 5], include_sold: true, sortby: 'a_price' });
    expect(queryString).toBe('state=florida&max_price=500000&ids=3,5&include_sold=true&sortby=a_price');

    const again = await client.create(auth, { query });
    expect(again.json().data.query_string).toBe(queryString);
    const fromString = await client.create(auth, { query_string: queryString });
    expect(fromString.json().data.query).toEqual(query);
  });

  it('refuses a body with both or neither of query and query_string', async () => {
    const { auth } = await newSignedInUser(t);
    expect(fieldsOf(await client.create(auth, { name: 'x' }))).toEqual(['query']);
    expect(fieldsOf(await client.create(auth, { query: { city: 'miami' }, query_string: 'city=miami' }))).toEqual(['query_string']);
  });

  it('refuses unknown fields, the owner and the alert bookkeeping among them (mass assignment)', async () => {
    const { auth } = await newSignedInUser(t);
    expect(fieldsOf(await client.create(auth, { query: {}, user_id: 1 }))).toEqual(['user_id']);
    expect(fieldsOf(await client.create(auth, { query: {}, last_notified_at: '2026-01-01T00:00:00Z' }))).toEqual(['last_notified_at']);
    expect(fieldsOf(await client.create(auth, { query: {}, id: 7 }))).toEqual(['id']);
    expect(await db.selectFrom('saved_searches').select('id').where('name', '=', 'All properties').execute()).toEqual([]);
  });

  it('refuses facets and paging inside the search, and unknown parameters, naming them under the body field', async () => {
    const { auth } = await newSignedInUser(t);
    expect(fieldsOf(await client.create(auth, { query: { facets: 'type' } }))).toEqual(['query.facets']);
    expect(fieldsOf(await client.create(auth, { query: { page: 2 } }))).toEqual(['query.page']);
    expect(fieldsOf(await client.create(auth, { query: { bogus: 1 } }))).toEqual(['query.bogus']);
    expect(fieldsOf(await client.create(auth, { query_string: 'city=miami&per_page=5' }))).toEqual(['query_string.per_page']);
    expect(fieldsOf(await client.create(auth, { query_string: 'paged=2' }))).toEqual(['query_string.paged']);
    expect(fieldsOf(await client.create(auth, { query_string: 'lang=fr' }))).toEqual(['query_string.lang']);
  });

  it('refuses invalid search values with the rules of the search endpoint', async () => {
    const { auth } = await newSignedInUser(t);
    expect(fieldsOf(await client.create(auth, { query: { min_price: -1 } }))).toEqual(['query.min_price']);
    expect(fieldsOf(await client.create(auth, { query_string: 'min_price=abc' }))).toEqual(['query_string.min_price']);
    expect(fieldsOf(await client.create(auth, { query: { min_price: 10, max_price: 5 } }))).toEqual(['query.min_price']);
    expect(fieldsOf(await client.create(auth, { query_string: 'radius=5' }))).toEqual(['query_string.latitude', 'query_string.longitude']);
    expect(fieldsOf(await client.create(auth, { query: { sortby: 'cheapest' } }))).toEqual(['query.sortby']);
    expect(fieldsOf(await client.create(auth, { query: { type: 'a b' } }))).toEqual(['query.type']);
    const res = await client.create(auth, { query: { min_price: -1 } }, '?lang=fr');
    expect(res.json().errors).toEqual([{ field: 'query.min_price', message: 'doit être au moins 0' }]);
  });

  it('cleans the name, refuses a blank or too long one, and checks the alert settings', async () => {
    const { auth } = await newSignedInUser(t);
    const res = await client.create(auth, { query: {}, name: '  <b>Beach</b>\n  flats  ' });
    expect(res.json().data.name).toBe('Beach flats');
    expect(fieldsOf(await client.create(auth, { query: {}, name: '<i></i> ' }))).toEqual(['name']);
    expect(fieldsOf(await client.create(auth, { query: {}, name: 'x'.repeat(201) }))).toEqual(['name']);
    expect((await client.create(auth, { query: {}, name: 'x'.repeat(200) })).statusCode).toBe(201);
    expect(fieldsOf(await client.create(auth, { query: {}, frequency: 'hourly' }))).toEqual(['frequency']);
    expect(fieldsOf(await client.create(auth, { query: {}, email_alerts: 'yes' }))).toEqual(['email_alerts']);
  });

  it('names a search by its display text cut to 200 characters when none is given, in the request’s language', async () => {
    const { auth } = await newSignedInUser(t);
    const keyword = 'k'.repeat(200);
    const long = await client.create(auth, { query: { keyword } });
    const { name, display_text: displayText } = long.json().data;
    expect(displayText).toBe(`Properties · “${keyword}”`);
    expect([...name].length).toBe(200);
    expect(name).toBe(`${displayText.slice(0, 199)}…`);

    const french = await client.create(auth, { query: { featured: true } }, '?lang=fr');
    expect(french.json().data).toMatchObject({ name: 'Biens · en vedette uniquement', display_text: 'Biens · en vedette uniquement' });
    // The name stays as it was given; the text follows each request's language.
    const [listed] = (await client.list(auth, '?per_page=1')).json().data.saved_searches;
    expect(listed).toMatchObject({
      id: french.json().data.id,
      name: 'Biens · en vedette uniquement',
      display_text: 'Properties · featured only',
    });
  });

  it('lists only the caller’s own, newest first, paged with true figures', async () => {
    const owner = await newUser(db);
    const [auth, otherAuth] = [await signIn(t.app, owner), (await newSignedInUser(t)).auth];
    const ids: number[] = [];
    for (let i = 1; i <= 3; i++) ids.push(await createdId(client, auth, { query: { min_price: i * 1000 }, name: `Mine ${i}` }));
    await createdId(client, otherAuth, { query: {}, name: 'Theirs' });
    const newestFirst = [...ids].reverse();

    const first = await client.list(auth, '?per_page=2');
    expect(first.statusCode).toBe(200);
    expect(first.json().data.saved_searches.map((s: { id: number }) => s.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.json().data.saved_searches.map((s: { name: string }) => s.name)).toEqual(['Mine 3', 'Mine 2']);
    expect(first.json().data.pagination).toEqual(pagination(3, 1, 2));
    const second = await client.list(auth, '?per_page=2&paged=2');
    expect(second.json().data.saved_searches.map((s: { id: number }) => s.id)).toEqual(newestFirst.slice(2));
    expect(second.json().data.pagination).toEqual(pagination(3, 2, 2));
    expect((await client.list(auth, '?page=9')).json().data).toEqual({ saved_searches: [], pagination: pagination(3, 9, 10) });

    // Equal creation times: the higher id first.
    await db.updateTable('saved_searches').set({ created_at: '2026-01-01T00:00:00.000Z' }).where('user_id', '=', owner.id).execute();
    expect((await client.list(auth)).json().data.saved_searches.map((s: { id: number }) => s.id)).toEqual(newestFirst);

    expectError(await client.list(auth, '?per_page=101'), 400, 'validation_failed');
    expect(fieldsOf(await client.list(auth, '?user_id=1'))).toEqual(['user_id']);
  });

  it('updates the name and alert settings of the caller’s own only', async () => {
    const [auth, otherAuth] = [(await newSignedInUser(t)).auth, (await newSignedInUser(t)).auth];
    const id = await createdId(client, auth, { query: { city: miami.slug }, name: 'Before' });

    const res = await client.update(auth, id, { name: ' <em>After</em> ', frequency: 'instant' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id,
      name: 'After',
      frequency: 'instant',
      email_alerts: true,
      query: { city: [miami.slug] },
      display_text: `Properties in ${miami.name}`,
    });
    const off = await client.update(auth, id, { email_alerts: false });
    expect(off.json().data).toMatchObject({ name: 'After', frequency: 'instant', email_alerts: false });
    expect((await client.list(auth)).json().data.saved_searches).toEqual([off.json().data]);

    expect(fieldsOf(await client.update(auth, id, {}))).toEqual(['(root)']);
    expect(fieldsOf(await client.update(auth, id, { query: { city: 'x' } }))).toEqual(['query']);
    expect(fieldsOf(await client.update(auth, id, { last_notified_at: null }))).toEqual(['last_notified_at']);
    expect(fieldsOf(await client.update(auth, id, { name: '<p></p>' }))).toEqual(['name']);
    expect(await client.update(otherAuth, id, { name: 'Stolen' }).then((r) => r.json())).toMatchObject(errorBody('not_found'));
    expectError(await client.update(auth, 2_000_000_000, { name: 'x' }), 404, 'not_found');
    expect((await client.list(auth)).json().data.saved_searches[0].name).toBe('After');
  });

  it('deletes the caller’s own; another user’s, and one deleted already, are 404', async () => {
    const [auth, otherAuth] = [(await newSignedInUser(t)).auth, (await newSignedInUser(t)).auth];
    const id = await createdId(client, auth, { query: {} });
    expectError(await client.remove(otherAuth, id), 404, 'not_found');

    const res = await client.remove(auth, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { id, deleted: true }, message: 'The saved search was deleted.' });
    expect(res.headers.deprecation).toBeUndefined();
    expectError(await client.remove(auth, id), 404, 'not_found');
    expectError(await client.update(auth, id, { name: 'x' }), 404, 'not_found');
    expectError(await client.matches(auth, id), 404, 'not_found');
    expect((await client.list(auth)).json().data.saved_searches).toEqual([]);
  });

  it('never builds the alias headers from an unvalidated path: a NUL or a header injection is a 400 in the envelope', async () => {
    const { auth } = await newSignedInUser(t);
    const successor = `${t.config.publicUrl}${API}/saved-searches`;
    for (const raw of ['%00', '%E2%80%AE', 'abc%3E%3B%20rel%3D%22x%22%2C%20%3Chttps%3A%2F%2Fevil.test%2F']) {
      const res = await client.remove(auth, raw as unknown as number, '/users/saved-searches');
      expectError(res, 400, 'validation_failed');
      expect(res.headers.deprecation).toBe('@1795219200');
      expect(res.headers.link).toBe(`<${successor}>; rel="successor-version"`);
    }
  });

  it('serves the deprecated /users aliases with the same answers and the deprecation headers', async () => {
    const [auth, otherAuth] = [(await newSignedInUser(t)).auth, (await newSignedInUser(t)).auth];
    const id = await createdId(client, auth, { query: { city: miami.slug } });
    const successor = `${t.config.publicUrl}${API}/saved-searches`;

    const current = await client.list(auth);
    const alias = await client.list(auth, '', '/users/saved-searches');
    expect(alias.statusCode).toBe(200);
    expect(alias.json()).toEqual(current.json());
    expect(current.headers.deprecation).toBeUndefined();
    expect(alias.headers).toMatchObject({
      // 2026-11-21T00:00:00Z and a year later.
      deprecation: '@1795219200',
      sunset: 'Sun, 21 Nov 2027 00:00:00 GMT',
      link: `<${successor}>; rel="successor-version"`,
    });

    const notTheirs = await client.remove(otherAuth, id, '/users/saved-searches');
    expectError(notTheirs, 404, 'not_found');
    expect(notTheirs.headers.deprecation).toBe('@1795219200');
    const removed = await client.remove(auth, id, '/users/saved-searches');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ success: true, data: { id, deleted: true }, message: 'The saved search was deleted.' });
    expect(removed.headers).toMatchObject({
      deprecation: '@1795219200',
      sunset: 'Sun, 21 Nov 2027 00:00:00 GMT',
      link: `<${successor}/${id}>; rel="successor-version"`,
    });
    expect((await client.list(auth)).json().data.saved_searches).toEqual([]);
  });

  it('marks the aliases deprecated in the OpenAPI document, and only them', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/openapi.json` });
    const paths = res.json().paths;
    expect(paths['/realty-api/v1/users/saved-searches'].get.deprecated).toBe(true);
    expect(paths['/realty-api/v1/users/saved-searches/{id}'].delete.deprecated).toBe(true);
    expect(paths['/realty-api/v1/saved-searches'].get.deprecated).toBeUndefined();
    expect(paths['/realty-api/v1/saved-searches'].post.deprecated).toBeUndefined();
    expect(paths['/realty-api/v1/saved-searches/{id}'].delete.deprecated).toBeUndefined();
  });

  it('goes with the account that owns it', async () => {
    const owner = await newUser(db);
    const auth: Auth = await signIn(t.app, owner);
    await createdId(client, auth, { query: {} });
    await db.deleteFrom('users').where('id', '=', owner.id).execute();
    expect(await db.selectFrom('saved_searches').select('id').where('user_id', '=', owner.id).execute()).toEqual([]);
  });
});
