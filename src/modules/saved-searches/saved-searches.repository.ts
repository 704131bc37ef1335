import type { Selectable, Transaction } from 'kysely';
import { lockTransactionKey } from '../../db/dialect/index.js';
import type { DB, SavedSearchFrequency, SavedSearchesTable, Taxonomy } from '../../db/schema/index.js';
import type { PageWindow } from '../../lib/paging.js';
import type { NamedTerm } from './display-text.js';
import type { Executor } from '../../db/executor.js';

/** Saved-search storage (docs/api.md 7). Every query names the owner, so another user's record is never touched. */

export type SavedSearchRow = Selectable<SavedSearchesTable>;

export interface NewSavedSearch {
  userId: number;
  name: string;
  queryString: string;
  emailAlerts: boolean;
  frequency: SavedSearchFrequency;
  createdAt: string;
}

/**
 * Serializes, until the transaction ends, the transactions that count and add one user's saved searches, so that
 * two concurrent creations cannot both pass the limit (PostgreSQL: an advisory lock; SQLite runs one write
 * transaction at a time anyway).
 */
export async function lockSavedSearchesOf(trx: Transaction<DB>, userId: number): Promise<void> {
  await lockTransactionKey(trx, `saved-searches:${userId}`);
}

export async function countSavedSearches(db: Executor, userId: number): Promise<number> {
  const { n } = await db
    .selectFrom('saved_searches')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertSavedSearch(db: Executor, search: NewSavedSearch): Promise<SavedSearchRow> {
  return db
    .insertInto('saved_searches')
    .values({
      user_id: search.userId,
      name: search.name,
      query_string: search.queryString,
      email_alerts: search.emailAlerts ? 1 : 0,
      frequency: search.frequency,
      created_at: search.createdAt,
      updated_at: search.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One page of the user's saved searches, newest first (ties: id descending), and their total; through saved_searches_user_idx. */
export async function findSavedSearchPage(
  db: Executor,
  userId: number,
  window: PageWindow,
): Promise<{ rows: SavedSearchRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('saved_searches')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(window.perPage)
      .offset(window.offset)
      .execute(),
    countSavedSearches(db, userId),
  ]);
  return { rows, total };
}

export async function findOwnSavedSearch(db: Executor, userId: number, id: number): Promise<SavedSearchRow | undefined> {
  return db.selectFrom('saved_searches').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export interface SavedSearchChanges {
  name?: string;
  emailAlerts?: boolean;
  frequency?: SavedSearchFrequency;
  updatedAt: string;
}

/** The updated row; undefined when the user has no saved search of that id. */
export async function updateOwnSavedSearch(
  db: Executor,
  userId: number,
  id: number,
  changes: SavedSearchChanges,
): Promise<SavedSearchRow | undefined> {
  return db
    .updateTable('saved_searches')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.emailAlerts !== undefined ? { email_alerts: changes.emailAlerts ? 1 : 0 } : {}),
      ...(changes.frequency !== undefined ? { frequency: changes.frequency } : {}),
      updated_at: changes.updatedAt,
    })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/** True when the user's saved search existed (its matches go with it, by the foreign key's cascade). */
export async function deleteOwnSavedSearch(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('saved_searches').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The terms named by slug or id in the given taxonomies: one query for a whole page of saved searches. */
export async function findNamedTerms(
  db: Executor,
  taxonomies: readonly Taxonomy[],
  slugs: readonly string[],
  ids: readonly number[],
): Promise<NamedTerm[]> {
  if (taxonomies.length === 0 || (slugs.length === 0 && ids.length === 0)) return [];
  return db
    .selectFrom('terms')
    .select(['id', 'taxonomy', 'slug', 'name'])
    .where('taxonomy', 'in', taxonomies)
    .where((eb) => eb.or([...(slugs.length ? [eb('slug', 'in', slugs)] : []), ...(ids.length ? [eb('id', 'in', ids)] : [])]))
    .execute();
}
