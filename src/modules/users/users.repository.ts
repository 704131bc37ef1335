import type { Kysely, Transaction } from 'kysely';
import type { DB, NewUser, UserRow } from '../../db/schema.js';

type Executor = Kysely<DB> | Transaction<DB>;

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

export async function usernameExists(db: Executor, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(db: Executor, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}
