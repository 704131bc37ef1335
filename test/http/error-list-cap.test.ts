import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { newSignedInUser } from '../helpers/factories.js';

describe('a 400 for a body with very many bad fields', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('names at most 100 of them', async () => {
    const { auth } = await newSignedInUser(t, { role: 'seller' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/realty-api/v1/properties',
      headers: auth,
      payload: { title: 'Many wrong ids', media_ids: Array.from({ length: 20_000 }, () => 'x') },
    });
    expect(res.statusCode).toBe(400);
    const { errors } = res.json() as { errors: { field: string }[] };
    expect(errors).toHaveLength(100);
    expect(errors[0]!.field).toMatch(/^media_ids/);
  });
});
