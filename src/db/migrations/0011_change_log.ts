import type { Kysely } from 'kysely';
import { createChangeLog } from '../dialect/ddl/change-log.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The change log (db/dialect/ddl/change-log.ts): every change to a listing, its term links and agents, a term,
 * an agent's agency or an agency, recorded by triggers in the writing transaction and numbered in commit
 * order, so that a derived index (the search engine) and, later, outbound webhooks can follow the database
 * by sequence number. Nothing is backfilled: a follower builds from the tables and follows from the head.
 */
export async function up(db: AnyDb): Promise<void> {
  await createChangeLog(db);
}
