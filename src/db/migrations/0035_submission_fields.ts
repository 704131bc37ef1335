import type { AnyDb } from '../any-db.js';

/**
 * The listing fields an administrator requires before a listing is submitted (issue 40: site settings
 * `submission_fields`), a JSON array of input names; empty, the default, requires nothing beyond the contract's.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('site_settings')
    .addColumn('submission_fields', 'text', (col) => col.notNull().defaultTo('[]'))
    .execute();
}
