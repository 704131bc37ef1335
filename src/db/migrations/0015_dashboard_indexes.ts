import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Indexes of the dashboards' figures (docs/api.md 13), each a range of one column:
 * - new listings and new leads per day read a window of `created_at`;
 * - revenue per month reads paid invoices over a window of `paid_at`.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('listings_created_idx').on('listings').column('created_at').execute();
  await db.schema.createIndex('leads_created_idx').on('leads').column('created_at').execute();
  await db.schema.createIndex('invoices_status_paid_idx').on('invoices').columns(['status', 'paid_at']).execute();
}
