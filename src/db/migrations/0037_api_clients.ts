import type { AnyDb } from '../any-db.js';
import { identity } from '../dialect/ddl/columns.js';
import { createApiClientTriggers } from '../dialect/ddl/api-client-triggers.js';

/**
 * Machine clients (issue 43 item 1, modules/api-clients): a client made by an administrator, its secrets (two
 * at a time while a rotation's overlap runs) and the short-lived access tokens its client-credentials grant
 * issues. Only hashes of secrets and tokens are stored.
 *
 * Whatever stops a credential from working (a revocation, narrowed scopes or addresses, a secret's overlap
 * cut short, a deletion) moves the `sessions` stamp, like a revoked session does (migrations 0002 and 0003),
 * so that processes caching verified callers drop them at once, whatever path made the change.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('api_clients')
    .addColumn('id', 'integer', identity(db))
    .addColumn('client_id', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('scopes', 'text', (col) => col.notNull())
    .addColumn('allowed_addresses', 'text')
    .addColumn('rate_limit_per_minute', 'integer', (col) => col.notNull())
    .addColumn('created_by', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_clients_created_by_idx').on('api_clients').column('created_by').execute();

  await db.schema
    .createTable('api_client_secrets')
    .addColumn('id', 'integer', identity(db))
    .addColumn('client_id', 'integer', (col) => col.notNull().references('api_clients.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (col) => col.notNull().unique())
    .addColumn('hint', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('api_client_secrets_client_idx').on('api_client_secrets').column('client_id').execute();

  await db.schema
    .createTable('api_client_tokens')
    .addColumn('id', 'integer', identity(db))
    .addColumn('client_id', 'integer', (col) => col.notNull().references('api_clients.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('scopes', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('api_client_tokens_client_idx').on('api_client_tokens').column('client_id').execute();
  await db.schema.createIndex('api_client_tokens_expires_idx').on('api_client_tokens').column('expires_at').execute();

  await createApiClientTriggers(db);
}
