import type { ApiClientSecretRow } from '../../db/schema/index.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { ClientWithCreator } from './api-clients.repository.js';
import type { ApiClientRecord } from './api-clients.schemas.js';
import type { ClientScope } from './client-scopes.js';

const orNull = (stored: string | null) => (stored === null ? null : toApiTimestamp(stored));

export function toApiClient(row: ClientWithCreator, secrets: readonly ApiClientSecretRow[]): ApiClientRecord {
  return {
    id: row.id,
    client_id: row.client_id,
    name: row.name,
    description: row.description,
    scopes: JSON.parse(row.scopes) as ClientScope[],
    allowed_addresses: row.allowed_addresses === null ? null : (JSON.parse(row.allowed_addresses) as string[]),
    rate_limit_per_minute: row.rate_limit_per_minute,
    created_by: { id: row.created_by, display_name: row.creator_name },
    secrets: secrets
      .filter((secret) => secret.client_id === row.id)
      .map((secret) => ({ hint: secret.hint, created_at: toApiTimestamp(secret.created_at), expires_at: orNull(secret.expires_at) })),
    revoked_at: orNull(row.revoked_at),
    last_used_at: orNull(row.last_used_at),
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}
