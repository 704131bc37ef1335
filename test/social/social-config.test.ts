import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type FakeGoogle, startFakeGoogle, unreachableUrl } from '../helpers/fake-providers.js';

const API = '/realty-api/v1';
const CONFIG = `${API}/social/config`;
const GOOGLE_LOGIN = `${API}/social/google/login`;
const FACEBOOK_LOGIN = `${API}/social/facebook/login`;

describeEachDialect('social providers: configuration and availability (%s)', (dialect) => {
  describe('with both providers configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(dialect, {
        GOOGLE_CLIENT_IDS: 'first.apps.googleusercontent.com,second.apps.googleusercontent.com',
        FACEBOOK_APP_ID: '424242',
        FACEBOOK_APP_SECRET: 'very-secret-value',
      });
    });
    afterAll(() => t.close());

    it('GET /social/config lists both, with their public ids only', async () => {
      const res = await t.app.inject({ method: 'GET', url: CONFIG });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        data: {
          google: { enabled: true, client_id: 'first.apps.googleusercontent.com' },
          facebook: { enabled: true, app_id: '424242' },
          available_providers: ['google', 'facebook'],
        },
      });
      expect(res.body).not.toContain('very-secret-value');
    });

    it('documents the routes and the SocialLoginResult schema in OpenAPI', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([CONFIG, GOOGLE_LOGIN, FACEBOOK_LOGIN]));
      expect(doc.components.schemas.SocialLoginResult.properties).toHaveProperty('social_provider');
      expect(doc.components.schemas.SocialLoginResult.properties).toHaveProperty('token');
      expect(doc.paths[FACEBOOK_LOGIN].post.description).toMatch(/confirmed primary address/);
    });
  });

  describe('with no provider configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      // Rate limits on, with a budget of 2, to check that the social sign-in routes have their own bucket.
      t = await buildTestApp(dialect, { RATE_LIMIT_ENABLED: 'true', AUTH_RATE_LIMIT_PER_MINUTE: '2' });
    });
    afterAll(() => t.close());
    const clientIp = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

    it('GET /social/config reports both off', async () => {
      const res = await t.app.inject({ method: 'GET', url: CONFIG });
      expect(res.json()).toEqual({
        success: true,
        data: {
          google: { enabled: false, client_id: null },
          facebook: { enabled: false, app_id: null },
          available_providers: [],
        },
      });
    });

    it('answers 403 forbidden on both sign-in routes, whatever the token', async () => {
      for (const [url, payload, name] of [
        [GOOGLE_LOGIN, { id_token: 'anything' }, 'Google'],
        [FACEBOOK_LOGIN, { access_token: 'anything' }, 'Facebook'],
      ] as const) {
        const res = await t.app.inject({ method: 'POST', url, payload, remoteAddress: clientIp() });
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toMatchObject({
          success: false,
          code: 'forbidden',
          message: `Sign-in with ${name} is not enabled on this server.`,
        });
      }
    });

    it('limits each sign-in route per IP with the sign-in budget', async () => {
      for (const [url, payload] of [
        [GOOGLE_LOGIN, { id_token: 'anything' }],
        [FACEBOOK_LOGIN, { access_token: 'anything' }],
      ] as const) {
        const remoteAddress = clientIp();
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) statuses.push((await t.app.inject({ method: 'POST', url, payload, remoteAddress })).statusCode);
        expect(statuses, url).toEqual([403, 403, 429]);
      }
    });
  });

  describe('with providers that cannot be reached', () => {
    let t: TestApp;
    let google: FakeGoogle;
    beforeAll(async () => {
      google = await startFakeGoogle();
      t = await buildTestApp(dialect, {
        GOOGLE_CLIENT_IDS: google.clientId,
        GOOGLE_JWKS_URL: `${await unreachableUrl()}/certs`,
        FACEBOOK_APP_ID: '424242',
        FACEBOOK_APP_SECRET: 'very-secret-value',
        FACEBOOK_GRAPH_URL: await unreachableUrl(),
      });
    });
    afterAll(async () => {
      await t.close();
      await google.close();
    });

    it('answers 503 service_unavailable, not 500', async () => {
      const google503 = await t.app.inject({ method: 'POST', url: GOOGLE_LOGIN, payload: { id_token: await google.signIdToken() } });
      const facebook503 = await t.app.inject({ method: 'POST', url: FACEBOOK_LOGIN, payload: { access_token: 'EAAtoken' } });
      for (const [res, name] of [
        [google503, 'Google'],
        [facebook503, 'Facebook'],
      ] as const) {
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({
          success: false,
          code: 'service_unavailable',
          message: `${name} cannot be reached right now. Try again shortly.`,
        });
      }
    });

    it('still refuses a malformed Google token with 401 without asking for keys', async () => {
      const res = await t.app.inject({ method: 'POST', url: GOOGLE_LOGIN, payload: { id_token: 'not.a.jwt' } });
      expect(res.statusCode).toBe(401);
    });
  });
});
