import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

const API = '/realty-api/v1';

/**
 * Fastify's router answers two kinds of URL itself, before any route or hook runs: a path parameter it cannot
 * percent-decode (FST_ERR_BAD_URL) and one longer than its limit (FST_ERR_MAX_PARAM_LENGTH). Both answered
 * Fastify's own body (`{error, code, message, statusCode}`, the second with a 414) instead of the error body
 * of docs/api.md 0.2. Found by the fuzz test (test/fuzz).
 */
describeEachDialect('URLs the router cannot read (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  it.each([
    ['an undecodable path parameter', `${API}/properties/%C0%AF`],
    ['a truncated percent-encoding', `${API}/saved-searches/%E2%80`],
    ['a path parameter over the router’s length limit', `${API}/properties/${'1'.repeat(101)}`],
  ])('%s is a 400 in the error body, with the request id and the constant headers', async (_, url) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { 'x-request-id': 'bad-url-1' } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-request-id']).toBe('bad-url-1');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.json()).toEqual({ success: false, code: 'validation_failed', message: expect.any(String), request_id: 'bad-url-1' });
  });

  it('answers in the language of the path prefix', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/fr${API}/users/saved-searches/%C0%AF` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'validation_failed', message: 'La requête n’est pas valide.' });
    expect(res.json().request_id).toBe(res.headers['x-request-id']);
  });
});
