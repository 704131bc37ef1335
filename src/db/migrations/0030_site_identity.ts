import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * This site's identity among realty-api sites (docs/data-exchange.md, "Own exports read back in place"): a random
 * name made once, when the database is made or first migrated, and never changed. An export names a listing made
 * here `realty:<site_key>:<id>`, so that reading the file back into this database finds that listing again,
 * whatever source name the import is given, while another site's file (another key) still creates. One row.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('site_identity')
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('site_key', 'text', (col) => col.notNull())
    .execute();
  await db
    .insertInto('site_identity')
    .values({ id: 1, site_key: randomBytes(8).toString('hex') })
    .execute();
}
