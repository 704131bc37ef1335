import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The first run's one-time link (modules/auth/first-run.service.ts): while no administrator exists, `serve`
 * keeps the SHA-256 of the token it prints (one row: each start replaces it); creating the first administrator
 * with that token deletes it, in the same transaction.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('setup_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}
