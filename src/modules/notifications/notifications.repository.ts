import type { Insertable } from 'kysely';
import type { ListingState, NotificationRow, NotificationsTable, NotificationType } from '../../db/schema/index.js';
import type { ChannelSwitches } from './delivery/notification-preferences.js';
import type { Executor } from '../../db/executor.js';

export interface NotificationFilter {
  /** `read`, `unread`, or undefined for both. */
  read?: boolean;
  type?: NotificationType;
}

/**
 * Inserts notifications; one that exists already for its (user, source) is skipped. Returns the rows it
 * inserted, so that only they go on to e-mail, push and the live stream.
 */
export async function insertNotifications(db: Executor, rows: readonly Insertable<NotificationsTable>[]): Promise<NotificationRow[]> {
  if (rows.length === 0) return [];
  return db
    .insertInto('notifications')
    .values([...rows])
    .onConflict((oc) => oc.columns(['user_id', 'source']).doNothing())
    .returningAll()
    .execute();
}

function filtered(db: Executor, userId: number, filter: NotificationFilter) {
  let query = db.selectFrom('notifications').where('user_id', '=', userId);
  if (filter.read !== undefined) query = query.where('is_read', '=', filter.read ? 1 : 0);
  if (filter.type !== undefined) query = query.where('type', '=', filter.type);
  return query;
}

/** A page of the user's notifications, newest first. */
export async function findNotifications(
  db: Executor,
  userId: number,
  filter: NotificationFilter,
  page: { limit: number; offset: number },
): Promise<NotificationRow[]> {
  return filtered(db, userId, filter).selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countNotifications(db: Executor, userId: number, filter: NotificationFilter): Promise<number> {
  const row = await filtered(db, userId, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's notifications after `afterId`, oldest first: what a live stream missed while disconnected. */
export async function findNotificationsAfter(db: Executor, userId: number, afterId: number, limit: number): Promise<NotificationRow[]> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Marks one of the user's notifications read; false when the user has no such notification. */
export async function markRead(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set({ is_read: 1 })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function markAllRead(db: Executor, userId: number): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ is_read: 1 })
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteNotification(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('notifications').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows === 1n;
}

export interface PreferenceRow {
  user_id: number;
  type: NotificationType;
  in_app: number;
  email: number;
  push: number;
}

/** The stored preferences of some users (only types they changed have rows). */
export async function findPreferenceRows(db: Executor, userIds: readonly number[]): Promise<PreferenceRow[]> {
  if (userIds.length === 0) return [];
  return db.selectFrom('notification_preferences').selectAll().where('user_id', 'in', userIds).execute();
}

/** Stores a user's switches for some types, replacing what was stored for them. */
export async function upsertPreferences(
  db: Executor,
  userId: number,
  switches: readonly { type: NotificationType; value: ChannelSwitches }[],
): Promise<void> {
  if (switches.length === 0) return;
  await db
    .insertInto('notification_preferences')
    .values(switches.map(({ type, value }) => ({ user_id: userId, type, in_app: +value.in_app, email: +value.email, push: +value.push })))
    .onConflict((oc) =>
      oc.columns(['user_id', 'type']).doUpdateSet((eb) => ({
        in_app: eb.ref('excluded.in_app'),
        email: eb.ref('excluded.email'),
        push: eb.ref('excluded.push'),
      })),
    )
    .execute();
}

/** The language each of these users reads (their profile's `language`); deleted users are absent. */
export async function findUserLanguages(db: Executor, userIds: readonly number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'language']).where('id', 'in', userIds).execute();
  return new Map(rows.map((row) => [row.id, row.language]));
}

/** The users among `userIds` who turned e-mail off for notifications of `type`. */
export async function findEmailOptOuts(db: Executor, userIds: readonly number[], type: NotificationType): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('notification_preferences')
    .select('user_id')
    .where('user_id', 'in', userIds)
    .where('type', '=', type)
    .where('email', '=', 0)
    .execute();
  return new Set(rows.map((row) => row.user_id));
}

/** Who a notification e-mail goes to, read when it is sent; undefined for a deleted user. */
export async function findMailRecipient(
  db: Executor,
  userId: number,
): Promise<{ id: number; email: string; display_name: string; language: string } | undefined> {
  return db.selectFrom('users').select(['id', 'email', 'display_name', 'language']).where('id', '=', userId).executeTakeFirst();
}

/** What a notification e-mail needs to link listings: slug and title, and state and author for who may see them. */
export async function findMailListings(
  db: Executor,
  ids: readonly number[],
): Promise<{ id: number; slug: string; title: string; status: ListingState; author_id: number | null }[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('listings').select(['id', 'slug', 'title', 'status', 'author_id']).where('id', 'in', ids).execute();
}
