import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp, createServices, type Services } from '../../src/app.js';
import type { DB, ListingState } from '../../src/db/schema/index.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, TEST_JWT_SECRET, type TestApp, testConfig } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { pagination } from '../helpers/expectations.js';
import { bearer, links, newListing, newTerm, newUser, tokenFor, unique } from '../helpers/factories.js';
import { SelectCounter } from '../helpers/select-counter.js';
import { API, type Auth, createdId, expectError, fieldsOf, type SavedSearchClient, savedSearchClient } from './saved-search-fixtures.js';

/** A narrow no-break space: French digit groups, as Intl writes them. */
const NNBSP = '\u202f';

const idsOf = (res: LightMyRequestResponse) => (res.json().data.properties as { id: number }[]).map((listing) => listing.id);

describeEachDialect('GET /saved-searches/{id}/matches and display texts (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let client: SavedSearchClient;
  let auth: Auth;
  let apartment: TermRecord;
  let villa: TermRecord;
  let miami: TermRecord;
  let orlando: TermRecord;
  const listing: Record<string, number> = {};

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    client = savedSearchClient(t.app);
    auth = bearer(await tokenFor(t.app, await newUser(db)));
    const term = (taxonomy: 'property_type' | 'property_city', name: string) =>
      newTerm(t.services.taxonomies, taxonomy, { name: unique(name) });
    [apartment, villa, miami, orlando] = [
      await term('property_type', 'Apartment '),
      await term('property_type', 'Villa '),
      await term('property_city', 'Miami '),
      await term('property_city', 'Orlando '),
    ];
    const add = async (name: string, type: TermRecord, city: TermRecord, price: number, status: ListingState = 'publish') => {
      listing[name] = await newListing(db, {
        status,
        price,
        bedrooms: 2,
        title: name,
        terms: [...links('property_type', type), ...links('property_city', city)],
      });
    };
    await add('cheap', apartment, miami, 150_000);
    await add('middle', apartment, miami, 300_000);
    await add('villa', villa, miami, 400_000);
    await add('elsewhere', apartment, orlando, 200_000);
    await add('draft', apartment, miami, 250_000, 'draft');
    await add('too cheap', apartment, miami, 90_000);
    await add('sold', apartment, miami, 220_000, 'sold');
  });
  afterAll(() => t.close());

  const SEARCH = () => `type[]=${apartment.slug}&type[]=${villa.slug}&location=${miami.slug}&min-price=100000&sortby=a_price`;
  const search = (query: string) => t.app.inject({ method: 'GET', url: `${API}/properties/search?${query}`, headers: auth });

  it('answers what GET /properties/search answers for the same parameters, page by page', async () => {
    const id = await createdId(client, auth, { query_string: SEARCH() });
    const first = await client.matches(auth, id, '?per_page=2');
    expect(first.statusCode, first.body).toBe(200);
    expect(idsOf(first)).toEqual([listing.cheap, listing.middle]);
    expect(first.json()).toEqual((await search(`${SEARCH()}&per_page=2`)).json());
    expect(first.json().data.pagination).toEqual(pagination(3, 1, 2));

    const second = await client.matches(auth, id, '?per_page=2&page=2');
    expect(idsOf(second)).toEqual([listing.villa]);
    expect(second.json()).toEqual((await search(`${SEARCH()}&per_page=2&page=2`)).json());
    expect((await client.matches(auth, id, '?page=5')).json().data).toEqual({ properties: [], pagination: pagination(3, 5, 10) });
  });

  it('follows the saved flags and the default order, as the search does', async () => {
    const query = { type: [apartment.slug], city: String(miami.id), include_sold: true };
    const id = await createdId(client, auth, { query });
    const res = await client.matches(auth, id);
    const expected = await search(`type=${apartment.slug}&city=${miami.id}&include_sold=true`);
    expect(idsOf(res)).toEqual(idsOf(expected));
    const ascending = (ids: readonly (number | undefined)[]) => [...ids].sort((a, b) => a! - b!);
    expect(ascending(idsOf(res))).toEqual(ascending([listing.cheap, listing.middle, listing['too cheap'], listing.sold]));
    expect(res.json()).toEqual(expected.json());
  });

  it('accepts paging and `lang` only, and shows the caller’s own saved searches only', async () => {
    const id = await createdId(client, auth, { query_string: SEARCH() });
    expect(fieldsOf(await client.matches(auth, id, '?sortby=d_price'))).toEqual(['sortby']);
    expect(fieldsOf(await client.matches(auth, id, `?type=${villa.slug}`))).toEqual(['type']);
    expect(fieldsOf(await client.matches(auth, id, '?per_page=101'))).toEqual(['per_page']);
    expect((await client.matches(auth, id, '?lang=fr&per_page=1')).statusCode).toBe(200);

    const stranger = bearer(await tokenFor(t.app, await newUser(db)));
    expectError(await client.matches(stranger, id), 404, 'not_found');
    expectError(await client.matches(auth, 2_000_000_000), 404, 'not_found');
  });

  it('describes each saved search in the request’s language, by the terms’ current names', async () => {
    const user = await newUser(db);
    const mine = bearer(await tokenFor(t.app, user));
    const id = await createdId(client, mine, { query_string: SEARCH() });
    const english = `${apartment.name} or ${villa.name} in ${miami.name} · from 100,000`;
    const textOf = async (query: string, headers: Record<string, string> = {}, prefix = '') => {
      const res = await t.app.inject({ method: 'GET', url: `${prefix}${API}/saved-searches${query}`, headers: { ...mine, ...headers } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.saved_searches[0].display_text as string;
    };

    expect(await textOf('')).toBe(english);
    expect(await textOf('?lang=fr')).toBe(`${apartment.name} ou ${villa.name} à ${miami.name} · à partir de 100${NNBSP}000`);
    expect(await textOf('', { 'accept-language': 'es-MX,en;q=0.5' })).toBe(
      `${apartment.name} o ${villa.name} en ${miami.name} · desde 100.000`,
    );
    expect(await textOf('', {}, '/ar')).toBe(`${apartment.name} أو ${villa.name} في ${miami.name} · من 100,000`);
    // The name was given in English when none was sent; it does not follow the language.
    const [record] = (await client.list(mine, '?lang=fr')).json().data.saved_searches;
    expect(record).toMatchObject({ id, name: english });

    // A renamed term is named anew; a deleted one shows its slug.
    await db.updateTable('terms').set({ name: 'Miami Beach' }).where('id', '=', miami.id).execute();
    expect(await textOf('')).toBe(`${apartment.name} or ${villa.name} in Miami Beach · from 100,000`);
    await db.deleteFrom('terms').where('id', '=', villa.id).execute();
    expect(await textOf('')).toBe(`${apartment.name} or ${villa.slug} in Miami Beach · from 100,000`);
  });
});

describeEachDialect('GET /saved-searches in a fixed number of queries (%s)', (dialect) => {
  const SEARCHES = 20;
  const selects = new SelectCounter();
  let database: TestDatabase;
  let services: Services;
  let app: FastifyInstance;
  let auth: Auth;

  beforeAll(async () => {
    const config = testConfig();
    database = await createTestDatabase(dialect);
    const deps = { config, database: { ...database, db: database.db.withPlugin(selects) }, jwtSecret: TEST_JWT_SECRET };
    services = createServices(deps);
    app = await buildApp(deps, services);
    await app.ready();
    const client = savedSearchClient(app);
    auth = bearer(await tokenFor(app, await newUser(database.db)));
    // Each saved search names terms of its own, in several taxonomies.
    for (let i = 0; i < SEARCHES; i++) {
      const type = await newTerm(services.taxonomies, 'property_type', { name: unique('Type ') });
      const city = await newTerm(services.taxonomies, 'property_city', { name: unique('City ') });
      await createdId(client, auth, { query: { type: type.slug, city: String(city.id) } });
    }
  });
  afterAll(async () => {
    await app?.close();
    await services?.shutdown();
    await database?.dispose();
  });

  const selectsOf = async (query: string) => {
    const before = selects.selects;
    const res = await app.inject({ method: 'GET', url: `${API}/saved-searches${query}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    const texts = (res.json().data.saved_searches as { display_text: string }[]).map((search) => search.display_text);
    expect(texts.every((text) => /^Type \w+ in City \w+$/.test(text))).toBe(true);
    return { selects: selects.selects - before, count: texts.length };
  };

  it('names the terms of 2 saved searches and of 20 with the same queries', async () => {
    await selectsOf('?per_page=2'); // warms the session cache, where there is one
    const few = await selectsOf('?per_page=2');
    const many = await selectsOf(`?per_page=${SEARCHES}`);
    expect([few.count, many.count]).toEqual([2, SEARCHES]);
    expect(many.selects).toBe(few.selects);
  });
});
