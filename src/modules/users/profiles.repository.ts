import { sql, type Transaction, type Updateable } from 'kysely';
import { asciiLower, asciiLowerCase, escapeLike } from '../../db/dialect/index.js';
import type { DB, Role, UserStatus, UsersTable } from '../../db/schema/index.js';
import type { Executor } from '../../db/executor.js';

export interface ProfileCounts {
  publishedListings: number;
  favorites: number;
}

/** Both profile counts for a page of users in two grouped queries, whatever the page size. */
export async function findProfileCounts(db: Executor, userIds: readonly number[]): Promise<Map<number, ProfileCounts>> {
  const counts = new Map<number, ProfileCounts>(userIds.map((id) => [id, { publishedListings: 0, favorites: 0 }]));
  if (userIds.length === 0) return counts;
  const [listings, favorites] = await Promise.all([
    db
      .selectFrom('listings')
      .select(['author_id as user_id', (eb) => eb.fn.countAll().as('n')])
      .where('author_id', 'in', userIds)
      .where('status', '=', 'publish')
      .groupBy('author_id')
      .execute(),
    db
      .selectFrom('favorites')
      .select(['user_id', (eb) => eb.fn.countAll().as('n')])
      .where('user_id', 'in', userIds)
      .groupBy('user_id')
      .execute(),
  ]);
  // PostgreSQL returns count(*) as a bigint string, SQLite as a number.
  for (const row of listings) if (row.user_id !== null) counts.get(row.user_id)!.publishedListings = Number(row.n);
  for (const row of favorites) counts.get(row.user_id)!.favorites = Number(row.n);
  return counts;
}

export interface UserFilter {
  role?: Role;
  status?: UserStatus;
  /** Matched case-insensitively as a substring of the username, e-mail address or display name. */
  search?: string;
  limit: number;
  offset: number;
}

/** One page of user ids, newest first (ties by id), and how many users match in all. */
export async function findUserPage(db: Executor, filter: UserFilter): Promise<{ ids: number[]; total: number }> {
  let query = db.selectFrom('users');
  if (filter.role !== undefined) query = query.where('role', '=', filter.role);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.search !== undefined) {
    // Both sides lower-cased the same way on both databases (ASCII letters only): SQLite's LIKE ignores ASCII
    // case and PostgreSQL's does not, so neither may rely on it.
    const pattern = `%${escapeLike(asciiLowerCase(filter.search))}%`;
    query = query.where((eb) =>
      eb.or(
        (['username', 'email', 'display_name'] as const).map(
          (column) => sql<boolean>`${asciiLower(db, eb.ref(column))} like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  const [page, count] = await Promise.all([
    query.select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { ids: page.map((row) => row.id), total: Number(count.n) };
}

export async function updateUser(db: Executor, userId: number, changes: Updateable<UsersTable>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

/**
 * The database side of an account deletion (docs/api.md 3.2); run inside one transaction. Published listings are
 * unpublished to `draft` and kept (the foreign key turns their author to null when the user row goes); the
 * user's other listings are deleted. Sessions and favorites go with the user row (cascade), and the user's
 * agent or agency record stays with no user (set null).
 */
export async function deleteAccountData(trx: Transaction<DB>, userId: number, now: string): Promise<void> {
  await trx.deleteFrom('listings').where('author_id', '=', userId).where('status', '!=', 'publish').execute();
  // The move to draft enters each listing's history (docs/api.md 3.3), without an actor: the account is gone.
  await trx
    .insertInto('listing_transitions')
    .columns(['listing_id', 'from_state', 'to_state', 'actor_id', 'reason', 'at'])
    .expression((eb) =>
      eb
        .selectFrom('listings')
        .select([
          'id',
          eb.val('publish').as('from_state'),
          eb.val('draft').as('to_state'),
          eb.val(null).as('actor_id'),
          eb.val('account deleted').as('reason'),
          eb.val(now).as('at'),
        ])
        .where('author_id', '=', userId)
        .where('status', '=', 'publish'),
    )
    .execute();
  await trx
    .updateTable('listings')
    .set({ status: 'draft', updated_at: now })
    .where('author_id', '=', userId)
    .where('status', '=', 'publish')
    .execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
}
