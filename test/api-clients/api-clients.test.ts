import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPeerApp, buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECTS, describeEachDialect } from '../helpers/database.js';
import { type Auth, bearer, newSignedInUser, newUser } from '../helpers/factories.js';
import { until } from '../helpers/until.js';

const API = '/realty-api/v1';
const SEARCH = `${API}/properties/search`;
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface CreatedClient {
  id: number;
  client_id: string;
  secret: string;
  scopes: string[];
}

/** What every test here does: manage clients as an administrator, call the API with a credential. */
function clientHarness(t: () => TestApp, admin: () => Auth) {
  const call = (method: Method, url: string, payload?: object, headers: Auth = admin()) =>
    t().app.inject({ method, url: `${API}${url}`, headers, ...(payload === undefined ? {} : { payload }) });
  return {
    call,
    async newClient(body: object = {}): Promise<CreatedClient> {
      const res = await call('POST', '/api-clients', { name: 'CRM sync', scopes: ['listings:read'], ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as CreatedClient;
    },
    /** A client-credentials grant, as a form with HTTP Basic (what OAuth libraries send). */
    grant(client: { client_id: string; secret: string }, extra: Record<string, string> = {}, app = t().app) {
      return app.inject({
        method: 'POST',
        url: `${API}/oauth/token`,
        headers: {
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({ grant_type: 'client_credentials', ...extra }).toString(),
      });
    },
    search(credential: string, app = t().app) {
      return app.inject({ method: 'GET', url: SEARCH, headers: bearer(credential) });
    },
  };
}

describeEachDialect('machine clients (%s)', (dialect) => {
  let t: TestApp;
  let admin: Auth;
  let adminId: number;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { METRICS_TOKEN: 'metrics-token-for-tests-0123456789' });
    const signedIn = await newSignedInUser(t, { role: 'administrator' });
    admin = signedIn.auth;
    adminId = signedIn.user.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const { call, newClient, grant, search } = clientHarness(
    () => t,
    () => admin,
  );

  describe('management', () => {
    it('shows the secret once; lists, reads and changes a client; unknown ids → 404', async () => {
      const created = await newClient({ description: '<b>Nightly</b> export', allowed_addresses: ['127.0.0.1', '10.0.0.0/8'] });
      expect(created.secret).toMatch(/^rak_[A-Za-z0-9_-]{43}$/);
      expect(created.client_id).toMatch(/^rc_/);
      const read = (await call('GET', `/api-clients/${created.id}`)).json().data;
      expect(read).toMatchObject({
        name: 'CRM sync',
        description: 'Nightly export',
        scopes: ['listings:read'],
        allowed_addresses: ['127.0.0.1', '10.0.0.0/8'],
        rate_limit_per_minute: t.config.rateLimit.perMinute,
        created_by: { id: adminId },
        revoked_at: null,
      });
      expect(read.secrets).toEqual([{ hint: `${created.secret.slice(0, 8)}…`, created_at: expect.any(String), expires_at: null }]);
      expect(read.secret).toBeUndefined();
      const list = (await call('GET', '/api-clients')).json().data;
      expect(list.api_clients.map((client: { id: number }) => client.id)).toContain(created.id);
      expect(JSON.stringify(list)).not.toContain(created.secret);

      const patched = await call('PATCH', `/api-clients/${created.id}`, {
        scopes: ['listings:write', 'listings:read'],
        allowed_addresses: null,
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json().data).toMatchObject({ scopes: ['listings:read', 'listings:write'], allowed_addresses: null });

      for (const [method, url] of [
        ['GET', '/api-clients/999999'],
        ['PATCH', '/api-clients/999999'],
        ['DELETE', '/api-clients/999999'],
        ['POST', '/api-clients/999999/rotate-secret'],
        ['POST', '/api-clients/999999/revoke'],
      ] as const) {
        expect((await call(method, url, method === 'PATCH' ? { name: 'x' } : undefined)).statusCode, `${method} ${url}`).toBe(404);
      }
    });

    it('refuses bad input with the field named, and every caller but an administrator', async () => {
      const bad = await call('POST', '/api-clients', {
        name: 'x',
        scopes: ['listings:read'],
        allowed_addresses: ['10.0.0.1', '10.0.0.0/33'],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual([expect.objectContaining({ field: 'allowed_addresses.1' })]);
      for (const body of [
        { name: 'x', scopes: [] },
        { name: 'x', scopes: ['root'] },
        { name: 'x', scopes: ['listings:read'], secret: 'mine' },
        { name: '<b></b>', scopes: ['listings:read'] },
        { name: 'x', scopes: ['listings:read'], rate_limit_per_minute: 0 },
      ]) {
        expect((await call('POST', '/api-clients', body)).statusCode, JSON.stringify(body)).toBe(400);
      }
      const agent = await newSignedInUser(t, { role: 'agent' });
      expect((await call('GET', '/api-clients', undefined, agent.auth)).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: `${API}/api-clients` })).statusCode).toBe(401);
      // A client never manages clients, whatever its scopes.
      const client = await newClient({ scopes: ['listings:read', 'webhooks:manage', 'users:read'] });
      expect((await call('GET', '/api-clients', undefined, bearer(client.secret))).statusCode).toBe(403);
      expect((await call('POST', `/api-clients/${client.id}/rotate-secret`, {}, bearer(client.secret))).statusCode).toBe(403);
    });
  });

  describe('scopes', () => {
    it('opens what a scope grants and refuses the rest with 403 naming the scope', async () => {
      const reader = await newClient({ scopes: ['listings:read'] });
      expect((await search(reader.secret)).statusCode).toBe(200);
      const write = await call('POST', '/properties', { title: 'By a machine', price: 1 }, bearer(reader.secret));
      expect(write.statusCode).toBe(403);
      expect(write.json().message).toContain('listings:write');
      // Routes no scope opens: a person's own account and the creator's sign-in.
      expect((await call('GET', '/users/me', undefined, bearer(reader.secret))).statusCode).toBe(403);
      expect((await call('POST', '/auth/logout', {}, bearer(reader.secret))).statusCode).toBe(403);
      expect((await call('GET', '/users', undefined, bearer(reader.secret))).statusCode).toBe(403);
      const notOffered = await call('GET', '/notifications', undefined, bearer(reader.secret));
      expect(notOffered.statusCode).toBe(403);
      expect(notOffered.json().message).toContain('not offered to machine clients');
      // The API's description, and what lies outside the API, answer any client.
      expect((await call('GET', '/openapi.json', undefined, bearer(reader.secret))).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/health', headers: bearer(reader.secret) })).statusCode).toBe(200);

      const writer = await newClient({ scopes: ['listings:write', 'listings:read'] });
      const created = await call('POST', '/properties', { title: 'By a machine', price: 1 }, bearer(writer.secret));
      expect(created.statusCode, created.body).toBe(201);
      // The client acts as the administrator who made it.
      expect(created.json().data.author_id ?? created.json().data.author?.id).toBe(adminId);
      // A path no route has is still a 404, not a refusal.
      expect((await call('GET', '/no-such-route', undefined, bearer(writer.secret))).statusCode).toBe(404);
    });

    it('acts with the creator’s current rights: a demoted creator narrows them, a suspended one stops the client', async () => {
      const creator = await newSignedInUser(t, { role: 'administrator' });
      const res = await call('POST', '/api-clients', { name: 'Moderation bot', scopes: ['listings:read'] }, creator.auth);
      const client = res.json().data as CreatedClient;
      expect((await call('GET', '/properties/moderation', undefined, bearer(client.secret))).statusCode).toBe(200);
      await t.database.db.updateTable('users').set({ role: 'agent' }).where('id', '=', creator.user.id).execute();
      expect((await call('GET', '/properties/moderation', undefined, bearer(client.secret))).statusCode).toBe(403);
      await t.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', creator.user.id).execute();
      const suspended = await search(client.secret);
      expect(suspended.statusCode).toBe(403);
      expect(suspended.json().code).toBe('account_suspended');
    });
  });

  describe('client-credentials grant', () => {
    it('issues short-lived tokens by HTTP Basic or by the body, narrowed to the scopes asked for', async () => {
      const client = await newClient({ scopes: ['listings:read', 'listings:write'] });
      const res = await grant(client, { scope: 'listings:read' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const answer = res.json();
      expect(answer).toEqual({
        access_token: expect.stringMatching(/^rat_/),
        token_type: 'Bearer',
        expires_in: t.config.accessTokenTtlSeconds,
        scope: 'listings:read',
      });
      expect((await search(answer.access_token)).statusCode).toBe(200);
      // The token has the scopes it asked for, not all of the client's.
      expect((await call('POST', '/properties', { title: 'x', price: 1 }, bearer(answer.access_token))).statusCode).toBe(403);

      const json = await t.app.inject({
        method: 'POST',
        url: `${API}/oauth/token`,
        payload: { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.secret },
      });
      expect(json.statusCode, json.body).toBe(200);
      expect(json.json().scope).toBe('listings:read listings:write');
    });

    it('refuses wrong credentials (401), two ways at once and foreign scopes (400)', async () => {
      const client = await newClient();
      const other = await newClient();
      expect((await grant({ client_id: client.client_id, secret: other.secret })).statusCode).toBe(401);
      expect((await grant({ client_id: client.client_id, secret: `${client.secret}x` })).statusCode).toBe(401);
      expect((await grant(client, { client_secret: client.secret })).statusCode).toBe(400);
      const foreign = await grant(client, { scope: 'listings:read users:read' });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().errors).toEqual([expect.objectContaining({ field: 'scope' })]);
      expect((await grant(client, { grant_type: 'password' })).statusCode).toBe(400);
      // A made-up token of the right shape is refused like any bad bearer token.
      expect((await search(`rat_${'A'.repeat(43)}`)).statusCode).toBe(401);
      expect((await search(`rak_${'A'.repeat(43)}`)).statusCode).toBe(401);
    });
  });

  describe('rotation and revocation', () => {
    it('keeps the old secret through the overlap, or ends it at once with no overlap', async () => {
      const client = await newClient();
      const rotated = await call('POST', `/api-clients/${client.id}/rotate-secret`, { overlap_seconds: 3600 });
      expect(rotated.statusCode, rotated.body).toBe(200);
      const { secret, previous_secret_expires_at } = rotated.json().data;
      expect(Date.parse(previous_secret_expires_at) - Date.now()).toBeGreaterThan(3500_000);
      expect((await search(client.secret)).statusCode).toBe(200);
      expect((await search(secret)).statusCode).toBe(200);
      expect((await call('GET', `/api-clients/${client.id}`)).json().data.secrets).toHaveLength(2);

      const again = (await call('POST', `/api-clients/${client.id}/rotate-secret`, { overlap_seconds: 0 })).json().data;
      expect((await search(client.secret)).statusCode).toBe(401);
      expect((await search(secret)).statusCode).toBe(401);
      expect((await search(again.secret)).statusCode).toBe(200);
      expect((await grant({ client_id: client.client_id, secret })).statusCode).toBe(401);
    });

    it('ends the secret and every token at once on revocation, and keeps the client listed', async () => {
      const client = await newClient();
      const token = (await grant(client)).json().access_token as string;
      expect((await search(token)).statusCode).toBe(200);
      const revoked = await call('POST', `/api-clients/${client.id}/revoke`, {});
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(revoked.json().data.revoked_at).not.toBeNull();
      expect((await search(token)).statusCode).toBe(401);
      expect((await search(client.secret)).statusCode).toBe(401);
      expect((await grant(client)).statusCode).toBe(401);
      expect((await call('PATCH', `/api-clients/${client.id}`, { name: 'again' })).statusCode).toBe(409);
      expect((await call('POST', `/api-clients/${client.id}/rotate-secret`, {})).statusCode).toBe(409);
      expect((await call('DELETE', `/api-clients/${client.id}`)).json().data).toEqual({ id: client.id, deleted: true });
      expect((await call('GET', `/api-clients/${client.id}`)).statusCode).toBe(404);
    });

    it('applies narrowed scopes to tokens already issued', async () => {
      const client = await newClient({ scopes: ['listings:read', 'leads:read'] });
      const token = (await grant(client)).json().access_token as string;
      expect((await call('GET', '/users/leads', undefined, bearer(token))).statusCode).toBe(200);
      await call('PATCH', `/api-clients/${client.id}`, { scopes: ['listings:read'] });
      expect((await call('GET', '/users/leads', undefined, bearer(token))).statusCode).toBe(403);
      expect((await search(token)).statusCode).toBe(200);
    });

    it('takes effect in another process on the same database', async () => {
      const peer = await buildPeerApp(t);
      try {
        const client = await newClient();
        const token = (await grant(client)).json().access_token as string;
        expect((await search(client.secret, peer.app)).statusCode).toBe(200);
        expect((await search(token, peer.app)).statusCode).toBe(200);
        await call('POST', `/api-clients/${client.id}/revoke`, {});
        await until(async () => (await search(client.secret, peer.app)).statusCode === 401);
        expect((await search(token, peer.app)).statusCode).toBe(401);
      } finally {
        await peer.close();
      }
    });
  });

  describe('webhook endpoints', () => {
    it('are owned by the client that makes them: it sees only its own, administrators see all', async () => {
      const hook = { url: 'https://crm.example.com/hooks', events: ['listing.created'] };
      const mine = await newClient({ scopes: ['webhooks:manage'] });
      const theirs = await newClient({ scopes: ['webhooks:manage'] });
      const made = await call('POST', '/webhooks', hook, bearer(mine.secret));
      expect(made.statusCode, made.body).toBe(201);
      const endpoint = made.json().data;
      expect(endpoint.owner).toEqual({ type: 'client', id: mine.id });
      const byAdmin = (await call('POST', '/webhooks', hook)).json().data;

      const listed = (await call('GET', '/webhooks', undefined, bearer(mine.secret))).json().data;
      expect(listed.webhooks.map((w: { id: number }) => w.id)).toEqual([endpoint.id]);
      expect((await call('GET', '/webhooks', undefined, bearer(theirs.secret))).json().data.webhooks).toEqual([]);
      for (const [method, url] of [
        ['GET', `/webhooks/${endpoint.id}`],
        ['PATCH', `/webhooks/${endpoint.id}`],
        ['DELETE', `/webhooks/${endpoint.id}`],
        ['GET', `/webhooks/${endpoint.id}/deliveries`],
        ['POST', `/webhooks/${endpoint.id}/replay`],
      ] as const) {
        const payload = method === 'PATCH' ? { enabled: false } : method === 'POST' ? { from_sequence: 0 } : undefined;
        expect((await call(method, url, payload, bearer(theirs.secret))).statusCode, `${method} ${url}`).toBe(404);
      }
      expect((await call('GET', `/webhooks/${byAdmin.id}`, undefined, bearer(mine.secret))).statusCode).toBe(404);
      expect((await call('GET', `/webhooks/${endpoint.id}`, undefined, bearer(mine.secret))).statusCode).toBe(200);
      const all = (await call('GET', '/webhooks')).json().data.webhooks.map((w: { id: number }) => w.id);
      expect(all).toEqual(expect.arrayContaining([endpoint.id, byAdmin.id]));
      // Without the scope, no webhook route at all.
      const reader = await newClient({ scopes: ['listings:read'] });
      expect((await call('GET', '/webhooks', undefined, bearer(reader.secret))).statusCode).toBe(403);
      for (const { id } of [endpoint, byAdmin]) await call('DELETE', `/webhooks/${id}`);
    });
  });

  describe('addresses, budgets and attribution', () => {
    it('refuses a call from an address outside the allow-list, an IPv4 address mapped to IPv6 included', async () => {
      const client = await newClient({ allowed_addresses: ['10.0.0.0/8', '2001:db8::/32'] });
      const from = (remoteAddress: string) => t.app.inject({ method: 'GET', url: SEARCH, headers: bearer(client.secret), remoteAddress });
      expect((await from('10.1.2.3')).statusCode).toBe(200);
      expect((await from('::ffff:10.1.2.3')).statusCode).toBe(200);
      expect((await from('2001:db8::7')).statusCode).toBe(200);
      const refused = await from('192.0.2.1');
      expect(refused.statusCode).toBe(403);
      expect((await from('::ffff:192.0.2.1')).statusCode).toBe(403);
      expect((await grant(client)).statusCode).toBe(403); // inject's own address is 127.0.0.1
    });

    it('counts each client’s requests in /metrics under its client_id', async () => {
      const client = await newClient();
      await search(client.secret);
      await search(client.secret);
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer('metrics-token-for-tests-0123456789') });
      expect(metrics.body).toContain(`realty_api_client_requests_total{client="${client.client_id}",status="200"} 2`);
    });
  });
});

describe('machine clients’ own rate limits', () => {
  let t: TestApp;
  let admin: Auth;

  beforeAll(async () => {
    t = await buildTestApp('sqlite', { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '5', AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    const user = await newUser(t.database.db, { role: 'administrator' });
    admin = bearer((await t.services.auth.signIn(user)).token);
  });
  afterAll(async () => {
    await t.close();
  });

  const { newClient, search } = clientHarness(
    () => t,
    () => admin,
  );

  it('meters a client by its own budget, apart from the address’s and from other clients', async () => {
    const small = await newClient({ rate_limit_per_minute: 2 });
    const large = await newClient({ rate_limit_per_minute: 20 });
    expect((await search(small.secret)).statusCode).toBe(200);
    expect((await search(small.secret)).statusCode).toBe(200);
    const over = await search(small.secret);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Ten requests: past the address's budget of 5, within the client's own.
    for (let i = 0; i < 10; i++) expect((await search(large.secret)).statusCode).toBe(200);
  });

  it('keeps the address’s budget on a route that reads a credential of its own, whatever the header says', async () => {
    // POST /oauth/token reads HTTP Basic: a client's bearer header there is refused by the route, never checked.
    const grant = () =>
      t.app.inject({
        method: 'POST',
        url: `${API}/oauth/token`,
        headers: bearer(`rak_${'B'.repeat(43)}`),
        payload: { grant_type: 'client_credentials' },
        remoteAddress: '192.0.2.9',
      });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await grant()).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('refuses made-up credentials within the address’s budget of refusals', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await search(`rak_${String(i).repeat(43)}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });
});

describe.runIf(process.env.REDIS_URL)('machine client revocation through Redis across processes', () => {
  let t: TestApp;
  let peer: Awaited<ReturnType<typeof buildPeerApp>>;
  let redisA: Redis;
  let redisB: Redis;
  let admin: Auth;

  beforeAll(async () => {
    redisA = new Redis(process.env.REDIS_URL as string);
    redisB = new Redis(process.env.REDIS_URL as string);
    t = await buildTestApp(DIALECTS.at(-1)!, {}, { redis: redisA });
    peer = await buildPeerApp(t, { redis: redisB });
    await until(async () => (await redisA.pubsub('NUMSUB', 'realty-api:sessions:revoked'))[1] === 2);
    const user = await newUser(t.database.db, { role: 'administrator' });
    admin = bearer((await t.services.auth.signIn(user)).token);
  });
  afterAll(async () => {
    await peer.close();
    await t.close();
    redisA.disconnect();
    redisB.disconnect();
  });

  const { call, newClient, grant, search } = clientHarness(
    () => t,
    () => admin,
  );

  it('a revoked key and token, and a secret rotated with no overlap, stop in the other process', async () => {
    const client = await newClient();
    const token = (await grant(client)).json().access_token as string;
    expect((await search(client.secret, peer.app)).statusCode).toBe(200);
    expect((await search(token, peer.app)).statusCode).toBe(200);

    const rotated = (await call('POST', `/api-clients/${client.id}/rotate-secret`, { overlap_seconds: 0 })).json().data;
    await until(async () => (await search(client.secret, peer.app)).statusCode === 401);
    expect((await search(rotated.secret, peer.app)).statusCode).toBe(200);
    expect((await search(token, peer.app)).statusCode).toBe(200);

    await call('POST', `/api-clients/${client.id}/revoke`, {});
    await until(async () => (await search(token, peer.app)).statusCode === 401);
    expect((await search(rotated.secret, peer.app)).statusCode).toBe(401);
  });
});
