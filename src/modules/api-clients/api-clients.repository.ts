import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { ApiClientRow, ApiClientSecretRow, DB, Role } from '../../db/schema/index.js';

type NewClient = Insertable<DB['api_clients']>;
type ClientChange = Updateable<DB['api_clients']>;

export async function insertClient(db: Executor, values: NewClient): Promise<ApiClientRow> {
  return db.insertInto('api_clients').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertSecret(db: Executor, values: Insertable<DB['api_client_secrets']>): Promise<void> {
  await db.insertInto('api_client_secrets').values(values).execute();
}

/** A client with the name of the administrator who made it. */
export type ClientWithCreator = ApiClientRow & { creator_name: string };

function clientsWithCreators(db: Executor) {
  return db
    .selectFrom('api_clients as c')
    .innerJoin('users as u', 'u.id', 'c.created_by')
    .selectAll('c')
    .select('u.display_name as creator_name');
}

/** Every client, newest first (a site has MAX_CLIENTS at most). */
export async function findClients(db: Executor): Promise<ClientWithCreator[]> {
  return clientsWithCreators(db).orderBy('c.id', 'desc').execute();
}

export async function findClient(db: Executor, id: number): Promise<ClientWithCreator | undefined> {
  return clientsWithCreators(db).where('c.id', '=', id).executeTakeFirst();
}

export async function countClients(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('api_clients')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The secrets of these clients that still work at `now`, newest first. */
export async function findLiveSecrets(db: Executor, clientIds: readonly number[], now: string): Promise<ApiClientSecretRow[]> {
  if (clientIds.length === 0) return [];
  return db
    .selectFrom('api_client_secrets')
    .selectAll()
    .where('client_id', 'in', clientIds)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id', 'desc')
    .execute();
}

export async function updateClient(db: Executor, id: number, change: ClientChange): Promise<void> {
  await db.updateTable('api_clients').set(change).where('id', '=', id).execute();
}

/**
 * Ends the client's current secrets at `endsAt` (a rotation's overlap; `now` for at once). Secrets already
 * ending sooner keep their end.
 */
export async function endSecrets(db: Executor, clientId: number, endsAt: string): Promise<void> {
  await db
    .updateTable('api_client_secrets')
    .set({ expires_at: endsAt })
    .where('client_id', '=', clientId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', endsAt)]))
    .execute();
}

export async function deleteTokensOf(db: Executor, clientId: number): Promise<void> {
  await db.deleteFrom('api_client_tokens').where('client_id', '=', clientId).execute();
}

export async function deleteClient(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('api_clients').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertToken(db: Executor, values: Insertable<DB['api_client_tokens']>): Promise<void> {
  await db.insertInto('api_client_tokens').values(values).execute();
}

/** Deletes tokens and overlapped secrets that ended before `now`; how many rows went. */
export async function pruneEnded(db: Executor, now: string): Promise<number> {
  const tokens = await db.deleteFrom('api_client_tokens').where('expires_at', '<=', now).executeTakeFirst();
  const secrets = await db
    .deleteFrom('api_client_secrets')
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(tokens.numDeletedRows + secrets.numDeletedRows);
}

/** Marks the client used at `now` unless it was marked within the last minute (`since`): one write a minute at most. */
export async function touchClient(db: Executor, id: number, now: string, since: string): Promise<void> {
  await db
    .updateTable('api_clients')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
    .execute();
}

/** What a request needs to know of the client behind a credential, and of the account it acts for. */
export interface CredentialHolder {
  id: number;
  client_id: string;
  name: string;
  client_scopes: string;
  allowed_addresses: string | null;
  rate_limit_per_minute: number;
  revoked_at: string | null;
  created_by: number;
  role: Role;
  status: 'active' | 'suspended';
  /** The secret's end of overlap, or the token's expiry; null for a current secret. */
  expires_at: string | null;
  /** An access token's own scopes (JSON); null for a secret, which carries the client's. */
  token_scopes: string | null;
}

/** The holder of a secret (`rak_…`) by its hash, ended or not (the caller checks). */
export async function findHolderOfSecret(db: Executor, secretHash: string): Promise<CredentialHolder | undefined> {
  return db
    .selectFrom('api_client_secrets as s')
    .innerJoin('api_clients as c', 'c.id', 's.client_id')
    .innerJoin('users as u', 'u.id', 'c.created_by')
    .select(['c.id', 'c.client_id', 'c.name', 'c.scopes as client_scopes', 'c.allowed_addresses', 'c.rate_limit_per_minute'])
    .select(['c.revoked_at', 'c.created_by', 'u.role', 'u.status', 's.expires_at', sql<null>`null`.as('token_scopes')])
    .where('s.secret_hash', '=', secretHash)
    .executeTakeFirst();
}

/** The holder of an access token (`rat_…`) by its hash. */
export async function findHolderOfToken(db: Executor, tokenHash: string): Promise<CredentialHolder | undefined> {
  return db
    .selectFrom('api_client_tokens as t')
    .innerJoin('api_clients as c', 'c.id', 't.client_id')
    .innerJoin('users as u', 'u.id', 'c.created_by')
    .select(['c.id', 'c.client_id', 'c.name', 'c.scopes as client_scopes', 'c.allowed_addresses', 'c.rate_limit_per_minute'])
    .select(['c.revoked_at', 'c.created_by', 'u.role', 'u.status', 't.expires_at', 't.scopes as token_scopes'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}
