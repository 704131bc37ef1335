import type { Executor } from '../../db/executor.js';

/** This site's key (migration 0030): made once, never changed, so it is read once per process. */
export async function findSiteKey(db: Executor): Promise<string> {
  const row = await db.selectFrom('site_identity').select('site_key').where('id', '=', 1).executeTakeFirstOrThrow();
  return row.site_key;
}
