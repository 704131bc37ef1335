import type { Kysely } from 'kysely';
import { recordWebhookSources } from '../dialect/ddl/change-log-webhook-sources.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The change log records agents' and agencies' updates, leads, reviews, invoices and memberships: the sources of
 * the webhooks' event types other than listings' (db/dialect/ddl/change-log-webhook-sources.ts).
 */
export async function up(db: AnyDb): Promise<void> {
  await recordWebhookSources(db);
}
