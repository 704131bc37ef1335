import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newUser, unique } from '../helpers/factories.js';
import { type FakeGraph, type GraphUser, startFakeGraph } from '../helpers/fake-providers.js';

const FACEBOOK_LOGIN = '/realty-api/v1/social/facebook/login';
const LOGIN = '/realty-api/v1/auth/login';

describeEachDialect('POST /social/facebook/login (%s)', (dialect) => {
  let t: TestApp;
  let graph: FakeGraph;

  beforeAll(async () => {
    graph = await startFakeGraph();
    t = await buildTestApp(dialect, {
      FACEBOOK_APP_ID: graph.appId,
      FACEBOOK_APP_SECRET: graph.appSecret,
      FACEBOOK_GRAPH_URL: graph.graphUrl,
    });
  });
  afterAll(async () => {
    await t.close();
    await graph.close();
  });

  const login = (accessToken: string) => t.app.inject({ method: 'POST', url: FACEBOOK_LOGIN, payload: { access_token: accessToken } });

  const person = (overrides: Partial<GraphUser> = {}): GraphUser => {
    const id = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
    return { id, email: `${unique('fb_')}@facebook.test`, first_name: 'Mark', last_name: 'Zed', name: 'Mark Zed', ...overrides };
  };

  const expectInvalid = (res: Awaited<ReturnType<typeof login>>) => {
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: 'invalid_token', message: 'The Facebook sign-in token is not valid.' });
  };

  it('creates a password-less buyer account on the first sign-in', async () => {
    const user = person();
    const res = await login(graph.userToken(user));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('You have successfully logged in.');
    expect(body.data).toMatchObject({
      email: user.email,
      username: user.email?.split('@')[0],
      first_name: 'Mark',
      last_name: 'Zed',
      role: 'buyer',
      social_provider: 'facebook',
    });
    expect(await t.services.auth.authenticate(body.data.token)).toMatchObject({ id: body.data.user_id, role: 'buyer' });
    const link = await t.database.db.selectFrom('social_accounts').selectAll().where('subject', '=', user.id).executeTakeFirstOrThrow();
    expect(link).toMatchObject({ provider: 'facebook', user_id: body.data.user_id });
    const password = await t.app.inject({ method: 'POST', url: LOGIN, payload: { email: user.email, password: 'anything-at-all' } });
    expect(password.statusCode).toBe(401);
  });

  it('signs the same Facebook user into the same account with a new token', async () => {
    const user = person();
    const first = await login(graph.userToken(user));
    const again = await login(graph.userToken(user));
    expect(again.statusCode).toBe(200);
    expect(again.json().data.user_id).toBe(first.json().data.user_id);
  });

  it('links an existing account by its e-mail, which Facebook only returns once confirmed', async () => {
    const existing = await newUser(t.database.db, { role: 'agent' });
    const res = await login(graph.userToken(person({ email: existing.email })));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ user_id: existing.id, role: 'agent', social_provider: 'facebook' });
  });

  it('keeps Google and Facebook identities with the same id apart', async () => {
    const user = person();
    await login(graph.userToken(user));
    const rows = await t.database.db.selectFrom('social_accounts').selectAll().where('subject', '=', user.id).execute();
    expect(rows.map((r) => r.provider)).toEqual(['facebook']);
  });

  it('refuses a valid token issued to another app', async () => {
    const token = unique('EAAother');
    graph.register(token, { me: person(), debug: { app_id: '999999' } });
    expectInvalid(await login(token));
  });

  it('refuses a token debug_token reports as invalid (expired, revoked, unknown)', async () => {
    const token = unique('EAAexpired');
    graph.register(token, { me: person(), debug: { is_valid: false } });
    expectInvalid(await login(token));
    expectInvalid(await login(unique('EAAunknown')));
  });

  it('refuses a token whose `me` is not the user debug_token names', async () => {
    const token = unique('EAAmismatch');
    graph.register(token, { me: person({ id: '111' }), debug: { user_id: '222' } });
    expectInvalid(await login(token));
  });

  it('refuses a token `me` rejects', async () => {
    const token = unique('EAAnome');
    graph.register(token, { debug: { user_id: '333' } });
    expectInvalid(await login(token));
  });

  it('answers 503 when the Graph API fails', async () => {
    for (const status of [500, 503, 429]) {
      const token = unique('EAAdown');
      graph.register(token, { failWith: status });
      const res = await login(token);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'service_unavailable',
        message: 'Facebook cannot be reached right now. Try again shortly.',
      });
    }
  });

  it('passes tokens with URL-special characters through intact', async () => {
    const user = person();
    const token = `EAA+${unique('')}/&x=1#frag`;
    graph.register(token, { me: user });
    const res = await login(token);
    expect(res.statusCode).toBe(200);
  });

  it('refuses a new Facebook user without an e-mail address (400 naming access_token)', async () => {
    const { email: _none, ...withoutEmail } = person();
    const res = await login(graph.userToken(withoutEmail));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'access_token' }] });
  });

  it('refuses a suspended linked account with 403 account_suspended', async () => {
    const user = person();
    const first = await login(graph.userToken(user));
    await t.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', first.json().data.user_id).execute();
    const res = await login(graph.userToken(user));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('account_suspended');
  });

  it.each([
    ['no token', {}, 'access_token'],
    ['an empty token', { access_token: '' }, 'access_token'],
    ['a token over 4096 characters', { access_token: 'x'.repeat(4097) }, 'access_token'],
    ['an unknown field', { access_token: 'abc', app_secret: 'x' }, 'app_secret'],
  ])('refuses a body with %s (400 naming the field)', async (_name, payload, field) => {
    const res = await t.app.inject({ method: 'POST', url: FACEBOOK_LOGIN, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});
