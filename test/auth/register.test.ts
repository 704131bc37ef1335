import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newUser, unique } from '../helpers/factories.js';

const REGISTER = '/realty-api/v1/auth/register';

function registration(overrides: Record<string, unknown> = {}) {
  const username = unique('reg_');
  return { username, email: `${username}@example.test`, password: 'long enough password', ...overrides };
}

describeEachDialect('POST /auth/register (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  it('creates a buyer by default and answers 201 with the login result', async () => {
    const body = registration({ first_name: ' Lina ', last_name: 'Haddad', phone: '+961 1 234' });
    const res = await t.app.inject({ method: 'POST', url: REGISTER, payload: body });
    expect(res.statusCode).toBe(201);
    const json = res.json();
    expect(json).toMatchObject({ success: true, message: 'Your account was created.' });
    expect(json.data).toMatchObject({
      username: body.username,
      email: body.email,
      role: 'buyer',
      first_name: 'Lina',
      last_name: 'Haddad',
      display_name: 'Lina Haddad',
      phone: '+961 1 234',
      agent_id: null,
      agency_id: null,
      avatar_url: '',
      expires_in: 3600,
    });
    const me = await t.app.inject({ method: 'POST', url: '/realty-api/v1/auth/validate-token', headers: bearer(json.data.token) });
    expect(me.json().data).toMatchObject({ user_id: json.data.user_id, role: 'buyer' });
    // The password is stored hashed (argon2id), never as given.
    const row = await t.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', json.data.user_id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it.each(['agent', 'agency'] as const)('role %s also creates its directory record', async (role) => {
    const res = await t.app.inject({
      method: 'POST',
      url: REGISTER,
      payload: registration({ role, first_name: 'Sam', last_name: 'Realty' }),
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    const idKey = role === 'agent' ? 'agent_id' : 'agency_id';
    const otherKey = role === 'agent' ? 'agency_id' : 'agent_id';
    expect(data[idKey]).toEqual(expect.any(Number));
    expect(data[otherKey]).toBeNull();
    const table = role === 'agent' ? 'agents' : 'agencies';
    const record = await t.database.db.selectFrom(table).selectAll().where('id', '=', data[idKey]).executeTakeFirstOrThrow();
    expect(record).toMatchObject({ user_id: data.user_id, name: 'Sam Realty', email: data.email });
    expect(record.slug).toMatch(/^sam-realty(-\d+)?$/);
  });

  it('gives same-named directory records distinct slugs', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: REGISTER,
        payload: registration({ role: 'agent', first_name: 'Twin', last_name: 'Agent' }),
      });
      ids.push(res.json().data.agent_id);
    }
    const slugs = await t.database.db.selectFrom('agents').select('slug').where('id', 'in', ids).execute();
    expect(new Set(slugs.map((s) => s.slug)).size).toBe(2);
  });

  it.each(['seller', 'owner'])('accepts role %s', async (role) => {
    const res = await t.app.inject({ method: 'POST', url: REGISTER, payload: registration({ role }) });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.role).toBe(role);
  });

  it.each(['administrator', 'manager', 'superuser'])('refuses role %s with 400', async (role) => {
    const res = await t.app.inject({ method: 'POST', url: REGISTER, payload: registration({ role }) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'role' }] });
  });

  it.each([
    ['status', 'active'],
    ['id', 1],
    ['password_hash', 'x'],
    ['display_name', 'Boss'],
    ['agent_id', 3],
  ])('refuses the mass-assigned field %s', async (field, value) => {
    const body = registration({ [field]: value });
    const res = await t.app.inject({ method: 'POST', url: REGISTER, payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field, message: 'is not an accepted field' }]);
    const created = await t.database.db.selectFrom('users').select('id').where('username', '=', body.username).executeTakeFirst();
    expect(created).toBeUndefined();
  });

  it.each([
    [{ username: 'ab' }, 'username'],
    [{ username: 'has space' }, 'username'],
    [{ username: 'x'.repeat(61) }, 'username'],
    [{ email: 'not-an-email' }, 'email'],
    [{ password: 'short' }, 'password'],
    [{ password: 'p'.repeat(129) }, 'password'],
    [{ first_name: 'n'.repeat(201) }, 'first_name'],
  ])('validates %j', async (overrides, field) => {
    const res = await t.app.inject({ method: 'POST', url: REGISTER, payload: registration(overrides) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers 409 email_taken and username_taken, case-insensitively', async () => {
    const existing = await newUser(t.database.db, { username: unique('Taken_') });
    const byEmail = await t.app.inject({ method: 'POST', url: REGISTER, payload: registration({ email: existing.email.toUpperCase() }) });
    expect(byEmail.statusCode).toBe(409);
    expect(byEmail.json().code).toBe('email_taken');
    const byName = await t.app.inject({
      method: 'POST',
      url: REGISTER,
      payload: registration({ username: existing.username.toLowerCase() }),
    });
    expect(byName.statusCode).toBe(409);
    expect(byName.json().code).toBe('username_taken');
  });

  it('lets exactly one of two concurrent registrations of a name win', async () => {
    const username = unique('race_');
    const results = await Promise.all(
      [1, 2].map((n) =>
        t.app.inject({ method: 'POST', url: REGISTER, payload: registration({ username, email: `${username}${n}@example.test` }) }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    // One account of that name, the winner's; the loser is told why and left nothing behind.
    const won = results.findIndex((r) => r.statusCode === 201);
    expect(results[1 - won]!.json().code).toBe('username_taken');
    const accounts = await t.database.db.selectFrom('users').select('email').where('username', '=', username).execute();
    expect(accounts).toEqual([{ email: `${username}${won + 1}@example.test` }]);
  });

  it('answers 403 when registration is closed', async () => {
    const closed = await buildTestApp(dialect, { REGISTRATION_ENABLED: 'false' });
    try {
      const res = await closed.app.inject({ method: 'POST', url: REGISTER, payload: registration() });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', message: 'Registration is closed.' });
    } finally {
      await closed.close();
    }
  });
});
