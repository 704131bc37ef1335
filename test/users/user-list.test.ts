import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Role, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { addFavorite, bearer, newListing, newUser, tokenFor, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';

describeEachDialect('listing users (%s)', (dialect) => {
  let t: TestApp;
  let adminAuth: Record<string, string>;
  /** Every user of this file carries the marker in their display name, so searches see only them. */
  let marker: string;
  /** Newest first. */
  let members: UserRow[];

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    adminAuth = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'administrator' })));
    marker = unique('Mk');
    const specs: [Role, string][] = [
      ['seller', '2024-01-01T00:00:00.000Z'],
      ['agent', '2024-02-01T00:00:00.000Z'],
      ['seller', '2024-03-01T00:00:00.000Z'],
      ['buyer', '2024-03-01T00:00:00.000Z'], // same instant: the higher id comes first
      ['seller', '2024-04-01T00:00:00.000Z'],
    ];
    const created: UserRow[] = [];
    for (const [role, at] of specs) {
      created.push(await newUser(t.database.db, { role, display_name: `${marker} ${role}`, created_at: at, updated_at: at }));
    }
    members = created.reverse().sort((a, b) => (b.created_at === a.created_at ? b.id - a.id : b.created_at.localeCompare(a.created_at)));
  });
  afterAll(() => t.close());

  const list = (query: string, headers = adminAuth) => t.app.inject({ method: 'GET', url: `${API}/users?${query}`, headers });

  it('answers full profiles, newest first, with pagination', async () => {
    const res = await list(`search=${marker}`);
    expect(res.statusCode, res.body).toBe(200);
    const { users, pagination } = res.json().data;
    expect(users.map((u: { user_id: number }) => u.user_id)).toEqual(members.map((m) => m.id));
    expect(users[0]).toMatchObject({ email: members[0]!.email, properties_count: '0', favorites: '0', role: 'seller' });
    expect(pagination).toEqual({
      total_records: 5,
      total_pages: 1,
      current_page: 1,
      per_page: 10,
      has_next_page: false,
      has_previous_page: false,
    });
  });

  it('loads each user’s own counts', async () => {
    const [first, second] = members;
    await newListing(t.database.db, { author_id: first!.id });
    await newListing(t.database.db, { author_id: first!.id });
    await newListing(t.database.db, { author_id: second!.id, status: 'draft' });
    await addFavorite(t.database.db, second!.id, await newListing(t.database.db));
    const users = (await list(`search=${marker}&per_page=2`)).json().data.users;
    expect(users.map((u: { properties_count: string; favorites: string }) => [u.properties_count, u.favorites])).toEqual([
      ['2', '0'],
      ['0', '1'],
    ]);
  });

  it('pages, with `paged` as an alias of `page`, and answers past the end with an empty page', async () => {
    for (const query of [`search=${marker}&per_page=2&page=2`, `search=${marker}&per_page=2&paged=2`]) {
      const { users, pagination } = (await list(query)).json().data;
      expect(users.map((u: { user_id: number }) => u.user_id)).toEqual([members[2]!.id, members[3]!.id]);
      expect(pagination).toEqual({
        total_records: 5,
        total_pages: 3,
        current_page: 2,
        per_page: 2,
        has_next_page: true,
        has_previous_page: true,
      });
    }
    const past = (await list(`search=${marker}&per_page=2&page=9`)).json().data;
    expect(past.users).toEqual([]);
    expect(past.pagination).toMatchObject({
      total_records: 5,
      total_pages: 3,
      current_page: 9,
      has_next_page: false,
      has_previous_page: true,
    });
  });

  it('filters by role and searches username, e-mail and display name case-insensitively', async () => {
    const sellers = (await list(`search=${marker}&role=seller`)).json().data;
    expect(sellers.users.map((u: { user_id: number }) => u.user_id)).toEqual(members.filter((m) => m.role === 'seller').map((m) => m.id));
    expect(sellers.pagination.total_records).toBe(3);

    const target = members[1]!;
    for (const search of [
      target.username.toUpperCase(),
      target.email.slice(3, 12).toUpperCase(),
      `${marker} ${target.role}`.toLowerCase(),
    ]) {
      const users = (await list(`search=${encodeURIComponent(search)}`)).json().data.users;
      expect(
        users.map((u: { user_id: number }) => u.user_id),
        search,
      ).toEqual([target.id]);
    }
    expect((await list(`search=${unique('nobody')}`)).json().data).toMatchObject({
      users: [],
      pagination: { total_records: 0, total_pages: 0 },
    });
  });

  it('takes % and _ in `search` literally', async () => {
    const tag = unique('pct');
    const percent = await newUser(t.database.db, { display_name: `${tag} 100% sure` });
    const underscore = await newUser(t.database.db, { display_name: `${tag} a_b` });
    await newUser(t.database.db, { display_name: `${tag} 100 sure axb` });
    const ids = async (search: string) =>
      (await list(`search=${encodeURIComponent(search)}`)).json().data.users.map((u: { user_id: number }) => u.user_id);
    expect(await ids(`${tag} 100%`)).toEqual([percent.id]);
    expect(await ids('a_b')).toEqual([underscore.id]);
    expect(await ids(`${tag}%sure`)).toEqual([]);
    expect(await ids('\\')).toEqual([]);
  });

  it('folds ASCII letters only, the same on both databases', async () => {
    const tag = unique('fold');
    const accented = await newUser(t.database.db, { display_name: `${tag} Élodie Ñandú` });
    const ids = async (search: string) =>
      (await list(`search=${encodeURIComponent(search)}`)).json().data.users.map((u: { user_id: number }) => u.user_id);
    expect(await ids(`${tag.toUpperCase()} ÉLODIE`)).toEqual([accented.id]);
    expect(await ids('Ñandú')).toEqual([accented.id]);
    // Non-ASCII letters compare as written: PostgreSQL's own lower() would fold these, SQLite's would not.
    expect(await ids(`${tag} élodie`)).toEqual([]);
    expect(await ids('ñandú')).toEqual([]);
  });

  it('is for administrators and managers only', async () => {
    const manager = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'manager' })));
    expect((await list(`search=${marker}`, manager)).statusCode).toBe(200);
    for (const role of ['buyer', 'seller', 'owner', 'agent', 'agency'] as const) {
      const res = await list('', bearer(await tokenFor(t.app, await newUser(t.database.db, { role }))));
      expect(res.statusCode, role).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
  });

  it('refuses invalid parameters', async () => {
    for (const query of ['per_page=101', 'per_page=0', 'page=0', 'paged=-1', 'role=root', `search=${'a'.repeat(201)}`, 'orderby=id']) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });
});
