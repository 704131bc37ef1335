import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Documents a feed names (issue 41: a Houzez listing's brochures, `fave_attachments`) wait in `feed_pictures`
 * beside its pictures and are fetched by the same job into the listing's attachments. `kind` tells them apart:
 * 'picture' (every row so far) or 'document'; each kind has its own positions.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('feed_pictures')
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('picture'))
    .execute();
}
