import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { addFavorite, bearer, DEFAULT_PASSWORD, newListing, newUser, tokenFor, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';

const FULL_KEYS = [
  'user_id',
  'email',
  'username',
  'display_name',
  'first_name',
  'last_name',
  'avatar_url',
  'phone',
  'mobile',
  'whatsapp',
  'properties_count',
  'favorites',
  'role',
  'bio',
  'website',
  'language',
  'registered_date',
  'agent_id',
  'agency_id',
  'status',
].sort();
const PUBLIC_KEYS = [
  'user_id',
  'display_name',
  'avatar_url',
  'role',
  'agent_id',
  'agency_id',
  'registered_date',
  'properties_count',
].sort();

describeEachDialect('reading profiles (%s)', (dialect) => {
  let t: TestApp;
  let buyer: UserRow;
  let buyerAuth: Record<string, string>;
  let adminAuth: Record<string, string>;
  let managerAuth: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    buyer = await newUser(t.database.db, { first_name: 'Ana', last_name: 'Diaz', phone: '+34 600', bio: 'Hello' });
    buyerAuth = bearer(await tokenFor(t.app, buyer));
    adminAuth = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'administrator' })));
    managerAuth = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'manager' })));
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers });

  describe('GET /users/me', () => {
    it('answers the full profile with every key, empty text as ""', async () => {
      const res = await get('/users/me', buyerAuth);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(Object.keys(body.data).sort()).toEqual(FULL_KEYS);
      expect(body.data).toEqual({
        user_id: buyer.id,
        email: buyer.email,
        username: buyer.username,
        display_name: buyer.display_name,
        first_name: 'Ana',
        last_name: 'Diaz',
        avatar_url: '',
        phone: '+34 600',
        mobile: '',
        whatsapp: '',
        properties_count: '0',
        favorites: '0',
        role: 'buyer',
        bio: 'Hello',
        website: '',
        language: '',
        registered_date: `${buyer.created_at.slice(0, 19)}Z`,
        agent_id: null,
        agency_id: null,
        status: 'active',
      });
    });

    it('counts published listings and favorites, as strings', async () => {
      const seller = await newUser(t.database.db, { role: 'seller' });
      const auth = bearer(await tokenFor(t.app, seller));
      const counts = async () => {
        const data = (await get('/users/me', auth)).json().data;
        return [data.properties_count, data.favorites];
      };
      expect(await counts()).toEqual(['0', '0']);

      const draft = await newListing(t.database.db, { author_id: seller.id, status: 'draft' });
      await newListing(t.database.db, { author_id: seller.id, status: 'pending' });
      await newListing(t.database.db, { author_id: seller.id, status: 'sold' });
      expect(await counts()).toEqual(['0', '0']);

      await newListing(t.database.db, { author_id: seller.id, status: 'publish' });
      await t.database.db.updateTable('listings').set({ status: 'publish' }).where('id', '=', draft).execute();
      expect(await counts()).toEqual(['2', '0']);

      await addFavorite(t.database.db, seller.id, draft);
      await addFavorite(t.database.db, seller.id, await newListing(t.database.db));
      expect(await counts()).toEqual(['2', '2']);
    });

    it('shows the agent and agency records of those roles', async () => {
      const agent = await t.services.users.createUser({
        username: unique('agent_'),
        email: `${unique('a')}@example.test`,
        password: DEFAULT_PASSWORD,
        role: 'agent',
      });
      const agency = await t.services.users.createUser({
        username: unique('agency_'),
        email: `${unique('b')}@example.test`,
        password: DEFAULT_PASSWORD,
        role: 'agency',
      });
      const agentData = (await get('/users/me', bearer(await tokenFor(t.app, agent)))).json().data;
      const agencyData = (await get('/users/me', bearer(await tokenFor(t.app, agency)))).json().data;
      expect(agentData.agent_id).toEqual(expect.any(Number));
      expect(agentData.agency_id).toBeNull();
      expect(agencyData.agency_id).toEqual(expect.any(Number));
      expect(agencyData.agent_id).toBeNull();
    });
  });

  describe('GET /users/{id}', () => {
    it('answers the full profile to the user themself, administrators and managers', async () => {
      for (const auth of [buyerAuth, adminAuth, managerAuth]) {
        const res = await get(`/users/${buyer.id}`, auth);
        expect(res.statusCode, res.body).toBe(200);
        expect(Object.keys(res.json().data).sort()).toEqual(FULL_KEYS);
        expect(res.json().data).toMatchObject({ user_id: buyer.id, email: buyer.email, phone: '+34 600' });
      }
    });

    it('answers the public profile to other users: no e-mail address or phone numbers', async () => {
      const seller = await newUser(t.database.db, { role: 'seller', phone: '+1 555', mobile: '+1 556' });
      await newListing(t.database.db, { author_id: seller.id });
      for (const role of ['buyer', 'agent', 'agency', 'owner', 'seller'] as const) {
        const auth = bearer(await tokenFor(t.app, await newUser(t.database.db, { role })));
        const res = await get(`/users/${seller.id}`, auth);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data).toEqual({
          user_id: seller.id,
          display_name: seller.display_name,
          avatar_url: '',
          role: 'seller',
          agent_id: null,
          agency_id: null,
          registered_date: `${seller.created_at.slice(0, 19)}Z`,
          properties_count: '1',
        });
        expect(Object.keys(res.json().data).sort()).toEqual(PUBLIC_KEYS);
        expect(res.body).not.toContain(seller.email);
        expect(res.body).not.toContain('+1 55');
      }
    });

    it('answers 404 for an unknown or deleted user, whoever asks', async () => {
      const gone = await newUser(t.database.db);
      await t.database.db.deleteFrom('users').where('id', '=', gone.id).execute();
      for (const id of [gone.id, 2_147_483_647]) {
        for (const auth of [buyerAuth, adminAuth]) {
          const res = await get(`/users/${id}`, auth);
          expect(res.statusCode).toBe(404);
          expect(res.json().code).toBe('not_found');
        }
      }
    });

    it('refuses ids that are not integers from 1 to the int4 maximum', async () => {
      for (const id of ['0', '-1', 'abc', '1.5', '2147483648']) {
        const res = await get(`/users/${id}`, adminAuth);
        expect(res.statusCode, id).toBe(400);
        expect(res.json().errors[0].field).toBe('id');
      }
    });
  });

  describe('authentication', () => {
    const ROUTES = [
      ['GET', '/users/me'],
      ['PUT', '/users/profile'],
      ['DELETE', '/users/delete-profile'],
      ['GET', '/users/1'],
      ['GET', '/users'],
      ['DELETE', '/users/1'],
    ] as const;

    it('answers 401 to every route without a token or with a bad one', async () => {
      for (const [method, url] of ROUTES) {
        for (const headers of [{}, { authorization: 'Bearer not.a.token' }]) {
          const res = await t.app.inject({ method, url: `${API}${url}`, headers, ...(method === 'PUT' ? { payload: {} } : {}) });
          expect(res.statusCode, `${method} ${url}`).toBe(401);
        }
      }
    });
  });
});
