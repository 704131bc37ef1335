import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../src/adapters/storage/index.js';
import type { UserRow } from '../../src/db/schema/index.js';
import { LoginLocks } from '../../src/modules/auth/login-locks.service.js';
import { PasswordHasher } from '../../src/modules/accounts/password-hasher.service.js';
import { ProfilesService } from '../../src/modules/users/profiles.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { addFavorite, bearer, DEFAULT_PASSWORD, newListing, newUser, tokenFor, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
const LOGIN = `${API}/auth/login`;

describeEachDialect('deleting accounts (%s)', (dialect) => {
  let t: TestApp;
  let admin: UserRow;
  let adminAuth: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await newUser(t.database.db, { role: 'administrator' });
    adminAuth = bearer(await tokenFor(t.app, admin));
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const deleteProfile = (headers: Record<string, string>, payload?: Record<string, unknown>) =>
    t.app.inject({ method: 'DELETE', url: `${API}/users/delete-profile`, headers, ...(payload ? { payload } : {}) });
  const deleteUser = (id: number, headers: Record<string, string>) =>
    t.app.inject({ method: 'DELETE', url: `${API}/users/${id}`, headers });
  const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `${API}/users/me`, headers });
  const userExists = async (id: number) =>
    (await db().selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  /** An agent with listings in several states, favorites, a favorite of theirs held by someone else, an upload and two sessions. */
  const agentWithData = async () => {
    const user = await t.services.users.createUser({
      username: unique('agent_'),
      email: `${unique('agent')}@example.test`,
      password: DEFAULT_PASSWORD,
      role: 'agent',
    });
    const listings = {
      published: await newListing(db(), { author_id: user.id, status: 'publish' }),
      draft: await newListing(db(), { author_id: user.id, status: 'draft' }),
      pending: await newListing(db(), { author_id: user.id, status: 'pending' }),
      sold: await newListing(db(), { author_id: user.id, status: 'sold' }),
    };
    const someoneElses = await newListing(db());
    await addFavorite(db(), user.id, someoneElses);
    const fan = await newUser(db());
    await addFavorite(db(), fan.id, listings.published);
    await addFavorite(db(), fan.id, listings.draft);
    await db()
      .insertInto('media')
      .values({
        owner_id: user.id,
        storage_key: `${unique('k')}.jpg`,
        mime_type: 'image/jpeg',
        size_bytes: 1,
        created_at: new Date().toISOString(),
      })
      .execute();
    const sessions = [bearer(await tokenFor(t.app, user)), bearer(await tokenFor(t.app, user))];
    return { user, listings, someoneElses, fan, sessions };
  };

  /** Everything docs/api.md 3.2 says about a deleted account. */
  const expectDeleted = async ({ user, listings, someoneElses, fan, sessions }: Awaited<ReturnType<typeof agentWithData>>) => {
    expect(await userExists(user.id)).toBe(false);
    const remaining = await db()
      .selectFrom('listings')
      .select(['id', 'status', 'author_id'])
      .where('id', 'in', Object.values(listings))
      .execute();
    expect(remaining).toEqual([{ id: listings.published, status: 'draft', author_id: null }]);
    const history = await db()
      .selectFrom('listing_transitions')
      .select(['from_state', 'to_state', 'actor_id', 'reason'])
      .where('listing_id', '=', listings.published)
      .execute();
    expect(history).toEqual([{ from_state: 'publish', to_state: 'draft', actor_id: null, reason: 'account deleted' }]);
    expect(await db().selectFrom('listings').select('id').where('id', '=', someoneElses).executeTakeFirst()).toBeDefined();
    expect(await db().selectFrom('favorites').select('listing_id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await db().selectFrom('favorites').select('listing_id').where('user_id', '=', fan.id).execute()).toEqual([
      { listing_id: listings.published },
    ]);
    expect(await db().selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await db().selectFrom('media').select('id').where('owner_id', '=', user.id).execute()).toEqual([]);
    const agentRecord = await db().selectFrom('agents').select(['user_id', 'name']).where('name', '=', user.display_name).execute();
    expect(agentRecord).toEqual([{ user_id: null, name: user.display_name }]);
    for (const headers of sessions) {
      const res = await me(headers);
      expect(res.statusCode).toBe(401);
    }
    expect((await t.app.inject({ method: 'GET', url: `${API}/users/${user.id}`, headers: adminAuth })).statusCode).toBe(404);
    const login = await t.app.inject({ method: 'POST', url: LOGIN, payload: { username: user.username, password: DEFAULT_PASSWORD } });
    expect(login.statusCode).toBe(401);
  };

  describe('DELETE /users/delete-profile', () => {
    it('refuses a missing or wrong password and keeps the account', async () => {
      const user = await newUser(db());
      const auth = bearer(await tokenFor(t.app, user));
      for (const payload of [undefined, {}, { password: '' }, { password: 'wrong password' }]) {
        const res = await deleteProfile(auth, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'password' }] });
      }
      expect(await userExists(user.id)).toBe(true);
      expect((await me(auth)).statusCode).toBe(200);
    });

    it('refuses unknown body fields', async () => {
      const auth = bearer(await tokenFor(t.app, await newUser(db())));
      const res = await deleteProfile(auth, { password: DEFAULT_PASSWORD, user_id: admin.id });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ field: 'user_id' });
      expect(await userExists(admin.id)).toBe(true);
    });

    it('deletes the account with the data rules of docs/api.md 3.2', async () => {
      const data = await agentWithData();
      const res = await deleteProfile(data.sessions[0]!, { password: DEFAULT_PASSWORD });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'The account was deleted.' });
      await expectDeleted(data);
    });

    it('needs no password for an account without one (social sign-in)', async () => {
      const user = await newUser(db(), { password_hash: null });
      const auth = bearer((await t.services.auth.signIn(user)).token);
      const res = await deleteProfile(auth);
      expect(res.statusCode, res.body).toBe(200);
      expect(await userExists(user.id)).toBe(false);
    });

    it('localizes the message', async () => {
      const auth = bearer(await tokenFor(t.app, await newUser(db())));
      const res = await t.app.inject({
        method: 'DELETE',
        url: `${API}/users/delete-profile?lang=fr`,
        headers: auth,
        payload: { password: DEFAULT_PASSWORD },
      });
      expect(res.json().message).toBe('Le compte a été supprimé.');
    });
  });

  describe('DELETE /users/{id}', () => {
    it('lets an administrator delete another account, with the same rules', async () => {
      const data = await agentWithData();
      const res = await deleteUser(data.user.id, adminAuth);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'The account was deleted.' });
      await expectDeleted(data);
    });

    it('answers 404 for an unknown account', async () => {
      const res = await deleteUser(2_147_483_647, adminAuth);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    });

    it('answers 409 to an administrator deleting their own account this way', async () => {
      const res = await deleteUser(admin.id, adminAuth);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'conflict', message: 'Delete your own account with DELETE /users/delete-profile.' });
      expect(await userExists(admin.id)).toBe(true);
      expect((await me(adminAuth)).statusCode).toBe(200);
    });

    it('is for administrators only: managers and everyone else get 403', async () => {
      const target = await newUser(db());
      for (const role of ['manager', 'agency', 'agent', 'owner', 'seller', 'buyer'] as const) {
        const res = await deleteUser(target.id, bearer(await tokenFor(t.app, await newUser(db(), { role }))));
        expect(res.statusCode, role).toBe(403);
        expect(res.json().code).toBe('forbidden');
      }
      expect(await userExists(target.id)).toBe(true);
    });
  });

  it('removes media through the media service before the account rows, and stops when it fails', async () => {
    const calls: { userId: number; userStillThere: boolean }[] = [];
    let failure: Error | undefined;
    const media = {
      deleteAllOwnedBy: async (userId: number) => {
        calls.push({ userId, userStillThere: await userExists(userId) });
        if (failure) throw failure;
      },
    };
    const profiles = new ProfilesService(
      db(),
      t.services.users,
      t.services.auth,
      new PasswordHasher(),
      media,
      createStorage(t.config),
      new LoginLocks(db()),
      t.services.listingMoves,
    );
    const user = await newUser(db());
    const listing = await newListing(db(), { author_id: user.id, status: 'draft' });
    const caller = { id: admin.id, role: 'administrator' as const, sessionId: 'unused', tokenExpiresAt: new Date() };

    failure = new Error('storage down');
    await expect(profiles.deleteUser(caller, user.id)).rejects.toThrow('storage down');
    expect(await userExists(user.id)).toBe(true);
    expect(await db().selectFrom('listings').select('id').where('id', '=', listing).executeTakeFirst()).toBeDefined();

    failure = undefined;
    await profiles.deleteUser(caller, user.id);
    expect(calls).toEqual([
      { userId: user.id, userStillThere: true },
      { userId: user.id, userStillThere: true },
    ]);
    expect(await userExists(user.id)).toBe(false);
  });

  it('asks the listings module and accounts for their changes in one transaction: a failure of the last undoes the first', async () => {
    const { user, listings } = await agentWithData();
    const asked: string[] = [];
    // Each owning module's own service, watched; accounts fails when asked to delete the row.
    const listingMoves = {
      releaseListingsOfDeletedAuthor: async (...args: Parameters<typeof t.services.listingMoves.releaseListingsOfDeletedAuthor>) => {
        asked.push(`listings of ${args[1]}`);
        await t.services.listingMoves.releaseListingsOfDeletedAuthor(...args);
      },
    };
    const users = Object.assign(Object.create(t.services.users) as typeof t.services.users, {
      deleteAccountRow: async () => {
        asked.push('account row');
        throw new Error('row locked');
      },
    });
    const profiles = new ProfilesService(
      db(),
      users,
      t.services.auth,
      new PasswordHasher(),
      t.services.media,
      createStorage(t.config),
      new LoginLocks(db()),
      listingMoves,
    );
    const caller = { id: admin.id, role: 'administrator' as const, sessionId: 'unused', tokenExpiresAt: new Date() };
    await expect(profiles.deleteUser(caller, user.id)).rejects.toThrow('row locked');
    expect(asked).toEqual([`listings of ${user.id}`, 'account row']);
    expect(await userExists(user.id)).toBe(true);
    const kept = await db().selectFrom('listings').select(['id', 'status']).where('author_id', '=', user.id).orderBy('id').execute();
    expect(kept).toEqual(
      [
        { id: listings.published, status: 'publish' },
        { id: listings.draft, status: 'draft' },
        { id: listings.pending, status: 'pending' },
        { id: listings.sold, status: 'sold' },
      ].sort((a, b) => a.id - b.id),
    );
    expect(await db().selectFrom('listing_transitions').select('id').where('listing_id', '=', listings.published).execute()).toEqual([]);
  });
});
