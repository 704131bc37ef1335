import { type Kysely, sql } from 'kysely';
import { recordWebhookSources } from '../dialect/ddl/change-log-webhook-sources.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The change log records agents' and agencies' updates, leads, reviews, invoices and memberships: the sources of
 * the webhooks' event types other than listings' (db/dialect/ddl/change-log-webhook-sources.ts). And the
 * webhooks' switch an administrator flips at run time: every delivery held back while `deliveries_paused` is 1.
 */
export async function up(db: AnyDb): Promise<void> {
  await recordWebhookSources(db);
  /** One row, id 1, absent until an administrator first sets it (absent: not paused). */
  await db.schema
    .createTable('webhook_settings')
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('deliveries_paused', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}
