import type { Transaction } from 'kysely';
import type { DB, LoginLocksTable } from '../../db/schema/index.js';
import type { SessionCaller } from './session-cache.service.js';
import type { Executor } from '../../db/executor.js';

export async function insertSession(
  db: Executor,
  session: { id: string; userId: number; refreshTokenHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      refresh_token_hash: session.refreshTokenHash,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
      revoked_at: null,
    })
    .execute();
}

/** The session behind an access token, with what authorization needs of its user (one indexed look-up). */
export async function findSessionCaller(db: Executor, sessionId: string): Promise<SessionCaller | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', 'u.role', 'u.status', 's.expires_at', 's.revoked_at'])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
}

export async function findSessionByRefreshHash(db: Executor, hash: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'expires_at', 'revoked_at'])
    .where('refresh_token_hash', '=', hash)
    .executeTakeFirst();
}

/** The session that once held a refresh token it has since rotated away. */
export async function findSessionOfRetiredToken(db: Executor, hash: string): Promise<string | undefined> {
  const row = await db.selectFrom('retired_refresh_tokens').select('session_id').where('token_hash', '=', hash).executeTakeFirst();
  return row?.session_id;
}

/**
 * Swaps a session's refresh token, only if it still holds `oldHash` (two requests racing with one token:
 * exactly one wins), and remembers the old one as retired. Returns false when the swap lost.
 */
export async function rotateRefreshToken(
  trx: Transaction<DB>,
  sessionId: string,
  oldHash: string,
  newHash: string,
  now: string,
  expiresAt: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('sessions')
    .set({ refresh_token_hash: newHash, expires_at: expiresAt })
    .where('id', '=', sessionId)
    .where('refresh_token_hash', '=', oldHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) return false;
  await trx.insertInto('retired_refresh_tokens').values({ token_hash: oldHash, session_id: sessionId, retired_at: now }).execute();
  return true;
}

/** Revokes sessions; a trigger moves the `sessions` stamp with it (db/dialect/ddl/session-triggers.ts). */
export async function revokeSessions(
  trx: Transaction<DB>,
  where: { sessionId: string } | { userId: number; exceptSessionId?: string },
  now: string,
): Promise<number> {
  let query = trx.updateTable('sessions').set({ revoked_at: now }).where('revoked_at', 'is', null);
  if ('sessionId' in where) {
    query = query.where('id', '=', where.sessionId);
  } else {
    query = query.where('user_id', '=', where.userId);
    if (where.exceptSessionId !== undefined) query = query.where('id', '!=', where.exceptSessionId);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function findLoginLock(db: Executor, key: string): Promise<LoginLocksTable | undefined> {
  return db.selectFrom('login_locks').selectAll().where('login_key', '=', key).executeTakeFirst();
}

/**
 * Counts one failed login for `key` in one atomic statement (concurrent failures all count): a window
 * older than `windowStartCutoff` starts over at 1. Returns the failures in the current window.
 */
export async function countLoginFailure(db: Executor, key: string, now: string, windowStartCutoff: string): Promise<number> {
  const row = await db
    .insertInto('login_locks')
    .values({ login_key: key, failures: 1, window_started_at: now, locked_until: null })
    .onConflict((oc) =>
      oc.column('login_key').doUpdateSet((eb) => ({
        failures: eb
          .case()
          .when('login_locks.window_started_at', '<', windowStartCutoff)
          .then(1)
          .else(eb('login_locks.failures', '+', 1))
          .end(),
        window_started_at: eb
          .case()
          .when('login_locks.window_started_at', '<', windowStartCutoff)
          .then(now)
          .else(eb.ref('login_locks.window_started_at'))
          .end(),
      })),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return row.failures;
}

export async function lockLogin(db: Executor, key: string, until: string): Promise<void> {
  await db.updateTable('login_locks').set({ locked_until: until }).where('login_key', '=', key).execute();
}

export async function clearLoginLocks(db: Executor, keys: readonly string[]): Promise<void> {
  if (keys.length > 0) await db.deleteFrom('login_locks').where('login_key', 'in', keys).execute();
}

export async function insertPasswordReset(
  db: Executor,
  reset: { tokenHash: string; userId: number; now: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({ token_hash: reset.tokenHash, user_id: reset.userId, created_at: reset.now, expires_at: reset.expiresAt, used_at: null })
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .execute();
}

export async function passwordResetIsUsable(db: Executor, tokenHash: string, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('password_resets')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Marks an unused, unexpired reset token used, in one conditional statement (a token races itself only
 * once), and returns its user; undefined when the token is unknown, used or expired.
 */
export async function consumePasswordReset(trx: Transaction<DB>, tokenHash: string, now: string): Promise<number | undefined> {
  const row = await trx
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Every other outstanding reset token of the user stops working once one is used. */
export async function expirePasswordResets(trx: Transaction<DB>, userId: number, now: string): Promise<void> {
  await trx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** The first run's token (first-run.service.ts): the one kept replaced by `tokenHash`, or none kept when undefined. */
export async function replaceSetupToken(trx: Transaction<DB>, tokenHash: string | undefined, now: string): Promise<void> {
  await trx.deleteFrom('setup_tokens').execute();
  if (tokenHash) await trx.insertInto('setup_tokens').values({ token_hash: tokenHash, created_at: now }).execute();
}

/** Deletes the set-up token of `tokenHash`, in one statement (two requests with it cannot both spend it); whether it was there. */
export async function consumeSetupToken(trx: Transaction<DB>, tokenHash: string): Promise<boolean> {
  const result = await trx.deleteFrom('setup_tokens').where('token_hash', '=', tokenHash).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
