import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, UserRow } from '../../src/db/schema/index.js';
import { buildPeerApp, buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECTS, describeEachDialect } from '../helpers/database.js';
import { errorBody } from '../helpers/expectations.js';
import { type Auth, DEFAULT_PASSWORD, newSignedInUser, newUser, signIn, unique } from '../helpers/factories.js';
import { until } from '../helpers/until.js';

const API = '/realty-api/v1';
const OTHER_ROLES = ['manager', 'agency', 'agent', 'owner', 'seller', 'buyer'] as const satisfies readonly Role[];

describeEachDialect('administering accounts (%s)', (dialect) => {
  let t: TestApp;
  let admin: UserRow;
  let adminAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    ({ user: admin, auth: adminAuth } = await newSignedInUser(t, { role: 'administrator' }));
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const put = (path: string, auth: Auth | null, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: `${API}${path}`, headers: auth ?? {}, payload: payload as object });
  const setRole = (id: number, role: string, auth: Auth | null = adminAuth) => put(`/users/${id}/role`, auth, { role });
  const setStatus = (id: number, status: string, auth: Auth | null = adminAuth) => put(`/users/${id}/status`, auth, { status });
  const me = (auth: Auth) => t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: auth });
  const login = (user: UserRow) =>
    t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: user.username, password: DEFAULT_PASSWORD } });
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: `${API}/auth/token`, payload: { grant_type: 'refresh_token', refresh_token: refreshToken } });
  const userRow = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const agentsOf = (userId: number) => db().selectFrom('agents').selectAll().where('user_id', '=', userId).execute();
  const agenciesOf = (userId: number) => db().selectFrom('agencies').selectAll().where('user_id', '=', userId).execute();

  describe('PUT /users/{id}/role', () => {
    it('changes the role and answers the full profile, with its status', async () => {
      const user = await newUser(db(), { role: 'buyer' });
      const res = await setRole(user.id, 'seller');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.data).toMatchObject({
        user_id: user.id,
        email: user.email,
        username: user.username,
        role: 'seller',
        status: 'active',
        agent_id: null,
        agency_id: null,
        properties_count: '0',
        favorites: '0',
      });
      expect((await userRow(user.id)).role).toBe('seller');
    });

    it('ends the user’s sessions at once; the next login answers the new role', async () => {
      const { user, auth } = await newSignedInUser(t, { role: 'buyer' });
      const tokens = (await login(user)).json().data;
      expect((await me(auth)).statusCode).toBe(200);
      expect((await setRole(user.id, 'owner')).statusCode).toBe(200);
      for (const token of [auth, { authorization: `Bearer ${tokens.token}` }]) {
        const res = await me(token);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(errorBody('invalid_token'));
      }
      expect((await refresh(tokens.refresh_token)).statusCode).toBe(401);
      const again = await login(user);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data).toMatchObject({ user_id: user.id, role: 'owner', agent_id: null, agency_id: null });
      expect((await me({ authorization: `Bearer ${again.json().data.token}` })).json().data.role).toBe('owner');
    });

    it('makes an agent record for a new agent, as registration does, and shows it in the login result', async () => {
      const user = await newUser(db(), { role: 'buyer', display_name: 'Rosa Ortega', phone: '+34 611' });
      const res = await setRole(user.id, 'agent');
      expect(res.statusCode, res.body).toBe(200);
      const agents = await agentsOf(user.id);
      expect(agents).toHaveLength(1);
      expect(agents[0]).toMatchObject({ name: 'Rosa Ortega', email: user.email, phone: '+34 611', agency_id: null });
      expect(agents[0]!.slug).toMatch(/^rosa-ortega/);
      expect(res.json().data).toMatchObject({ role: 'agent', agent_id: agents[0]!.id, agency_id: null });
      expect((await login(user)).json().data).toMatchObject({ role: 'agent', agent_id: agents[0]!.id });
      const record = await t.app.inject({ method: 'GET', url: `${API}/agents/${agents[0]!.id}` });
      expect(record.statusCode, record.body).toBe(200);
      expect(record.json().data).toMatchObject({ id: agents[0]!.id, user_id: user.id, name: 'Rosa Ortega' });
    });

    it('makes an agency record for a new agency', async () => {
      const user = await newUser(db(), { role: 'seller', display_name: 'Casa Lima' });
      const res = await setRole(user.id, 'agency');
      expect(res.statusCode, res.body).toBe(200);
      const agencies = await agenciesOf(user.id);
      expect(agencies).toHaveLength(1);
      expect(agencies[0]).toMatchObject({ name: 'Casa Lima', email: user.email });
      expect(res.json().data).toMatchObject({ role: 'agency', agency_id: agencies[0]!.id, agent_id: null });
    });

    it('keeps an existing record: no second one, and the record of an earlier role stays linked', async () => {
      const registered = await t.services.users.createUser({
        username: unique('agent_'),
        email: `${unique('agent')}@example.test`,
        password: DEFAULT_PASSWORD,
        role: 'agent',
      });
      const [record] = await agentsOf(registered.id);
      const auth = await signIn(t.app, registered);

      // The same role again changes nothing: no new record, and the user stays signed in.
      const same = await setRole(registered.id, 'agent');
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json().data).toMatchObject({ role: 'agent', agent_id: record!.id });
      expect(await agentsOf(registered.id)).toHaveLength(1);
      expect((await me(auth)).statusCode).toBe(200);

      // Leaving the role keeps the record linked, so that returning to it finds the same one.
      const buyer = await setRole(registered.id, 'buyer');
      expect(buyer.json().data).toMatchObject({ role: 'buyer', agent_id: record!.id });
      const back = await setRole(registered.id, 'agent');
      expect(back.json().data).toMatchObject({ role: 'agent', agent_id: record!.id });
      expect(await agentsOf(registered.id)).toHaveLength(1);
    });

    it('gives an agent without a record one when the role is set again', async () => {
      const user = await newUser(db(), { role: 'agent' }); // made without a record, as by a direct insert
      const res = await setRole(user.id, 'agent');
      expect(res.statusCode, res.body).toBe(200);
      expect(await agentsOf(user.id)).toHaveLength(1);
      expect(res.json().data.agent_id).toBe((await agentsOf(user.id))[0]!.id);
    });

    it('takes a slug no other record has', async () => {
      const first = await newUser(db(), { display_name: 'Same Name' });
      const second = await newUser(db(), { display_name: 'Same Name' });
      expect((await setRole(first.id, 'agent')).statusCode).toBe(200);
      expect((await setRole(second.id, 'agent')).statusCode).toBe(200);
      const slugs = [(await agentsOf(first.id))[0]!.slug, (await agentsOf(second.id))[0]!.slug];
      expect(new Set(slugs).size).toBe(2);
    });

    it('can make managers and administrators, who may then do what their role allows', async () => {
      const user = await newUser(db(), { role: 'buyer' });
      expect((await setRole(user.id, 'manager')).json().data.role).toBe('manager');
      const managerAuth = await signIn(t.app, user);
      expect((await t.app.inject({ method: 'GET', url: `${API}/users`, headers: managerAuth })).statusCode).toBe(200);
      expect((await setRole(admin.id, 'buyer', managerAuth)).statusCode).toBe(403);

      expect((await setRole(user.id, 'administrator')).json().data.role).toBe('administrator');
      const adminAgain = await signIn(t.app, user);
      const target = await newUser(db());
      expect((await setRole(target.id, 'seller', adminAgain)).statusCode).toBe(200);
    });

    it('refuses the caller’s own account with 409 and changes nothing', async () => {
      for (const role of ['buyer', 'administrator']) {
        const res = await setRole(admin.id, role);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual(errorBody('conflict'));
        expect(res.json().message).toBe('Administrators cannot change the role or status of their own account.');
      }
      expect((await userRow(admin.id)).role).toBe('administrator');
      expect((await me(adminAuth)).statusCode).toBe(200);
    });

    it('answers 404 for an unknown user and 400 for a bad id', async () => {
      const res = await setRole(2_000_000_000, 'seller');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody('not_found'));
      for (const id of ['0', 'abc', '2147483648']) {
        expect((await put(`/users/${id}/role`, adminAuth, { role: 'seller' })).statusCode, id).toBe(400);
      }
    });

    it('refuses a missing, unknown or extra field with 400 naming it', async () => {
      const user = await newUser(db());
      for (const [payload, field] of [
        [{}, 'role'],
        [{ role: 'root' }, 'role'],
        [{ role: 'Administrator' }, 'role'],
        [{ role: 7 }, 'role'],
        [{ role: 'seller', status: 'suspended' }, 'status'],
      ] as const) {
        const res = await put(`/users/${user.id}/role`, adminAuth, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().code).toBe('validation_failed');
        expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      expect((await userRow(user.id)).role).toBe('buyer');
    });

    it('is for administrators only: 401 anonymous, 403 for managers and every other role', async () => {
      const user = await newUser(db());
      expect((await setRole(user.id, 'seller', null)).json()).toEqual(errorBody('unauthorized'));
      for (const role of OTHER_ROLES) {
        const { auth } = await newSignedInUser(t, { role });
        const res = await setRole(user.id, 'seller', auth);
        expect(res.statusCode, role).toBe(403);
        expect(res.json()).toEqual(errorBody('forbidden'));
      }
      expect((await userRow(user.id)).role).toBe('buyer');
    });
  });

  describe('PUT /users/{id}/status', () => {
    it('suspends: the profile says so, the user’s tokens stop working at once and they cannot sign in', async () => {
      const { user, auth } = await newSignedInUser(t, { role: 'seller' });
      const tokens = (await login(user)).json().data;
      const res = await setStatus(user.id, 'suspended');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ user_id: user.id, role: 'seller', status: 'suspended' });
      expect((await userRow(user.id)).status).toBe('suspended');

      expect((await me(auth)).statusCode).toBe(401);
      expect((await me({ authorization: `Bearer ${tokens.token}` })).statusCode).toBe(401);
      expect((await refresh(tokens.refresh_token)).statusCode).toBe(401);
      const refused = await login(user);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(errorBody('account_suspended'));
      const grant = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/token`,
        payload: { grant_type: 'password', username: user.username, password: DEFAULT_PASSWORD },
      });
      expect(grant.json()).toEqual(errorBody('account_suspended'));
      const sessions = await db().selectFrom('sessions').select('revoked_at').where('user_id', '=', user.id).execute();
      expect(sessions.length).toBeGreaterThan(0);
      expect(sessions.every((session) => session.revoked_at !== null)).toBe(true);
    });

    it('is harmless to repeat, and reactivates: the user signs in again, old tokens stay dead', async () => {
      const { user, auth } = await newSignedInUser(t);
      expect((await setStatus(user.id, 'suspended')).statusCode).toBe(200);
      const again = await setStatus(user.id, 'suspended');
      expect(again.statusCode).toBe(200);
      expect(again.json().data.status).toBe('suspended');

      const back = await setStatus(user.id, 'active');
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json().data.status).toBe('active');
      expect((await me(auth)).statusCode).toBe(401);
      const fresh = await login(user);
      expect(fresh.statusCode, fresh.body).toBe(200);
      expect((await me({ authorization: `Bearer ${fresh.json().data.token}` })).json().data.status).toBe('active');
      // Reactivating an active account changes nothing and ends no session.
      const twice = await setStatus(user.id, 'active');
      expect(twice.statusCode).toBe(200);
      expect((await me({ authorization: `Bearer ${fresh.json().data.token}` })).statusCode).toBe(200);
    });

    it('keeps the suspended user’s listings and records as they are', async () => {
      const user = await t.services.users.createUser({
        username: unique('agency_'),
        email: `${unique('agency')}@example.test`,
        password: DEFAULT_PASSWORD,
        role: 'agency',
      });
      const res = await setStatus(user.id, 'suspended');
      expect(res.json().data).toMatchObject({ role: 'agency', agency_id: expect.any(Number), status: 'suspended' });
      expect(await agenciesOf(user.id)).toHaveLength(1);
    });

    it('refuses the caller’s own account with 409', async () => {
      for (const status of ['suspended', 'active']) {
        const res = await setStatus(admin.id, status);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual(errorBody('conflict'));
      }
      expect((await userRow(admin.id)).status).toBe('active');
      expect((await me(adminAuth)).statusCode).toBe(200);
    });

    it('answers 404 for an unknown user and 400 for bad input', async () => {
      expect((await setStatus(2_000_000_000, 'suspended')).json()).toEqual(errorBody('not_found'));
      const user = await newUser(db());
      for (const payload of [{}, { status: 'banned' }, { status: 'active', reason: 'x' }, { status: true }]) {
        const res = await put(`/users/${user.id}/status`, adminAuth, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().code).toBe('validation_failed');
      }
      expect((await put(`/users/abc/status`, adminAuth, { status: 'active' })).statusCode).toBe(400);
    });

    it('is for administrators only: 401 anonymous, 403 for managers and every other role', async () => {
      const user = await newUser(db());
      expect((await setStatus(user.id, 'suspended', null)).statusCode).toBe(401);
      for (const role of OTHER_ROLES) {
        const { auth } = await newSignedInUser(t, { role });
        const res = await setStatus(user.id, 'suspended', auth);
        expect(res.statusCode, role).toBe(403);
        expect(res.json()).toEqual(errorBody('forbidden'));
      }
      expect((await userRow(user.id)).status).toBe('active');
    });

    it('lets an administrator suspend another administrator, who then cannot administer', async () => {
      const { user: other, auth: otherAuth } = await newSignedInUser(t, { role: 'administrator' });
      expect((await setStatus(other.id, 'suspended')).statusCode).toBe(200);
      const target = await newUser(db());
      expect((await setRole(target.id, 'seller', otherAuth)).statusCode).toBe(401);
      expect((await setStatus(other.id, 'active')).statusCode).toBe(200);
    });

    it('reaches another server process on the same database at once', async () => {
      const peer = await buildPeerApp(t);
      try {
        const { user, auth } = await newSignedInUser(t);
        const onPeer = () => peer.app.inject({ method: 'GET', url: `${API}/users/me`, headers: auth });
        expect((await onPeer()).statusCode).toBe(200);
        expect((await onPeer()).statusCode).toBe(200); // from the peer's session cache where it keeps one
        expect((await setStatus(user.id, 'suspended')).statusCode).toBe(200);
        expect((await onPeer()).statusCode).toBe(401);
      } finally {
        await peer.close();
      }
    });
  });

  describe('the rules the accounts service keeps itself', () => {
    it('lets only an active administrator change an account: a demoted or suspended one gets 403', async () => {
      const target = await newUser(db());
      const demoted = await newUser(db(), { role: 'manager' });
      const suspended = await newUser(db(), { role: 'administrator', status: 'suspended' });
      for (const actor of [demoted, suspended]) {
        await expect(t.services.users.changeRole(actor.id, target.id, 'seller')).rejects.toMatchObject({ code: 'forbidden' });
        await expect(t.services.users.changeStatus(actor.id, target.id, 'suspended')).rejects.toMatchObject({ code: 'forbidden' });
      }
      expect(await userRow(target.id)).toMatchObject({ role: 'buyer', status: 'active' });
    });

    it('never lets two administrators demote each other at the same moment', async () => {
      const [a, b] = await Promise.all([newSignedInUser(t, { role: 'administrator' }), newSignedInUser(t, { role: 'administrator' })]);
      const answers = await Promise.all([setRole(b.user.id, 'buyer', a.auth), setRole(a.user.id, 'buyer', b.auth)]);
      // The loser finds it is no administrator any more: inside the change (403), or already at its token (401).
      const [won, lost] = answers.map((res) => res.statusCode).sort();
      expect(won).toBe(200);
      expect([401, 403]).toContain(lost);
      const roles = [(await userRow(a.user.id)).role, (await userRow(b.user.id)).role].sort();
      expect(roles).toEqual(['administrator', 'buyer']);
    });
  });

  describe('GET /users with `status`', () => {
    it('keeps the accounts of that status, and shows every user’s status', async () => {
      const marker = unique('Status');
      const active = await newUser(db(), { display_name: `${marker} active` });
      const suspended = await newUser(db(), { display_name: `${marker} suspended` });
      expect((await setStatus(suspended.id, 'suspended')).statusCode).toBe(200);
      const list = async (query: string) => {
        const res = await t.app.inject({ method: 'GET', url: `${API}/users?search=${marker}${query}`, headers: adminAuth });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data.users.map((u: { user_id: number; status: string }) => [u.user_id, u.status]);
      };
      expect(await list('')).toEqual([
        [suspended.id, 'suspended'],
        [active.id, 'active'],
      ]);
      expect(await list('&status=suspended')).toEqual([[suspended.id, 'suspended']]);
      expect(await list('&status=active')).toEqual([[active.id, 'active']]);
      expect(await list('&status=active&role=seller')).toEqual([]);
      const bad = await t.app.inject({ method: 'GET', url: `${API}/users?status=banned`, headers: adminAuth });
      expect(bad.statusCode).toBe(400);
    });
  });
});

describe.runIf(process.env.REDIS_URL)('suspension through Redis across processes', () => {
  let t: TestApp;
  let peer: Awaited<ReturnType<typeof buildPeerApp>>;
  let redisA: Redis;
  let redisB: Redis;

  beforeAll(async () => {
    redisA = new Redis(process.env.REDIS_URL as string);
    redisB = new Redis(process.env.REDIS_URL as string);
    t = await buildTestApp(DIALECTS.at(-1)!, {}, { redis: redisA });
    peer = await buildPeerApp(t, { redis: redisB });
    // Both revocation subscriptions are live once they are counted.
    await until(async () => (await redisA.pubsub('NUMSUB', 'realty-api:sessions:revoked'))[1] === 2);
  });
  afterAll(async () => {
    await peer.close();
    await t.close();
    redisA.disconnect();
    redisB.disconnect();
  });

  it('ends a suspended user’s cached sessions on every process, and a demoted user’s too', async () => {
    const { auth: adminAuth } = await newSignedInUser(t, { role: 'administrator' });
    for (const change of [
      { path: 'status', payload: { status: 'suspended' } },
      { path: 'role', payload: { role: 'buyer' } },
    ]) {
      const { user, auth } = await newSignedInUser(t, { role: 'manager' });
      const onPeer = () => peer.app.inject({ method: 'GET', url: `${API}/users`, headers: auth });
      expect((await onPeer()).statusCode).toBe(200);
      expect((await onPeer()).statusCode).toBe(200); // the peer now serves this session from its cache
      const res = await t.app.inject({
        method: 'PUT',
        url: `${API}/users/${user.id}/${change.path}`,
        headers: adminAuth,
        payload: change.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      await until(async () => (await onPeer()).statusCode === 401);
      expect((await onPeer()).statusCode).toBe(401);
    }
  });
});
