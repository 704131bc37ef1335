import type { Executor } from '../../../db/executor.js';

export interface PendingEvent {
  id: number;
  type: string;
  payload: string;
}

/** The oldest events not yet turned into notifications. */
export async function findPendingEvents(db: Executor, limit: number): Promise<PendingEvent[]> {
  return db
    .selectFrom('domain_events')
    .select(['id', 'type', 'payload'])
    .where('processed_at', 'is', null)
    .orderBy('processed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Title and owner of listings that events name; deleted listings are absent. */
export async function findListingFacts(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, { title: string; authorId: number | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('listings').select(['id', 'title', 'author_id']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, { title: row.title, authorId: row.author_id }]));
}

/** The sender's name of each lead. */
export async function findLeadNames(db: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('leads').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function findDisplayNames(db: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'display_name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.display_name]));
}
