import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgencyWithAgent, newSignedInUser } from '../helpers/factories.js';

const API = '/realty-api/v1';

/**
 * A social link is a URI in the agent and agency records (`format: uri`), and the serializer checks it. The
 * bodies accepted anything the `http(s)://host…` pattern allows, `http://a]b` included: the change was stored,
 * and every answer carrying the record (the change itself, then every read) failed with 500. Found by the
 * fuzz test (test/fuzz).
 */
describeEachDialect('social links that are not URIs (%s)', (dialect) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let agentId: number;
  let agencyId: number;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = (await newSignedInUser(t, { role: 'administrator' })).auth;
    ({ agentId, agencyId } = await newAgencyWithAgent(t.database.db));
  });
  afterAll(() => t.close());

  it.each([
    ['agents', () => agentId],
    ['agencies', () => agencyId],
  ])('are refused by PUT /%s/{id} naming the link, and the record stays readable', async (path, id) => {
    for (const link of ['http://JH]I$&g', 'http://[x]/', 'http://a.test/%zz', 'https://a.test/<b>']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `${API}/${path}/${id()}`,
        headers: admin,
        payload: { social: { pinterest: link } },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'validation_failed', errors: [{ field: 'social.pinterest' }] });
    }
    const read = await t.app.inject({ method: 'GET', url: `${API}/${path}/${id()}` });
    expect(read.statusCode, read.body).toBe(200);
  });

  it('still take http(s) URLs, and null to clear one', async () => {
    const set = await t.app.inject({
      method: 'PUT',
      url: `${API}/agents/${agentId}`,
      headers: admin,
      payload: { social: { facebook: 'https://facebook.com/agent.name', tiktok: 'http://tiktok.com/@agent?x=1#top' } },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.social).toMatchObject({
      facebook: 'https://facebook.com/agent.name',
      tiktok: 'http://tiktok.com/@agent?x=1#top',
    });
    const cleared = await t.app.inject({
      method: 'PUT',
      url: `${API}/agents/${agentId}`,
      headers: admin,
      payload: { social: { facebook: null } },
    });
    expect(cleared.json().data.social.facebook).toBeNull();
  });
});
