import type { UserRow } from '../../db/schema/index.js';
import type { SocialProvider } from '../../lib/social-providers.js';
import type { Executor } from '../../db/executor.js';

/** The account a provider identity is linked to (primary-key look-up). */
export async function findLinkedUser(db: Executor, provider: SocialProvider, subject: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('social_accounts as sa')
    .innerJoin('users as u', 'u.id', 'sa.user_id')
    .selectAll('u')
    .where('sa.provider', '=', provider)
    .where('sa.subject', '=', subject)
    .executeTakeFirst();
}

/** Throws the driver's unique violation when the identity is already linked (primary key provider+subject). */
export async function insertLink(
  db: Executor,
  link: { provider: SocialProvider; subject: string; userId: number; createdAt: string },
): Promise<void> {
  await db
    .insertInto('social_accounts')
    .values({ provider: link.provider, subject: link.subject, user_id: link.userId, created_at: link.createdAt })
    .execute();
}
