import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { DEFAULT_PASSWORD, newUser, unique } from '../helpers/factories.js';

const LOGIN = '/realty-api/v1/auth/login';
const TOKEN = '/realty-api/v1/auth/token';

// The test config turns request-rate limits off (RATE_LIMIT_ENABLED=false): the account lock must hold anyway.
describeEachDialect('account lock after failed logins (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  const login = (username: string, password: string) => t.app.inject({ method: 'POST', url: LOGIN, payload: { username, password } });

  async function failFiveTimes(username: string): Promise<void> {
    for (let i = 0; i < 5; i++) expect((await login(username, `wrong-${i}-password`)).statusCode).toBe(401);
  }

  it('locks an account for 15 minutes after 5 failures, even for the right password', async () => {
    const user = await newUser(t.database.db);
    await failFiveTimes(user.username);
    const locked = await login(user.username, DEFAULT_PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('rate_limited');
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The e-mail names the same account, and the token route shares the lock.
    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(429);
    const token = await t.app.inject({
      method: 'POST',
      url: TOKEN,
      payload: { grant_type: 'password', username: user.username, password: DEFAULT_PASSWORD },
    });
    expect(token.statusCode).toBe(429);
  });

  it('locks unknown names alike, so the lock does not reveal which accounts exist', async () => {
    const ghost = unique('ghost_');
    await failFiveTimes(ghost);
    const res = await login(ghost, 'whatever-password');
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(14 * 60);
  });

  it('opens again once the lock has passed', async () => {
    const user = await newUser(t.database.db);
    await failFiveTimes(user.username);
    expect((await login(user.username, DEFAULT_PASSWORD)).statusCode).toBe(429);
    await t.database.db
      .updateTable('login_locks')
      .set({ locked_until: '2000-01-01T00:00:00.000Z', window_started_at: '2000-01-01T00:00:00.000Z' })
      .where('login_key', '=', `user:${user.id}`)
      .execute();
    expect((await login(user.username, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('clears earlier failures on a success', async () => {
    const user = await newUser(t.database.db);
    const failures = () => t.database.db.selectFrom('login_locks').select('failures').where('login_key', '=', `user:${user.id}`).execute();
    for (let i = 0; i < 4; i++) expect((await login(user.username, 'wrong-password')).statusCode).toBe(401);
    expect(await failures()).toEqual([{ failures: 4 }]);
    expect((await login(user.username, DEFAULT_PASSWORD)).statusCode).toBe(200);
    expect(await failures(), 'cleared').toEqual([]);
    // Four more within the same 15 minutes: eight without the clearing, which would have locked the account.
    for (let i = 0; i < 4; i++) expect((await login(user.username, 'wrong-password')).statusCode).toBe(401);
    expect((await login(user.username, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('counts failures within a 15-minute window only', async () => {
    const user = await newUser(t.database.db);
    for (let i = 0; i < 4; i++) await login(user.username, 'wrong-password');
    const key = `user:${user.id}`;
    await t.database.db
      .updateTable('login_locks')
      .set({ window_started_at: new Date(Date.now() - 16 * 60_000).toISOString() })
      .where('login_key', '=', key)
      .execute();
    await login(user.username, 'wrong-password'); // starts a new window at 1
    expect((await login(user.username, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('counts concurrent failures without losing any', async () => {
    const user = await newUser(t.database.db);
    await Promise.all(Array.from({ length: 5 }, () => login(user.username, 'wrong-password')));
    const lock = await t.database.db
      .selectFrom('login_locks')
      .selectAll()
      .where('login_key', '=', `user:${user.id}`)
      .executeTakeFirstOrThrow();
    expect(lock.failures).toBe(5);
    expect((await login(user.username, DEFAULT_PASSWORD)).statusCode).toBe(429);
  });
});
