import { type Kysely, sql } from 'kysely';
import { binaryText, identity } from '../dialect/ddl/columns.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Old addresses of imported records (modules/exchange/redirects; docs/data-exchange.md, "Old addresses"): the path
 * a listing, agent or agency had on the site it came from (a WordPress permalink), answered with a 301 to the
 * record's current `url` where the path would otherwise be a 404. The row names its record, never a target URL,
 * so the answer follows the record (a changed slug) and goes with it (the foreign keys cascade): a deleted record
 * leaves no redirect behind. A path names one record (unique, compared byte for byte on both databases).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('redirects')
    .addColumn('id', 'integer', identity(db))
    .addColumn('path', binaryText(db), (col) => col.notNull().unique())
    .addColumn('listing_id', 'integer', (col) => col.references('listings.id').onDelete('cascade'))
    .addColumn('agent_id', 'integer', (col) => col.references('agents.id').onDelete('cascade'))
    .addColumn('agency_id', 'integer', (col) => col.references('agencies.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addCheckConstraint(
      'redirects_one_record',
      sql`(case when listing_id is null then 0 else 1 end) + (case when agent_id is null then 0 else 1 end) + (case when agency_id is null then 0 else 1 end) = 1`,
    )
    .execute();
  // The cascades look rows up by their record.
  await db.schema.createIndex('redirects_listing_idx').on('redirects').column('listing_id').execute();
  await db.schema.createIndex('redirects_agent_idx').on('redirects').column('agent_id').execute();
  await db.schema.createIndex('redirects_agency_idx').on('redirects').column('agency_id').execute();
}
