import type { Executor } from '../../db/executor.js';

export interface NewAccountRecord {
  user_id: number;
  name: string;
  slug: string;
  sort_key: string;
  email: string;
  phone: string;
  created_at: string;
  updated_at: string;
}

const TABLES = { agent: 'agents', agency: 'agencies' } as const;

export async function hasAccountRecord(db: Executor, kind: 'agent' | 'agency', userId: number): Promise<boolean> {
  const row = await db.selectFrom(TABLES[kind]).select('id').where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export async function isAccountRecordSlugTaken(db: Executor, kind: 'agent' | 'agency', slug: string): Promise<boolean> {
  const row = await db.selectFrom(TABLES[kind]).select('id').where('slug', '=', slug).executeTakeFirst();
  return row !== undefined;
}

/** One literal table per branch, so that the architecture test can see which table is written. */
export async function insertAccountRecord(db: Executor, kind: 'agent' | 'agency', record: NewAccountRecord): Promise<void> {
  if (kind === 'agent') await db.insertInto('agents').values(record).execute();
  else await db.insertInto('agencies').values(record).execute();
}
