import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newSignedInUser } from '../helpers/factories.js';

const BASE = '/realty-api/v1/notifications';

/**
 * An administrator's notification takes any JSON object as `data`, up to 4096 bytes as JSON. The size was
 * measured with JSON.stringify, which throws on a value nested some ten thousand levels deep: a 500 instead of
 * the 400 on `data` (such a value is far over 4096 bytes). Found by the fuzz test (test/fuzz).
 */
describeEachDialect('POST /notifications with deeply nested data (%s)', (dialect) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let userId: number;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    const signedIn = await newSignedInUser(t, { role: 'administrator' });
    admin = signedIn.auth;
    userId = signedIn.user.id;
  });
  afterAll(() => t.close());

  const notify = (data: string) =>
    t.app.inject({
      method: 'POST',
      url: BASE,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: `{"title":"Deep","message":"data","user_id":${userId},"data":${data}}`,
    });

  it.each([
    ['objects', `{"x":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`],
    ['arrays', `{"x":${'['.repeat(20_000)}1${']'.repeat(20_000)}}`],
  ])('is a 400 on data when nested 20,000 levels of %s', async (_, data) => {
    const res = await notify(data);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'validation_failed', errors: [{ field: 'data' }] });
  });

  it('still takes nested data within the size', async () => {
    const res = await notify(`{"x":${'['.repeat(100)}"deep"${']'.repeat(100)}}`);
    expect(res.statusCode, res.body).toBe(201);
  });
});
