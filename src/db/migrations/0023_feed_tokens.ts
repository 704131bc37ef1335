import type { Kysely } from 'kysely';
import { identity } from '../dialect/ddl/columns.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Portal feed tokens (modules/exchange): the secret in a feed URL that a portal pulls without signing in. Only
 * the token's SHA-256 is kept, so a leaked table opens no feed; the token is found by its hash (unique index).
 * Revoking deletes the row. A token outlives the administrator who made it: the portal keeps pulling.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('feed_tokens')
    .addColumn('id', 'integer', identity(db))
    .addColumn('name', 'text', (col) => col.notNull())
    /** A feed format name: `csv`, `reso` or `kyero`. */
    .addColumn('format', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    /** The token's last 4 characters, so that an administrator can tell tokens apart in the list. */
    .addColumn('token_hint', 'text', (col) => col.notNull())
    .addColumn('created_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    /** The last pull, written at most once a minute per token. */
    .addColumn('last_used_at', 'text')
    .execute();
}
