import type { Kysely, Transaction } from 'kysely';
import type { DB, Role } from '../../db/schema.js';

type Executor = Kysely<DB> | Transaction<DB>;

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
export async function findSessionCaller(
  db: Executor,
  sessionId: string,
): Promise<{ user_id: number; role: Role; status: 'active' | 'suspended'; expires_at: string; revoked_at: string | null } | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', 'u.role', 'u.status', 's.expires_at', 's.revoked_at'])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
}
