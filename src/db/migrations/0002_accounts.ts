import { type Kysely, sql } from 'kysely';
import { binaryText, identity } from '../dialect/ddl/columns.js';
import { createSessionTriggers } from '../dialect/ddl/session-triggers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Accounts: agencies and agents created at registration, media (avatars now, galleries next), favorites,
 * refresh-token rotation, password resets, the login lock, social identities and the outbox of side effects.
 */
export async function up(db: AnyDb): Promise<void> {
  const text = binaryText(db);

  // Directory records that registration creates for the agent and agency roles; the directory issue adds
  // the rest of their fields.
  await db.schema
    .createTable('agencies')
    .addColumn('id', 'integer', identity(db))
    .addColumn('user_id', 'integer', (c) => c.unique().references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', text, (c) => c.notNull().unique())
    .addColumn('sort_key', text, (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('agents')
    .addColumn('id', 'integer', identity(db))
    .addColumn('user_id', 'integer', (c) => c.unique().references('users.id').onDelete('set null'))
    .addColumn('agency_id', 'integer', (c) => c.references('agencies.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', text, (c) => c.notNull().unique())
    .addColumn('sort_key', text, (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agents_agency_idx').on('agents').column('agency_id').execute();

  await db.schema
    .createTable('media')
    .addColumn('id', 'integer', identity(db))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('listing_id', 'integer', (c) => c.references('listings.id').onDelete('set null'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
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
  await db.schema.createIndex('media_owner_idx').on('media').columns(['owner_id', 'id']).execute();
  await db.schema.createIndex('media_listing_idx').on('media').columns(['listing_id', 'position']).execute();

  await db.schema
    .alterTable('users')
    .addColumn('avatar_media_id', 'integer', (c) => c.references('media.id').onDelete('set null'))
    .execute();

  // Usernames are unique ignoring case (registration refuses `Alice` when `alice` exists).
  await db.schema
    .createIndex('users_username_lower_unique')
    .on('users')
    .unique()
    .expression(sql`lower(username)`)
    .execute();

  await db.schema
    .createTable('favorites')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'listing_id'])
    .execute();
  await db.schema.createIndex('favorites_listing_idx').on('favorites').column('listing_id').execute();

  // Refresh tokens a session has already rotated away: presenting one again is a theft signal.
  await db.schema
    .createTable('retired_refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('retired_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('retired_refresh_tokens_session_idx').on('retired_refresh_tokens').column('session_id').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();

  // Failed logins per login name (known or not), shared by every process through the database.
  await db.schema
    .createTable('login_locks')
    .addColumn('login_key', text, (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .execute();

  await db.schema
    .createTable('social_accounts')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', text, (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('social_accounts_pk', ['provider', 'subject'])
    .execute();
  await db.schema.createIndex('social_accounts_user_idx').on('social_accounts').column('user_id').execute();

  // Side effects written in the transaction that causes them and sent by the outbox worker (jobs/outbox.ts).
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'integer', identity(db))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', text, (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('available_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  // The worker's claim query: due messages in order.
  await db.schema.createIndex('outbox_due_idx').on('outbox').columns(['status', 'available_at', 'id']).execute();

  await db.insertInto('cache_versions').values({ name: 'sessions', version: 'initial' }).execute();
  await createSessionTriggers(db);
}
