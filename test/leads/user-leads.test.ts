import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp, createServices, type Services } from '../../src/app.js';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, TEST_JWT_SECRET, type TestApp, testConfig } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { bearer, newUser, signIn, tokenFor } from '../helpers/factories.js';
import { SelectCounter } from '../helpers/select-counter.js';
import { errorBody, pagination } from '../helpers/expectations.js';
import { API, aForm, newAgent, newContactListing, postContact } from './lead-fixtures.js';

type Auth = Record<string, string>;

describeEachDialect('GET /users/leads (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
  });
  afterAll(() => t.close());

  const listLeads = (auth: Auth | undefined, query = '') =>
    t.app.inject({ method: 'GET', url: `${API}/users/leads${query}`, headers: auth ?? {} });
  const send = async (path: string, form = aForm()) => {
    const res = await postContact(t.app, path, form);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.lead_id as number;
  };
  const idsOf = (res: LightMyRequestResponse) => (res.json().data.leads as { id: number }[]).map((lead) => lead.id);
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(errorBody(code));
  };

  it('answers 401 without a token and with an invalid one', async () => {
    expectError(await listLeads(undefined), 401, 'unauthorized');
    expectError(await listLeads(bearer('not.a.token')), 401, 'invalid_token');
  });

  it('refuses unknown query parameters and out-of-range paging with 400', async () => {
    const auth = await signIn(t.app, await newUser(db));
    expectError(await listLeads(auth, '?user_id=1'), 400, 'validation_failed');
    expectError(await listLeads(auth, '?per_page=101'), 400, 'validation_failed');
    expectError(await listLeads(auth, '?page=0'), 400, 'validation_failed');
  });

  it('answers an empty list to a user without leads', async () => {
    const res = await listLeads(await signIn(t.app, await newUser(db)));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { leads: [], pagination: pagination(0, 1, 10) } });
  });

  it('pages the caller’s leads newest first, and never shows another user’s', async () => {
    const mine = await newUser(db, { role: 'agent' });
    const theirs = await newUser(db, { role: 'agent' });
    const [myAgent, theirAgent] = [await newAgent(db, mine), await newAgent(db, theirs)];
    const myLeads: number[] = [];
    const theirLeads: number[] = [];
    for (let i = 0; i < 3; i++) {
      myLeads.push(await send(`/agents/${myAgent}/contact`, aForm({ message: `Mine ${i}` })));
      theirLeads.push(await send(`/agents/${theirAgent}/contact`, aForm({ message: `Theirs ${i}` })));
    }
    const [myAuth, theirAuth] = [await signIn(t.app, mine), await signIn(t.app, theirs)];
    const newestFirst = [...myLeads].reverse();

    const first = await listLeads(myAuth, '?per_page=2');
    expect(first.statusCode).toBe(200);
    expect(idsOf(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.json().data.pagination).toEqual(pagination(3, 1, 2));
    expect(first.json().data.leads.map((lead: { message: string }) => lead.message)).toEqual(['Mine 2', 'Mine 1']);

    const second = await listLeads(myAuth, '?per_page=2&page=2');
    expect(idsOf(second)).toEqual(newestFirst.slice(2));
    expect(second.json().data.pagination).toEqual(pagination(3, 2, 2));
    expect(idsOf(await listLeads(myAuth, '?per_page=2&paged=2'))).toEqual(newestFirst.slice(2));

    const past = await listLeads(myAuth, '?per_page=2&page=5');
    expect(past.json().data).toEqual({ leads: [], pagination: pagination(3, 5, 2) });

    expect(idsOf(await listLeads(theirAuth))).toEqual([...theirLeads].reverse());
  });

  it('shows the lead to each of its recipients', async () => {
    const [one, two] = [await newUser(db, { role: 'agent' }), await newUser(db, { role: 'agent' })];
    const author = await newUser(db, { role: 'seller' });
    const listing = await newContactListing(db, author.id, {
      display: 'agent_info',
      agentIds: [await newAgent(db, one), await newAgent(db, two)],
    });
    const leadId = await send(`/properties/${listing}/contact`);
    expect(idsOf(await listLeads(await signIn(t.app, one)))).toEqual([leadId]);
    expect(idsOf(await listLeads(await signIn(t.app, two)))).toEqual([leadId]);
    expect(idsOf(await listLeads(await signIn(t.app, author)))).toEqual([]);
  });

  it('shows the listing as the caller may see it now: null once deleted or hidden from the caller', async () => {
    const author = await newUser(db, { role: 'seller' });
    const agentUser = await newUser(db, { role: 'agent' });
    const agent = await newAgent(db, agentUser);
    const [authorAuth, agentAuth] = [await signIn(t.app, author), await signIn(t.app, agentUser)];

    // Back to pending: still the author's own listing, but no longer visible to the agent it names.
    const pendingLater = await newContactListing(db, author.id, { display: 'agent_info', agentIds: [agent], title: 'Pending later' });
    const toAgent = await send(`/properties/${pendingLater}/contact`);
    const authorsOwn = await newContactListing(db, author.id, { title: 'Pending too' });
    const toAuthor = await send(`/properties/${authorsOwn}/contact`);
    await db.updateTable('listings').set({ status: 'pending' }).where('id', 'in', [pendingLater, authorsOwn]).execute();
    expect((await listLeads(agentAuth)).json().data.leads[0]).toMatchObject({ id: toAgent, target_id: pendingLater, property: null });
    expect((await listLeads(authorAuth)).json().data.leads[0]).toMatchObject({
      id: toAuthor,
      property: { id: authorsOwn, title: 'Pending too', url: expect.stringMatching(/^http/) },
    });

    await db.deleteFrom('listings').where('id', '=', authorsOwn).execute();
    expect((await listLeads(authorAuth)).json().data.leads[0]).toMatchObject({
      id: toAuthor,
      target_type: 'property',
      target_id: null,
      property: null,
    });
  });

  it('keeps the leads of an agent record whose user is gone out of everyone’s list', async () => {
    const leaving = await newUser(db, { role: 'agent' });
    const agent = await newAgent(db, leaving);
    const leadId = await send(`/agents/${agent}/contact`);
    await db.deleteFrom('users').where('id', '=', leaving.id).execute();
    expect(await db.selectFrom('lead_recipients').select('user_id').where('lead_id', '=', leadId).execute()).toEqual([]);
    expect(await db.selectFrom('leads').select('id').where('id', '=', leadId).execute()).toEqual([{ id: leadId }]);
  });
});

describeEachDialect('GET /users/leads in a fixed number of queries (%s)', (dialect) => {
  const LEADS = 20;
  const config = testConfig();
  const appSelects = new SelectCounter();
  let database: TestDatabase;
  let services: Services;
  let app: FastifyInstance;
  let auth: Auth;
  let firstListing: number;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const deps = { config, database: { ...database, db: database.db.withPlugin(appSelects) }, jwtSecret: TEST_JWT_SECRET };
    services = createServices(deps);
    app = await buildApp(deps, services);
    await app.ready();
    const author = await newUser(database.db, { role: 'seller' });
    for (let i = 0; i < LEADS; i++) {
      const listing = await newContactListing(database.db, author.id);
      firstListing ??= listing;
      const res = await postContact(app, `/properties/${listing}/contact`, aForm());
      expect(res.statusCode, res.body).toBe(201);
    }
    auth = bearer(await tokenFor(app, author));
  });
  afterAll(async () => {
    await app?.close();
    await services?.shutdown();
    await database?.dispose();
  });

  /** SELECTs of one request, on empty listing caches (a write renews the stamp and so empties them). */
  const selectsOf = async (query: string) => {
    await database.db.updateTable('listings').set({ views: 0 }).where('id', '=', firstListing).execute();
    const before = appSelects.selects;
    const res = await app.inject({ method: 'GET', url: `${API}/users/leads${query}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    const leads = res.json().data.leads as { property: unknown }[];
    expect(leads.every((lead) => lead.property !== null)).toBe(true);
    return { selects: appSelects.selects - before, count: leads.length };
  };

  it('takes the same queries for 2 leads as for 20', async () => {
    await selectsOf('?per_page=2'); // warms the session cache, where there is one
    const few = await selectsOf('?per_page=2');
    const many = await selectsOf(`?per_page=${LEADS}`);
    expect([few.count, many.count]).toEqual([2, LEADS]);
    expect(many.selects).toBe(few.selects);
  });
});
