import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newSignedInUser } from '../helpers/factories.js';

const API = '/realty-api/v1';

/** JSON text nested `depth` levels deep (`{"a":{"a":…}}`, or arrays), around `inner`. */
function nested(depth: number, inner: string, shape: 'object' | 'array' = 'object'): string {
  return `${(shape === 'object' ? '{"a":' : '[').repeat(depth)}${inner}${(shape === 'object' ? '}' : ']').repeat(depth)}`;
}

/**
 * The validator looks for NUL characters in every string of a request (validation.ts). It walked the value
 * recursively, so a body nested some ten thousand levels deep, where the schema allows any JSON (the `data`
 * of an administrator's notification), overflowed the stack: a 500 instead of an answer. Found by the fuzz
 * test (test/fuzz).
 */
describeEachDialect('deeply nested request JSON (%s)', (dialect) => {
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
      url: `${API}/notifications`,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: `{"title":"Deep","message":"JSON","user_id":${userId},"data":${data}}`,
    });

  it.each(['object', 'array'] as const)('finds a NUL 20,000 levels deep (%s) and names its field', async (shape) => {
    const res = await notify(`{"x":${nested(20_000, '"a\\u0000b"', shape)}}`);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ success: false, code: 'validation_failed', errors: [{ message: 'must not contain a NUL character' }] });
    const segment = shape === 'object' ? 'a' : '0';
    expect(body.errors[0].field).toBe(['data', 'x', ...Array<string>(20_000).fill(segment)].join('.'));
  });

  it('still finds a NUL in a key, before the value under it', async () => {
    const res = await notify(`{"k\\u0000":${nested(5_000, '"fine"')}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'data.k\u0000', message: 'must not contain a NUL character' }]);
  });
});
