import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newUser, tokenFor } from '../helpers/factories.js';

const API = '/realty-api/v1';

/**
 * PostgreSQL's text cannot hold U+0000 and SQLite's can: a NUL that reached a query answered 500 on one
 * database and a result on the other. Every route refuses it at validation, naming the field, on both.
 */
describeEachDialect('a NUL character in request text (%s)', (dialect) => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'administrator' })));
  });
  afterAll(() => t.close());

  const expectRefused = (response: { statusCode: number; json(): unknown }, field: string) => {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'validation_failed',
      errors: [{ field, message: 'must not contain a NUL character' }],
    });
  };

  it('is a 400 naming the query parameter, anonymously', async () => {
    for (const [url, field] of [
      [`${API}/properties/search?keyword=a%00b`, 'keyword'],
      [`${API}/properties?reference=%00`, 'reference'],
      [`${API}/property-types?search=x%00`, 'search'],
      [`${API}/agents/search?keyword=%00`, 'keyword'],
      [`${API}/agencies?keyword=a%00`, 'keyword'],
    ] as const) {
      expectRefused(await t.app.inject({ method: 'GET', url }), field);
    }
  });

  it('is a 400 naming the body field, nested ones included', async () => {
    const term = await t.app.inject({
      method: 'POST',
      url: `${API}/terms/property_type`,
      headers: admin,
      payload: { name: 'Villa\u0000', description: 'fine' },
    });
    expectRefused(term, 'name');
    const profile = await t.app.inject({
      method: 'PUT',
      url: `${API}/users/profile`,
      headers: admin,
      payload: { bio: 'ok\u0000' },
    });
    expectRefused(profile, 'bio');
  });

  it('still accepts the same requests without it', async () => {
    expect((await t.app.inject({ method: 'GET', url: `${API}/properties/search?keyword=ab` })).statusCode).toBe(200);
    const term = await t.app.inject({ method: 'POST', url: `${API}/terms/property_type`, headers: admin, payload: { name: 'Villa' } });
    expect(term.statusCode, term.body).toBe(201);
  });
});
