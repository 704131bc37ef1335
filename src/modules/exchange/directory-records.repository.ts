import type { Executor } from '../../db/executor.js';

/**
 * The agent or agency record of an account, found through the unique `user_id` index: whose listings an agency or
 * agent user exports, and which record an import updates for an account it finds by e-mail. Read here rather than
 * through the directory module, whose `managedBy` also counts an agency's agents as the agency user's.
 */
export async function findDirectoryRecordOf(db: Executor, table: 'agents' | 'agencies', userId: number): Promise<number | undefined> {
  const row = await db.selectFrom(table).select('id').where('user_id', '=', userId).executeTakeFirst();
  return row?.id;
}
