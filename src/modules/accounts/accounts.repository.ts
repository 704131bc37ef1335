import type { Updateable } from 'kysely';
import type { NewUser, Role, UserRow, UserStatus, UsersTable } from '../../db/schema/index.js';
import type { Executor } from '../../db/executor.js';

/** A login name is a username or an e-mail address (e-mails are stored lower-cased). */
export async function findUserByLogin(db: Executor, login: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username', '=', login), eb('email', '=', login.toLowerCase())]))
    .orderBy('id')
    .executeTakeFirst();
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

/** Case-insensitive, so that `Alice` and `alice` cannot both register. */
export async function usernameExists(db: Executor, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(db: Executor, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

/** A user with the ids of their agent and agency records and their avatar's sizes: what login results and profiles show. */
export interface AccountRow extends UserRow {
  agent_id: number | null;
  agency_id: number | null;
  /** `media.sizes` JSON of the avatar, or null without one. */
  avatar_sizes: string | null;
}

export async function findAccounts(db: Executor, ids: readonly number[]): Promise<AccountRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('users as u')
    .leftJoin('agents as ag', 'ag.user_id', 'u.id')
    .leftJoin('agencies as ay', 'ay.user_id', 'u.id')
    .leftJoin('media as m', 'm.id', 'u.avatar_media_id')
    .selectAll('u')
    .select(['ag.id as agent_id', 'ay.id as agency_id', 'm.sizes as avatar_sizes'])
    .where('u.id', 'in', ids)
    .execute();
}

export async function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether the user is an administrator whose account is active: who may administer accounts. */
export async function isActiveAdministrator(db: Executor, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', id)
    .where('role', '=', 'administrator')
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}

/** The active administrator with the lowest id: who acts for the command line. */
export async function findFirstAdministrator(db: Executor): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('role', '=', 'administrator')
    .where('status', '=', 'active')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** Sets a user's role or status; a trigger moves the `sessions` stamp with it (db/dialect/ddl/session-triggers.ts). */
export async function setUserAccess(db: Executor, id: number, change: { role: Role } | { status: UserStatus }, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...change, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function updateUser(db: Executor, id: number, changes: Updateable<UsersTable>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

export async function deleteUser(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}
