import type { DevicePlatform } from '../../../db/schema/index.js';
import type { Executor } from '../../../db/executor.js';

/**
 * Registers a push token for a user. A token names one app install: registering it again moves it to the
 * user who registered it last (a phone that signed in as someone else), so it never pushes to two people.
 */
export async function registerDevice(db: Executor, userId: number, platform: DevicePlatform, token: string, at: string): Promise<void> {
  await db
    .insertInto('devices')
    .values({ user_id: userId, platform, token, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('token').doUpdateSet({ user_id: userId, platform, updated_at: at }))
    .execute();
}

/** Forgets the caller's own token; another user's token is left alone (and the answer does not say so). */
export async function unregisterDevice(db: Executor, userId: number, token: string): Promise<void> {
  await db.deleteFrom('devices').where('token', '=', token).where('user_id', '=', userId).execute();
}

/** The users among `userIds` that have at least one device: only they get push messages queued. */
export async function usersWithDevices(db: Executor, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.selectFrom('devices').select('user_id').distinct().where('user_id', 'in', userIds).execute();
  return new Set(rows.map((row) => row.user_id));
}

/** A user's push tokens, oldest registration first (`devices_user_idx`). */
export async function findDeviceTokensOf(db: Executor, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('devices').select('token').where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((row) => row.token);
}

/**
 * Forgets tokens FCM no longer knows. Only while they are still `userId`'s: a token registered again by
 * someone else since the send is that user's live device now.
 */
export async function deleteDeviceTokensOf(db: Executor, userId: number, tokens: readonly string[]): Promise<number> {
  if (tokens.length === 0) return 0;
  const result = await db.deleteFrom('devices').where('user_id', '=', userId).where('token', 'in', tokens).executeTakeFirst();
  return Number(result.numDeletedRows);
}
