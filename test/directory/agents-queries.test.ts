import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp, createServices, type Services } from '../../src/app.js';
import { TEST_JWT_SECRET, testConfig } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { newAgency, newAgent, newListing, newMedia, newTerm, newUser } from '../helpers/factories.js';
import { SelectCounter } from '../helpers/select-counter.js';

const API = '/realty-api/v1';
const PER_KIND = 40;

/**
 * A page of agents or agencies costs a fixed number of queries whatever its size (../shared/CONVENTIONS.md habit 5):
 * every agent has an agency, a picture, terms and listings; every agency a logo, agents and listings.
 */
describeEachDialect('no N+1 in directory pages (%s)', (dialect) => {
  const config = testConfig();
  const appSelects = new SelectCounter();
  let database: TestDatabase;
  let services: Services;
  let app: FastifyInstance;
  let agencyId: number;
  let agentId: number;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const db = database.db;
    const deps = { config, database: { ...database, db: db.withPlugin(appSelects) }, jwtSecret: TEST_JWT_SECRET };
    services = createServices(deps);
    app = await buildApp(deps, services);
    await app.ready();

    const owner = await newUser(db);
    const [city, category] = [await newTerm(services.taxonomies, 'agent_city'), await newTerm(services.taxonomies, 'agent_category')];
    for (let n = 0; n < PER_KIND; n++) {
      const agency = await newAgency(db, { logo_media_id: (await newMedia(db, owner.id)).id });
      const agent = await newAgent(db, { agency_id: agency, picture_media_id: (await newMedia(db, owner.id)).id });
      await db
        .insertInto('agent_terms')
        .values([
          { agent_id: agent, term_id: city.id, taxonomy: 'agent_city' },
          { agent_id: agent, term_id: category.id, taxonomy: 'agent_category' },
        ])
        .execute();
      const listing = await newListing(db, { agency_id: agency });
      await db.insertInto('listing_agents').values({ listing_id: listing, agent_id: agent }).execute();
      agencyId = agency;
      agentId = agent;
    }
    // One agency and one agent with many listings, for the listing pages.
    for (let n = 0; n < PER_KIND; n++) {
      const listing = await newListing(db, { agency_id: agencyId });
      await db.insertInto('listing_agents').values({ listing_id: listing, agent_id: agentId }).execute();
    }
  });
  afterAll(async () => {
    await app?.close();
    await services?.shutdown();
    await database?.dispose();
  });

  /** SELECTs of one anonymous request; `fresh` first renews the directory stamp, which empties the caches. */
  const selectsOf = async (url: string, fresh = true) => {
    if (fresh) await database.db.updateTable('agents').set({ updated_at: new Date().toISOString() }).where('id', '=', agentId).execute();
    const before = appSelects.selects;
    const res = await app.inject({ method: 'GET', url: `${API}${url}` });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    return { selects: appSelects.selects - before, count: (data.agents ?? data.agencies ?? data.properties).length as number };
  };

  it.each([
    ['/agents', 5],
    ['/agents/search?category={category}&sortby=d_properties', 5],
    ['/agencies?sortby=d_properties', 5],
    ['/agents/{agent}/properties', undefined],
    ['/agencies/{agency}/properties', undefined],
  ])('%s takes the same queries for 5 items as for 40', async (path, expected) => {
    const category = (
      await database.db.selectFrom('terms').select('slug').where('taxonomy', '=', 'agent_category').executeTakeFirstOrThrow()
    ).slug;
    const url = path.replace('{category}', category).replace('{agent}', String(agentId)).replace('{agency}', String(agencyId));
    const join = url.includes('?') ? '&' : '?';
    const few = await selectsOf(`${url}${join}per_page=5`);
    const many = await selectsOf(`${url}${join}per_page=${PER_KIND}`);
    expect(few.count).toBe(5);
    expect(many.count).toBe(PER_KIND);
    expect(many.selects).toBe(few.selects);
    if (expected !== undefined) expect(many.selects).toBe(expected);
    // While nothing changes, the answer comes from the cache without a query.
    expect((await selectsOf(`${url}${join}per_page=${PER_KIND}`, false)).selects).toBe(0);
  });
});
