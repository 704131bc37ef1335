import { sql } from 'kysely';
import type { AnyDb } from '../../any-db.js';
import { dialectOf } from '../index.js';
import { deferredStampTrigger } from './deferred-stamps.js';

/**
 * Whatever stops a machine client's credential from working moves the `sessions` stamp (migration 0037): a
 * revocation, narrowed scopes, addresses or budget, a secret's end moved, a deletion of a client, a secret or a
 * token. Processes that cache verified credentials (modules/api-clients) compare it, as they do for sessions.
 */
export async function createApiClientTriggers(db: AnyDb): Promise<void> {
  for (const statement of dialectOf(db) === 'postgres' ? POSTGRES : SQLITE) await sql.raw(statement).execute(db);
}

const SQLITE_BUMP = `UPDATE cache_versions SET version = hex(randomblob(8)) WHERE name = 'sessions';`;

const SQLITE = [
  `CREATE TRIGGER api_clients_access_stamp AFTER UPDATE OF revoked_at, scopes, allowed_addresses, rate_limit_per_minute ON api_clients
   BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER api_clients_deleted_stamp AFTER DELETE ON api_clients BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER api_client_secrets_expiry_stamp AFTER UPDATE OF expires_at ON api_client_secrets BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER api_client_secrets_deleted_stamp AFTER DELETE ON api_client_secrets BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER api_client_tokens_deleted_stamp AFTER DELETE ON api_client_tokens BEGIN ${SQLITE_BUMP} END`,
];

// Renewed at commit, as every stamp on PostgreSQL is (dialect/ddl/deferred-stamps.ts).
const POSTGRES = [
  deferredStampTrigger(
    'api_clients_access_stamp',
    'UPDATE OF revoked_at, scopes, allowed_addresses, rate_limit_per_minute',
    'api_clients',
    'sessions',
  ),
  deferredStampTrigger('api_clients_deleted_stamp', 'DELETE', 'api_clients', 'sessions'),
  deferredStampTrigger('api_client_secrets_expiry_stamp', 'UPDATE OF expires_at', 'api_client_secrets', 'sessions'),
  deferredStampTrigger('api_client_secrets_deleted_stamp', 'DELETE', 'api_client_secrets', 'sessions'),
  deferredStampTrigger('api_client_tokens_deleted_stamp', 'DELETE', 'api_client_tokens', 'sessions'),
];
