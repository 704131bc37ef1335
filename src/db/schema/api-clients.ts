import type { Generated, Selectable } from 'kysely';

/** Machine clients (migration 0037, modules/api-clients): their credentials and the access tokens they are issued. */
export interface ApiClientsTables {
  api_clients: ApiClientsTable;
  api_client_secrets: ApiClientSecretsTable;
  api_client_tokens: ApiClientTokensTable;
}

interface ApiClientsTable {
  id: Generated<number>;
  /** `rc_<random>`: the OAuth `client_id`, not a secret. */
  client_id: string;
  name: string;
  description: Generated<string>;
  /** JSON array of scope names (modules/api-clients/client-scopes.ts). */
  scopes: string;
  /** JSON array of addresses and CIDR ranges the client may call from, or null for any. */
  allowed_addresses: string | null;
  /** Requests a minute, its own budget. */
  rate_limit_per_minute: number;
  /** The administrator who made it: the client acts with that account's rights, narrowed by its scopes. */
  created_by: number;
  created_at: string;
  updated_at: string;
  /** Set once: a revoked client's secrets and tokens are refused at once, everywhere. */
  revoked_at: string | null;
  /** When the client last got an access token or used its key (at most once a minute is written). */
  last_used_at: string | null;
}

interface ApiClientSecretsTable {
  id: Generated<number>;
  client_id: number;
  /** SHA-256 of the whole secret (`rak_…`), hex: the secret itself is shown once and never stored. */
  secret_hash: string;
  /** The secret's first characters, to tell secrets apart in the console. */
  hint: string;
  created_at: string;
  /** Null while current; a rotation sets the old secret's end of overlap. */
  expires_at: string | null;
}

interface ApiClientTokensTable {
  id: Generated<number>;
  client_id: number;
  /** SHA-256 of the access token (`rat_…`), hex. */
  token_hash: string;
  /** JSON array: the scopes granted to this token (at most the client's). */
  scopes: string;
  created_at: string;
  expires_at: string;
}

export type ApiClientRow = Selectable<ApiClientsTable>;
export type ApiClientSecretRow = Selectable<ApiClientSecretsTable>;
