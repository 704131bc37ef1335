import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newUser, unique } from '../helpers/factories.js';

const SETUP = '/realty-api/v1/setup/administrator';

describeEachDialect('the first run’s set-up link (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  const account = () => {
    const username = unique('first_');
    return { username, email: `${username}@example.test`, password: 'a long first password' };
  };
  const setUp = (body: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: SETUP, payload: body, headers });
  const administrators = () =>
    t.database.db.selectFrom('users').select('username').where('role', '=', 'administrator').orderBy('id').execute();

  it('makes one administrator with the token of the last start, signed in, and never another', async () => {
    const earlier = await t.services.firstRun.start();
    const token = await t.services.firstRun.start();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toBe(earlier);
    const stored = await t.database.db.selectFrom('setup_tokens').selectAll().execute();
    expect(stored, 'only a hash is kept').toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);

    const replaced = await setUp({ token: earlier, ...account() });
    expect(replaced.statusCode, 'a later start replaced it').toBe(400);
    expect(replaced.json().errors).toEqual([expect.objectContaining({ field: 'token' })]);

    const first = account();
    const res = await setUp({ token, ...first, session: 'cookie' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ username: first.username, email: first.email, role: 'administrator' });
    expect(res.json().data.refresh_token).toBeUndefined();
    expect(String(res.headers['set-cookie'])).toMatch(/^realty_refresh=[^;]+;.*HttpOnly/);
    const me = await t.app.inject({
      method: 'GET',
      url: '/realty-api/v1/users/me',
      headers: { authorization: `Bearer ${res.json().data.token}` },
    });
    expect(me.json().data.role).toBe('administrator');

    const again = await setUp({ token, ...account() });
    expect(again.statusCode, 'spent').toBe(400);
    expect(await t.services.firstRun.start(), 'an administrator exists: no new link').toBeUndefined();
    expect(await t.database.db.selectFrom('setup_tokens').selectAll().execute()).toEqual([]);
    expect((await administrators()).map((row) => row.username)).toEqual([first.username]);
  });

  it('spends the token once however many ask at once, and keeps it when the account is refused', async () => {
    await t.database.db.deleteFrom('users').where('role', '=', 'administrator').execute();
    const token = (await t.services.firstRun.start())!;
    expect(token).toBeDefined();
    const someone = await newUser(t.database.db);
    const taken = await setUp({ token, ...account(), email: someone.email });
    expect(taken.statusCode).toBe(409);
    const answers = await Promise.all([account(), account(), account()].map((body) => setUp({ token, ...body })));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 400, 400]);
    const made = answers.find((res) => res.statusCode === 201)!.json().data.username;
    expect((await administrators()).map((row) => row.username)).toEqual([made]);
  });

  it('refuses a wrong or missing token and extra fields, creating nothing', async () => {
    await t.database.db.deleteFrom('users').where('role', '=', 'administrator').execute();
    await t.services.firstRun.start();
    expect((await setUp({ token: 'x'.repeat(43), ...account() })).statusCode).toBe(400);
    expect((await setUp(account())).statusCode).toBe(400);
    expect((await setUp({ token: 'x', ...account(), role: 'administrator' })).statusCode).toBe(400);
    expect(await administrators()).toEqual([]);
  });
});
