import type { Kysely } from 'kysely';
import { binaryText, identity } from '../dialect/ddl/columns.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Notifications (docs/api.md 8): the in-app rows, each user's channel preferences, push devices, the
 * administrator's queued broadcasts and the leases of the background scheduler.
 *
 * A notification is written once per (user, source): the source names what caused it (`event:<id>`,
 * `broadcast:<id>`, `match:<saved search>:<listing>` …), so that a job that runs again after a crash, or in two
 * processes at once, inserts nothing twice. Its owner's list (newest first), the unread count and the type
 * filter each walk an index that starts with `user_id`.
 *
 * `scheduled_jobs` holds one row per background job: a process runs a job only after moving its lease forward
 * with a conditional update, so that a job runs once per period however many processes share the database.
 */
export async function up(db: AnyDb): Promise<void> {
  const text = binaryText(db);
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'integer', identity(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', text, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_source_idx').unique().on('notifications').columns(['user_id', 'source']).execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'is_read', 'id']).execute();
  await db.schema.createIndex('notifications_user_type_idx').on('notifications').columns(['user_id', 'type', 'id']).execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('in_app', 'integer', (c) => c.notNull())
    .addColumn('email', 'integer', (c) => c.notNull())
    .addColumn('push', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'type'])
    .execute();

  await db.schema
    .createTable('devices')
    .addColumn('id', 'integer', identity(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('token', text, (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('devices_user_idx').on('devices').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('broadcasts')
    .addColumn('id', 'integer', identity(db))
    .addColumn('sender_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('role', 'text')
    .addColumn('recipients', 'integer', (c) => c.notNull())
    .addColumn('last_user_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('broadcasts_status_idx').on('broadcasts').columns(['status', 'id']).execute();

  await db.schema
    .createTable('scheduled_jobs')
    .addColumn('name', text, (c) => c.primaryKey())
    .addColumn('next_run_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('locked_by', 'text')
    .addColumn('last_finished_at', 'text')
    .addColumn('last_error', 'text')
    .execute();

  // Digests read the matches not yet announced, per saved search.
  await db.schema
    .createIndex('saved_search_matches_pending_idx')
    .on('saved_search_matches')
    .columns(['notified_at', 'saved_search_id', 'listing_id'])
    .execute();
  // The administrator's view of failed deliveries lists them newest first by state.
  await db.schema.createIndex('outbox_status_idx').on('outbox').columns(['status', 'id']).execute();
  // A broadcast to a role reads its recipients in id order, a batch at a time.
  await db.schema.dropIndex('users_role_idx').execute();
  await db.schema.createIndex('users_role_idx').on('users').columns(['role', 'id']).execute();
}
