import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newUser, tokenFor, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';

/**
 * The whole path of an instant alert through the public API and the application's own jobs: a term created
 * moments before, a saved search naming it, a listing of it approved, the domain event announced.
 */
describeEachDialect('saved-search alerts end to end (%s)', (dialect) => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'administrator' })));
  });
  afterAll(() => t.close());

  const call = async (method: 'GET' | 'POST', url: string, auth: { authorization: string }, payload?: object) => {
    const res = await t.app.inject({ method, url: `${API}${url}`, headers: auth, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const alertsOf = async (auth: { authorization: string }) =>
    (
      (await call('GET', '/notifications?per_page=100', auth)).data.notifications as { type: string; data: { property_id?: number } }[]
    ).filter((n) => n.type === 'saved_search_match');

  for (const named of [true, false]) {
    it(`tells an instant search ${named ? 'with' : 'without'} a name of a listing of a type created moments before`, async () => {
      // The index has seen the world before the term exists, as in a running server.
      await t.services.savedSearchAlerts.warm();
      const type = (await call('POST', '/terms/property_type', admin, { name: unique('Loft ') })).data;
      const buyer = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'buyer' })));
      await call('POST', '/saved-searches', buyer, {
        query: { type: [type.slug] },
        frequency: 'instant',
        ...(named ? { name: 'Lofts' } : {}),
      });
      const seller = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'seller' })));
      const listing = (await call('POST', '/properties', seller, { title: unique('A loft '), type_ids: [type.id] })).data;
      expect(listing.status).toBe('pending');
      await call('POST', '/users/property-actions', admin, { property_id: listing.id, action: 'approve' });
      await t.services.notificationEvents.runOnce();
      expect((await alertsOf(buyer)).map((n) => n.data.property_id)).toEqual([listing.id]);
    });
  }
});
