import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The moderators' list of listings in one state (docs/api.md 3.3), most recently changed first: a page is a
 * backward range of `(status, updated_at, id)`, read from the index alone on both databases, whatever the
 * number of listings in that state.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('listings_status_updated_idx').on('listings').columns(['status', 'updated_at', 'id']).execute();
}
