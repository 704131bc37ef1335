import { type Kysely, sql } from 'kysely';
import { identity } from './columns.js';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Lets several media rows share one stored file (demo listings reuse a few generated images): the unique
 * constraint on `media.storage_key` becomes a plain index, and deleting code removes a file only when no
 * row refers to it any more. PostgreSQL drops the constraint; SQLite cannot drop an inline constraint, so
 * the table is rebuilt by its documented procedure (foreign keys off, copy, swap, check, on). Kysely runs
 * SQLite migrations outside a transaction, which that procedure needs; the copy itself is one transaction.
 */
export async function shareMediaStorageKeys(db: AnyDb): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`alter table media drop constraint media_storage_key_key`.execute(db);
  } else {
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await db.transaction().execute(async (trx) => {
        await trx.schema
          .createTable('media_rebuilt')
          .addColumn('id', 'integer', identity(db))
          .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('listing_id', 'integer', (c) => c.references('listings.id').onDelete('set null'))
          .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('storage_key', 'text', (c) => c.notNull())
          .addColumn('mime_type', 'text', (c) => c.notNull())
          .addColumn('width', 'integer')
          .addColumn('height', 'integer')
          .addColumn('size_bytes', 'integer', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('caption', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('alt', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('sizes', 'text', (c) => c.notNull().defaultTo('{}'))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await sql`insert into media_rebuilt select * from media`.execute(trx);
        await trx.schema.dropTable('media').execute();
        await trx.schema.alterTable('media_rebuilt').renameTo('media').execute();
        await trx.schema.createIndex('media_owner_idx').on('media').columns(['owner_id', 'id']).execute();
        await trx.schema.createIndex('media_listing_idx').on('media').columns(['listing_id', 'position']).execute();
      });
      const problems = await sql`pragma foreign_key_check`.execute(db);
      if (problems.rows.length > 0) throw new Error(`foreign key check failed after rebuilding media: ${JSON.stringify(problems.rows)}`);
    } finally {
      await sql`pragma foreign_keys = on`.execute(db);
    }
  }
  await db.schema.createIndex('media_storage_key_idx').on('media').column('storage_key').execute();
}
