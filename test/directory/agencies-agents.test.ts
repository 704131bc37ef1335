import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgencyWithAgent, newAgent, newListing, newUser, signIn } from '../helpers/factories.js';
import { errorBody } from '../helpers/expectations.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

describeEachDialect('attaching and detaching agents (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  const attach = (auth: Auth | undefined, agencyId: number, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `${API}/agencies/${agencyId}/agents`, headers: auth ?? {}, payload: payload as object });
  const detach = (auth: Auth | undefined, agencyId: number, agentId: number) =>
    t.app.inject({ method: 'DELETE', url: `${API}/agencies/${agencyId}/agents/${agentId}`, headers: auth ?? {} });
  const get = (url: string) => t.app.inject({ method: 'GET', url: `${API}${url}` });
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(errorBody(code));
  };
  const agencyOf = async (agentId: number) =>
    (await db.selectFrom('agents').select('agency_id').where('id', '=', agentId).executeTakeFirstOrThrow()).agency_id;
  /** A free agent (no agency) with its own user and token. */
  const freeAgent = async (visible = 1) => {
    const user = await newUser(db, { role: 'agent' });
    return { user, id: await newAgent(db, { user_id: user.id, visible }), auth: await signIn(t.app, user) };
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
  });
  afterAll(() => t.close());

  it('attaches a free agent for the agency’s user, idempotently, and the counts follow', async () => {
    const { agencyId, agencyUser } = await newAgencyWithAgent(db);
    const auth = await signIn(t.app, agencyUser);
    const agent = await freeAgent();
    await db
      .insertInto('listing_agents')
      .values({ listing_id: await newListing(db), agent_id: agent.id })
      .execute();
    const before = (await get(`/agencies/${agencyId}`)).json().data;
    expect(before).toMatchObject({ agents_count: 1, properties_count: 0 });

    const res = await attach(auth, agencyId, { agent_id: agent.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'The agent is part of the agency.' });
    expect(res.json().data).toMatchObject({
      id: agent.id,
      agency: { id: agencyId, name: before.name, slug: before.slug },
      properties_count: 1,
    });
    expect((await get(`/agencies/${agencyId}`)).json().data).toMatchObject({ agents_count: 2, properties_count: 1 });
    expect((await get(`/agencies/${agencyId}/agents`)).json().data.agents.map((a: { id: number }) => a.id)).toContain(agent.id);
    expect((await get(`/agents/search?agency_id=${agencyId}`)).json().data.pagination.total_records).toBe(2);

    const again = await attach(auth, agencyId, { agent_id: agent.id });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.agency.id).toBe(agencyId);
    expect((await get(`/agencies/${agencyId}`)).json().data.agents_count).toBe(2);
  });

  it('refuses an agent of another agency with 409, and lets administrators attach', async () => {
    const first = await newAgencyWithAgent(db);
    const second = await newAgencyWithAgent(db);
    const res = await attach(await signIn(t.app, second.agencyUser), second.agencyId, { agent_id: first.agentId });
    expectError(res, 409, 'conflict');
    expect(res.json().message).toBe('This agent belongs to another agency. It must be detached from that agency first.');
    const admin = await signIn(t.app, await newUser(db, { role: 'administrator' }));
    expectError(await attach(admin, second.agencyId, { agent_id: first.agentId }), 409, 'conflict');
    expect(await agencyOf(first.agentId)).toBe(first.agencyId);

    const agent = await freeAgent();
    const byAdmin = await attach(admin, second.agencyId, { agent_id: agent.id });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(await agencyOf(agent.id)).toBe(second.agencyId);
  });

  it('lets only the agency’s user and administrators attach (others 403), to known agencies and agents', async () => {
    const { agencyId, agencyUser, agentUser } = await newAgencyWithAgent(db);
    const other = await newAgencyWithAgent(db);
    const agent = await freeAgent();
    for (const user of [agentUser, other.agencyUser, await newUser(db), await newUser(db, { role: 'manager' })]) {
      expectError(await attach(await signIn(t.app, user), agencyId, { agent_id: agent.id }), 403, 'forbidden');
    }
    // The agent itself may not join an agency by its own hand.
    expectError(await attach(agent.auth, agencyId, { agent_id: agent.id }), 403, 'forbidden');
    expectError(await attach(undefined, agencyId, { agent_id: agent.id }), 401, 'unauthorized');
    expect(await agencyOf(agent.id)).toBeNull();

    const auth = await signIn(t.app, agencyUser);
    expectError(await attach(auth, 999_999, { agent_id: agent.id }), 404, 'not_found');
    expectError(await attach(auth, agencyId, { agent_id: 999_999 }), 404, 'not_found');
    // A hidden agent is as unknown to the agency; administrators see it.
    const hidden = await freeAgent(0);
    expectError(await attach(auth, agencyId, { agent_id: hidden.id }), 404, 'not_found');
    const admin = await signIn(t.app, await newUser(db, { role: 'administrator' }));
    expect((await attach(admin, agencyId, { agent_id: hidden.id })).statusCode).toBe(200);

    for (const payload of [{}, { agent_id: 'x' }, { agent_id: 0 }, { agent_id: agent.id, agency_id: agencyId }, [agent.id]]) {
      expectError(await attach(auth, agencyId, payload), 400, 'validation_failed');
    }
  });

  it('gives one of two agencies racing for the same free agent 200, the other 409', async () => {
    const first = await newAgencyWithAgent(db);
    const second = await newAgencyWithAgent(db);
    const agent = await freeAgent();
    const [a, b] = await Promise.all([
      attach(await signIn(t.app, first.agencyUser), first.agencyId, { agent_id: agent.id }),
      attach(await signIn(t.app, second.agencyUser), second.agencyId, { agent_id: agent.id }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await agencyOf(agent.id)).toBe(a.statusCode === 200 ? first.agencyId : second.agencyId);
  });

  it('detaches for the agency’s user, the agent’s user and administrators', async () => {
    const admin = await signIn(t.app, await newUser(db, { role: 'administrator' }));
    const cases = [
      async (d: Awaited<ReturnType<typeof newAgencyWithAgent>>) => signIn(t.app, d.agencyUser),
      async (d: Awaited<ReturnType<typeof newAgencyWithAgent>>) => signIn(t.app, d.agentUser),
      async () => admin,
    ];
    for (const authOf of cases) {
      const d = await newAgencyWithAgent(db);
      expect((await get(`/agencies/${d.agencyId}`)).json().data.agents_count).toBe(1);
      const res = await detach(await authOf(d), d.agencyId, d.agentId);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        data: { id: d.agentId, agency: null },
        message: 'The agent was detached from the agency.',
      });
      expect(await agencyOf(d.agentId)).toBeNull();
      expect((await get(`/agencies/${d.agencyId}`)).json().data.agents_count).toBe(0);
      expect((await get(`/agencies/${d.agencyId}/agents`)).json().data.agents).toEqual([]);
    }
  });

  it('refuses detaching to others (403) and answers 404 for agents not in the agency', async () => {
    const d = await newAgencyWithAgent(db);
    const colleague = await freeAgent();
    await db.updateTable('agents').set({ agency_id: d.agencyId }).where('id', '=', colleague.id).execute();
    const other = await newAgencyWithAgent(db);
    for (const auth of [
      colleague.auth,
      await signIn(t.app, other.agencyUser),
      await signIn(t.app, other.agentUser),
      await signIn(t.app, await newUser(db, { role: 'manager' })),
    ]) {
      expectError(await detach(auth, d.agencyId, d.agentId), 403, 'forbidden');
    }
    expectError(await detach(undefined, d.agencyId, d.agentId), 401, 'unauthorized');
    expect(await agencyOf(d.agentId)).toBe(d.agencyId);

    const agencyAuth = await signIn(t.app, d.agencyUser);
    expectError(await detach(agencyAuth, d.agencyId, other.agentId), 404, 'not_found'); // in another agency
    expectError(await detach(agencyAuth, d.agencyId, (await freeAgent()).id), 404, 'not_found'); // in none
    expectError(await detach(agencyAuth, d.agencyId, 999_999), 404, 'not_found');
    expectError(await detach(agencyAuth, 999_999, d.agentId), 404, 'not_found');
    expectError(await detach(agencyAuth, d.agencyId, 0), 400, 'validation_failed');
    // Detaching twice: the second finds the agent gone from the agency.
    expect((await detach(agencyAuth, d.agencyId, d.agentId)).statusCode).toBe(200);
    expectError(await detach(agencyAuth, d.agencyId, d.agentId), 404, 'not_found');
    // Now free, another agency may take it.
    expect((await attach(await signIn(t.app, other.agencyUser), other.agencyId, { agent_id: d.agentId })).statusCode).toBe(200);
  });

  it('hides a hidden agent of the agency from strangers (404) but not from its managers', async () => {
    const d = await newAgencyWithAgent(db);
    await db.updateTable('agents').set({ visible: 0 }).where('id', '=', d.agentId).execute();
    expectError(await detach(await signIn(t.app, await newUser(db)), d.agencyId, d.agentId), 404, 'not_found');
    // Its agency sees it: attaching again answers 200, detaching works.
    const agencyAuth = await signIn(t.app, d.agencyUser);
    expect((await attach(agencyAuth, d.agencyId, { agent_id: d.agentId })).statusCode).toBe(200);
    const res = await detach(agencyAuth, d.agencyId, d.agentId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ agency: null, visible: false });
  });
});
