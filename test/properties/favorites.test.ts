import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import { FavoritesService } from '../../src/modules/properties/lists/favorites.service.js';
import type { PropertiesService } from '../../src/modules/properties/properties.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newAgencyWithAgent, newListing, newUser, signIn, tokenFor } from '../helpers/factories.js';
import { errorBody, pagination } from '../helpers/expectations.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

describeEachDialect('favorites (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;
  let sellerAuth: Auth;
  let buyer: UserRow;
  let buyerAuth: Auth;
  let otherBuyerAuth: Auth;
  let managerAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    seller = await newUser(db, { role: 'seller' });
    buyer = await newUser(db, { role: 'buyer' });
    [sellerAuth, buyerAuth, otherBuyerAuth, managerAuth] = await Promise.all([
      signIn(t.app, seller),
      signIn(t.app, buyer),
      signIn(t.app, await newUser(db, { role: 'buyer' })),
      signIn(t.app, await newUser(db, { role: 'manager' })),
    ]);
  });
  afterAll(() => t.close());

  const listing = (status: ListingState = 'publish', authorId = seller.id) => newListing(db, { status, author_id: authorId });
  /** POST /favorite-property/{id}: no body at all (no Content-Type either) unless `payload` is given. */
  const favorite = (auth: Auth | undefined, id: number, payload?: object) =>
    t.app.inject({ method: 'POST', url: `${API}/favorite-property/${id}`, headers: auth ?? {}, ...(payload ? { payload } : {}) });
  const listFavorites = (auth: Auth | undefined, query = '') =>
    t.app.inject({ method: 'GET', url: `${API}/users/favorite-properties${query}`, headers: auth ?? {} });
  const expectResult = (res: LightMyRequestResponse, added: boolean, count: number) => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { added, favorites_count: count } });
  };
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(errorBody(code));
  };
  const favoriteRows = (listingId: number) =>
    db.selectFrom('favorites').select('user_id').where('listing_id', '=', listingId).orderBy('user_id').execute();
  const storeFavorite = (userId: number, listingId: number, at: string) =>
    db.insertInto('favorites').values({ user_id: userId, listing_id: listingId, created_at: at }).execute();

  describe('POST /favorite-property/{id}', () => {
    it('toggles when sent without a body and without a Content-Type', async () => {
      const id = await listing();
      const first = await favorite(buyerAuth, id);
      expect(first.raw.req.headers['content-type']).toBeUndefined();
      expectResult(first, true, 1);
      expect(await favoriteRows(id)).toEqual([{ user_id: buyer.id }]);
      expectResult(await favorite(buyerAuth, id), false, 0);
      expect(await favoriteRows(id)).toEqual([]);
    });

    it('toggles with an empty JSON object', async () => {
      const id = await listing();
      expectResult(await favorite(buyerAuth, id, {}), true, 1);
      expectResult(await favorite(buyerAuth, id, {}), false, 0);
    });

    it('sets with {favorite}, idempotently', async () => {
      const id = await listing();
      expectResult(await favorite(buyerAuth, id, { favorite: true }), true, 1);
      expectResult(await favorite(buyerAuth, id, { favorite: true }), true, 1);
      expectResult(await favorite(buyerAuth, id, { favorite: false }), false, 0);
      expectResult(await favorite(buyerAuth, id, { favorite: false }), false, 0);
      expect(await favoriteRows(id)).toEqual([]);
    });

    it('counts the favorites of every user in favorites_count', async () => {
      const id = await listing();
      expectResult(await favorite(buyerAuth, id, { favorite: true }), true, 1);
      expectResult(await favorite(otherBuyerAuth, id), true, 2);
      expectResult(await favorite(sellerAuth, id, { favorite: true }), true, 3);
      expectResult(await favorite(otherBuyerAuth, id), false, 2);
      expectResult(await favorite(buyerAuth, id, { favorite: false }), false, 1);
      // Another listing's favorites do not count.
      expectResult(await favorite(buyerAuth, await listing(), { favorite: true }), true, 1);
    });

    it('accepts sold listings, and the caller’s own listings in any state', async () => {
      expectResult(await favorite(buyerAuth, await listing('sold')), true, 1);
      expectResult(await favorite(sellerAuth, await listing('pending')), true, 1);
      expectResult(await favorite(sellerAuth, await listing('draft')), true, 1);
    });

    it('lets administrators and managers favorite any listing', async () => {
      expectResult(await favorite(managerAuth, await listing('pending')), true, 1);
    });

    it('answers 404 for a listing the caller may not see, adding and removing alike', async () => {
      for (const state of ['pending', 'draft', 'disapproved', 'on_hold', 'expired'] as const) {
        const id = await listing(state);
        expectError(await favorite(buyerAuth, id), 404, 'not_found');
        expectError(await favorite(buyerAuth, id, { favorite: false }), 404, 'not_found');
        expect(await favoriteRows(id)).toEqual([]);
      }
      expectError(await favorite(buyerAuth, 2_000_000_000), 404, 'not_found');
    });

    it('lets an agency favorite its agent’s unpublished listing', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      const id = await listing('pending', agentUser.id);
      expectResult(await favorite(bearer(await tokenFor(t.app, agencyUser)), id), true, 1);
    });

    it('answers 401 without a token, and with a bad one', async () => {
      const id = await listing();
      expectError(await favorite(undefined, id), 401, 'unauthorized');
      expectError(await favorite({ authorization: 'Bearer nonsense' }, id), 401, 'invalid_token');
      expect(await favoriteRows(id)).toEqual([]);
    });

    it('refuses unknown fields, wrong types and bad ids with 400', async () => {
      const id = await listing();
      expectError(await favorite(buyerAuth, id, { favorite: 'yes' }), 400, 'validation_failed');
      expectError(await favorite(buyerAuth, id, { favorite: true, user_id: seller.id }), 400, 'validation_failed');
      expectError(await favorite(buyerAuth, 0), 400, 'validation_failed');
      expectError(await favorite(buyerAuth, id, [true] as unknown as object), 400, 'validation_failed');
      expect(await favoriteRows(id)).toEqual([]);
    });

    it('answers an empty body declared as JSON with 400 invalid_json', async () => {
      const id = await listing();
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/favorite-property/${id}`,
        headers: { ...buyerAuth, 'content-type': 'application/json' },
        payload: '',
      });
      expectError(res, 400, 'invalid_json');
    });

    it('survives concurrent identical requests', async () => {
      const id = await listing();
      const sets = await Promise.all([1, 2, 3].map(() => favorite(buyerAuth, id, { favorite: true })));
      for (const res of sets) expectResult(res, true, 1);
      const unsets = await Promise.all([1, 2, 3].map(() => favorite(buyerAuth, id, { favorite: false })));
      for (const res of unsets) expectResult(res, false, 0);
      // Racing toggles all succeed; each reports a consistent answer.
      const toggles = await Promise.all([1, 2].map(() => favorite(buyerAuth, id)));
      for (const res of toggles) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.favorites_count).toBe(res.json().data.added ? 1 : 0);
      }
    });

    it('answers 404 when the listing is deleted between the visibility check and the write', async () => {
      // A PropertiesService that still sees a listing which no longer exists, as in that race.
      const stale = {
        findAccess: async (id: number) => ({ id, status: 'publish', authorId: null, authorAgencyUserId: null }),
      } as unknown as PropertiesService;
      const caller = { id: buyer.id, role: 'buyer', sessionId: 's', tokenExpiresAt: new Date() } as const;
      for (const favorite of [true, undefined]) {
        await expect(new FavoritesService(db, stale).setFavorite(caller, 2_000_000_001, favorite)).rejects.toMatchObject({
          status: 404,
          code: 'not_found',
        });
      }
    });

    it('answers 404 when the listing is deleted, and drops its favorites with it', async () => {
      const id = await listing();
      expectResult(await favorite(buyerAuth, id), true, 1);
      await db.deleteFrom('listings').where('id', '=', id).execute();
      expectError(await favorite(buyerAuth, id), 404, 'not_found');
      expect(await favoriteRows(id)).toEqual([]);
    });
  });

  describe('GET /users/favorite-properties', () => {
    let reader: UserRow;
    let readerAuth: Auth;
    beforeAll(async () => {
      reader = await newUser(db, { role: 'buyer' });
      readerAuth = bearer(await tokenFor(t.app, reader));
    });

    it('lists the caller’s favorites, newest favorite first, ties by listing id descending', async () => {
      const [a, b, c, d] = [await listing(), await listing('sold'), await listing(), await listing()];
      await storeFavorite(reader.id, a!, '2026-01-03T00:00:00.000Z');
      await storeFavorite(reader.id, b!, '2026-01-01T00:00:00.000Z');
      await storeFavorite(reader.id, c!, '2026-01-02T00:00:00.000Z');
      await storeFavorite(reader.id, d!, '2026-01-02T00:00:00.000Z');
      // Someone else's favorite is not the caller's.
      await storeFavorite(buyer.id, await listing(), '2026-01-04T00:00:00.000Z');

      const res = await listFavorites(readerAuth);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'success']);
      expect(body.success).toBe(true);
      expect(Object.keys(body.data).sort()).toEqual(['pagination', 'properties']);
      expect(body.data.properties.map((p: { id: number }) => p.id)).toEqual([a, d, c, b]);
      expect(body.data.pagination).toEqual(pagination(4, 1, 10));
      for (const property of body.data.properties) {
        expect(property).toMatchObject({ is_favorite: true, author: { id: seller.id } });
        expect(property).not.toHaveProperty('description');
        expect(property).not.toHaveProperty('floor_plans');
      }
      expect(body.data.properties[3].status).toBe('sold');

      const second = (await listFavorites(readerAuth, '?per_page=3&page=2')).json().data;
      expect(second.properties.map((p: { id: number }) => p.id)).toEqual([b]);
      expect(second.pagination).toEqual(pagination(4, 2, 3));
      const aliased = (await listFavorites(readerAuth, '?per_page=3&paged=2')).json().data;
      expect(aliased.properties.map((p: { id: number }) => p.id)).toEqual([b]);
      const past = (await listFavorites(readerAuth, '?page=9')).json().data;
      expect(past).toEqual({ properties: [], pagination: pagination(4, 9, 10) });
    });

    it('leaves out, and does not count, favorites the caller may no longer see', async () => {
      const user = await newUser(db, { role: 'buyer' });
      const auth = bearer(await tokenFor(t.app, user));
      const [kept, hidden] = [await listing(), await listing()];
      expectResult(await favorite(auth, kept), true, 1);
      expectResult(await favorite(auth, hidden), true, 1);
      await db.updateTable('listings').set({ status: 'pending' }).where('id', '=', hidden).execute();

      const data = (await listFavorites(auth)).json().data;
      expect(data.properties.map((p: { id: number }) => p.id)).toEqual([kept]);
      expect(data.pagination.total_records).toBe(1);

      // Published again, it is back.
      await db.updateTable('listings').set({ status: 'publish' }).where('id', '=', hidden).execute();
      expect((await listFavorites(auth)).json().data.pagination.total_records).toBe(2);
    });

    it('keeps the caller’s own and their agents’ unpublished listings, and everything for moderators', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      const own = await listing('draft', agencyUser.id);
      const agents = await listing('pending', agentUser.id);
      const foreign = await listing('publish');
      for (const id of [own, agents, foreign]) await storeFavorite(agencyUser.id, id, new Date().toISOString());
      await db.updateTable('listings').set({ status: 'on_hold' }).where('id', '=', foreign).execute();
      const agencyAuth = bearer(await tokenFor(t.app, agencyUser));
      const ids = (await listFavorites(agencyAuth)).json().data.properties.map((p: { id: number }) => p.id);
      expect(ids.sort()).toEqual([own, agents].sort());

      const manager = await newUser(db, { role: 'manager' });
      for (const id of [own, agents, foreign]) await storeFavorite(manager.id, id, new Date().toISOString());
      const managerIds = (await listFavorites(bearer(await tokenFor(t.app, manager))))
        .json()
        .data.properties.map((p: { id: number }) => p.id);
      expect(managerIds.sort()).toEqual([own, agents, foreign].sort());
    });

    it('answers an empty list when there are none', async () => {
      const res = await listFavorites(bearer(await tokenFor(t.app, await newUser(db))));
      expect(res.json()).toEqual({ success: true, data: { properties: [], pagination: pagination(0, 1, 10) } });
    });

    it('answers 401 without a token and 400 for bad paging or unknown parameters', async () => {
      expectError(await listFavorites(undefined), 401, 'unauthorized');
      expectError(await listFavorites(readerAuth, '?per_page=101'), 400, 'validation_failed');
      expectError(await listFavorites(readerAuth, '?page=0'), 400, 'validation_failed');
      expectError(await listFavorites(readerAuth, '?user_id=1'), 400, 'validation_failed');
    });
  });
});
