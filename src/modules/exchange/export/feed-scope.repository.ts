import type { Executor } from '../../../db/executor.js';

/**
 * The directory records a user stands behind: their agency record and their own agent record, each found
 * through its unique `user_id` index. Read here rather than through the directory module because the exports
 * already read the directory's tables (feed-export.repository.ts) and write none of them.
 */
export async function findDirectoryRecordsOf(db: Executor, userId: number): Promise<{ agencyId: number | null; agentId: number | null }> {
  const [agency, agent] = await Promise.all([
    db.selectFrom('agencies').select('id').where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('agents').select('id').where('user_id', '=', userId).executeTakeFirst(),
  ]);
  return { agencyId: agency?.id ?? null, agentId: agent?.id ?? null };
}
