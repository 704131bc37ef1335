import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { pagination } from '../helpers/expectations.js';
import { newAgencyWithAgent, newAgent, newUser, signIn, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

/** GET /agencies/{id}/agents holds the agency's hidden agents for the people who may see and detach them (docs/api.md 5.2). */
describeEachDialect('hidden agents in an agency’s list (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
  });
  afterAll(() => t.close());

  const get = (url: string, auth: Auth = {}) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers: auth });
  const agentsOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.agents as { id: number; visible: boolean }[];
  };
  const idsOf = (res: LightMyRequestResponse) => agentsOf(res).map((agent) => agent.id);
  const signedInAs = async (user: UserRow) => signIn(t.app, user);

  /** An agency whose user has an agent record of their own, with two visible agents and two hidden ones, named in order. */
  const agencyWithHiddenAgents = async () => {
    const d = await newAgencyWithAgent(db);
    const tag = unique('h');
    const named = (name: string, visible: number) => newAgent(db, { agency_id: d.agencyId, name: `${name} ${tag}`, visible });
    const anna = await named('Anna', 1);
    const bert = await named('Bert', 0);
    const carl = await named('Carl', 1);
    const dora = await named('Dora', 0);
    await db
      .updateTable('agents')
      .set({ name: `Zed ${tag}`, sort_key: `zed ${tag}` })
      .where('id', '=', d.agentId)
      .execute();
    return { ...d, visible: [anna, carl, d.agentId], all: [anna, bert, carl, dora, d.agentId], hidden: [bert, dora] };
  };

  it('lists the hidden agents too for the agency’s user, marked, in name order, counted, as a private answer', async () => {
    const a = await agencyWithHiddenAgents();
    const res = await get(`/agencies/${a.agencyId}/agents`, await signedInAs(a.agencyUser));
    expect(idsOf(res)).toEqual(a.all);
    expect(agentsOf(res).map((agent) => agent.visible)).toEqual([true, false, true, false, true]);
    expect(res.json().data.pagination).toEqual(pagination(5, 1, 10));
    expect(res.headers['cache-control']).toBe('private, no-cache');
    // Paged and sorted as any list.
    const auth = await signedInAs(a.agencyUser);
    expect(idsOf(await get(`/agencies/${a.agencyId}/agents?per_page=2&page=2`, auth))).toEqual(a.all.slice(2, 4));
    expect(idsOf(await get(`/agencies/${a.agencyId}/agents?sortby=d_name`, auth))).toEqual([...a.all].reverse());
  });

  it('lists them for administrators and managers', async () => {
    const a = await agencyWithHiddenAgents();
    for (const role of ['administrator', 'manager'] as const) {
      const res = await get(`/agencies/${a.agencyId}/agents`, await signedInAs(await newUser(db, { role })));
      expect(idsOf(res), role).toEqual(a.all);
      expect(res.headers['cache-control']).toBe('private, no-cache');
    }
  });

  it('leaves them out for everyone else: anonymous callers, other users and agencies, the agency’s own agents', async () => {
    const a = await agencyWithHiddenAgents();
    const other = await newAgencyWithAgent(db);
    const callers: [string, Auth][] = [
      ['anonymous', {}],
      ['a buyer', await signedInAs(await newUser(db))],
      ['another agency', await signedInAs(other.agencyUser)],
      ['an agent of the agency', await signedInAs(a.agentUser)],
    ];
    for (const [who, auth] of callers) {
      const res = await get(`/agencies/${a.agencyId}/agents`, auth);
      expect(idsOf(res), who).toEqual(a.visible);
      expect(res.json().data.pagination.total_records, who).toBe(3);
      expect(res.headers['cache-control'], who).toBe('public, no-cache');
    }
    // The agency's user sees no other agency's hidden agents.
    await db.updateTable('agents').set({ visible: 0 }).where('id', '=', other.agentId).execute();
    expect(idsOf(await get(`/agencies/${other.agencyId}/agents`, await signedInAs(a.agencyUser)))).toEqual([]);
  });

  it('keeps the shared answer and the agency’s apart in the caches, and the public lists without hidden agents', async () => {
    const a = await agencyWithHiddenAgents();
    const auth = await signedInAs(a.agencyUser);
    const own = await get(`/agencies/${a.agencyId}/agents`, auth);
    const shared = await get(`/agencies/${a.agencyId}/agents`);
    expect(idsOf(own)).toEqual(a.all);
    expect(idsOf(shared)).toEqual(a.visible);
    expect(own.headers.etag).not.toBe(shared.headers.etag);
    // An anonymous client presenting the agency's ETag gets the public answer, not a 304.
    const revalidated = await t.app.inject({
      method: 'GET',
      url: `${API}/agencies/${a.agencyId}/agents`,
      headers: { 'if-none-match': String(own.headers.etag) },
    });
    expect(idsOf(revalidated)).toEqual(a.visible);
    // Search and the agency record stay public: visible agents only, whoever asks.
    expect(idsOf(await get(`/agents/search?agency_id=${a.agencyId}`, auth))).toEqual(a.visible);
    expect((await get(`/agencies/${a.agencyId}`, auth)).json().data.agents_count).toBe(3);
  });

  it('follows detaching and showing again at once', async () => {
    const a = await agencyWithHiddenAgents();
    const auth = await signedInAs(a.agencyUser);
    const [bert, dora] = a.hidden as [number, number];
    const detached = await t.app.inject({ method: 'DELETE', url: `${API}/agencies/${a.agencyId}/agents/${bert}`, headers: auth });
    expect(detached.statusCode, detached.body).toBe(200);
    expect(idsOf(await get(`/agencies/${a.agencyId}/agents`, auth))).toEqual(a.all.filter((id) => id !== bert));
    const shown = await t.app.inject({ method: 'PUT', url: `${API}/agents/${dora}`, headers: auth, payload: { visible: true } });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(idsOf(await get(`/agencies/${a.agencyId}/agents`))).toEqual([a.visible[0], a.visible[1], dora, a.visible[2]]);
  });

  it('says so in the OpenAPI document', async () => {
    const doc = (await get('/openapi.json')).json();
    expect(doc.paths[`${API}/agencies/{id}/agents`].get.description).toContain('hidden agents');
  });
});
