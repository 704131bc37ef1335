import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newListing, newSignedInUser } from '../helpers/factories.js';

const API = '/realty-api/v1';

/**
 * `expires_at` (moderators only) is validated as an RFC 3339 date-time, which allows a leap second
 * (`23:59:60`); JavaScript's Date cannot hold one, and the service's `new Date(…).toISOString()` threw: a 500.
 * Such a time is now a 400 on the field. Found by the fuzz test (test/fuzz).
 */
describeEachDialect('a leap-second expires_at (%s)', (dialect) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = (await newSignedInUser(t, { role: 'administrator' })).auth;
  });
  afterAll(() => t.close());

  const expectRefused = (res: { statusCode: number; body: string; json(): unknown }) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'validation_failed', errors: [{ field: 'expires_at' }] });
  };

  it('is a 400 on expires_at when creating or changing a listing', async () => {
    for (const expires_at of ['2016-12-31T23:59:60Z', '2030-06-30T22:59:60-01:00']) {
      expectRefused(
        await t.app.inject({ method: 'POST', url: `${API}/properties`, headers: admin, payload: { title: 'Leap second', expires_at } }),
      );
      const id = await newListing(t.database.db);
      expectRefused(await t.app.inject({ method: 'PUT', url: `${API}/properties/${id}`, headers: admin, payload: { expires_at } }));
    }
  });

  it('still takes other date-times, in any offset', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/properties`,
      headers: admin,
      payload: { title: 'Expiring', expires_at: '2030-01-01T12:00:00+02:00' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.expires_at).toBe('2030-01-01T10:00:00Z');
  });
});
