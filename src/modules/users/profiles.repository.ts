import { sql } from 'kysely';
import { asciiLower, asciiLowerCase, escapeLike } from '../../db/dialect/index.js';
import type { Role, UserStatus } from '../../db/schema/index.js';
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
