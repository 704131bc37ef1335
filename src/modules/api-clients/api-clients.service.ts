import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { plainText } from '../../lib/text.js';
import { nowIso, toApiTimestamp } from '../../lib/time.js';
import { hashSecretToken } from '../auth/index.js';
import { checkedAddresses } from './allowed-addresses.js';
import { toApiClient } from './api-clients.mapper.js';
import * as repository from './api-clients.repository.js';
import {
  type ApiClientListRecord,
  type ApiClientRecord,
  type CreateApiClientInput,
  type CreatedApiClientRecord,
  DEFAULT_OVERLAP_SECONDS,
  MAX_CLIENTS,
  type RotatedClientSecretRecord,
  type UpdateApiClientInput,
} from './api-clients.schemas.js';
import { newClientSecret } from './client-credentials.service.js';

/** What revoking code tells other processes after its transaction commits (the sessions' signal, modules/auth). */
interface Announcer {
  announce(): Promise<void>;
}

/** How many characters of a secret the console shows to tell two apart (`rak_` and four more). */
const HINT_LENGTH = 8;

/**
 * Machine clients (docs/machine-clients.md): administrators make them with scopes, an optional address
 * allow-list and a rate limit; each gets a secret, shown once, that a rotation replaces with an overlap and a
 * revocation ends at once, in every process.
 */
export class ApiClientsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly revocations: Announcer,
    /** RATE_LIMIT_PER_MINUTE: a client's budget unless it is given its own. */
    private readonly defaultRatePerMinute: number,
  ) {}

  async create(caller: AuthUser, input: CreateApiClientInput, now = new Date()): Promise<CreatedApiClientRecord> {
    const at = nowIso(now);
    const secret = newClientSecret();
    const id = await this.db.transaction().execute(async (trx) => {
      if ((await repository.countClients(trx)) >= MAX_CLIENTS) throw new AppError('conflict', 'api_client_too_many');
      const row = await repository.insertClient(trx, {
        client_id: `rc_${randomBytes(12).toString('base64url')}`,
        name: cleanName(input.name),
        description: plainText(input.description ?? ''),
        scopes: JSON.stringify([...input.scopes].sort()),
        allowed_addresses: addressesText(input.allowed_addresses),
        rate_limit_per_minute: input.rate_limit_per_minute ?? this.defaultRatePerMinute,
        created_by: caller.id,
        created_at: at,
        updated_at: at,
      });
      await repository.insertSecret(trx, { client_id: row.id, secret_hash: hashSecretToken(secret), hint: hintOf(secret), created_at: at });
      return row.id;
    });
    return { ...(await this.get(id)), secret };
  }

  async list(): Promise<ApiClientListRecord> {
    const rows = await repository.findClients(this.db);
    const secrets = await repository.findLiveSecrets(
      this.db,
      rows.map((row) => row.id),
      nowIso(),
    );
    return { api_clients: rows.map((row) => toApiClient(row, secrets)), total_api_clients: rows.length };
  }

  async get(id: number): Promise<ApiClientRecord> {
    const row = await this.found(id);
    return toApiClient(row, await repository.findLiveSecrets(this.db, [id], nowIso()));
  }

  /** Narrowed scopes, addresses or budget apply at once to its secret and its tokens, in every process. */
  async update(id: number, input: UpdateApiClientInput, now = new Date()): Promise<ApiClientRecord> {
    const row = await this.found(id);
    if (row.revoked_at !== null) throw new AppError('conflict', 'api_client_revoked_already');
    await repository.updateClient(this.db, id, {
      ...(input.name !== undefined ? { name: cleanName(input.name) } : {}),
      ...(input.description !== undefined ? { description: plainText(input.description) } : {}),
      ...(input.scopes !== undefined ? { scopes: JSON.stringify([...input.scopes].sort()) } : {}),
      ...(input.allowed_addresses !== undefined ? { allowed_addresses: addressesText(input.allowed_addresses) } : {}),
      ...(input.rate_limit_per_minute !== undefined ? { rate_limit_per_minute: input.rate_limit_per_minute } : {}),
      updated_at: nowIso(now),
    });
    await this.revocations.announce();
    return this.get(id);
  }

  /**
   * A new secret; the current ones keep working for `overlapSeconds` (0: they stop now), so that a deployment
   * can switch without a failed request. Tokens already issued keep working until they expire.
   */
  async rotateSecret(id: number, overlapSeconds = DEFAULT_OVERLAP_SECONDS, now = new Date()): Promise<RotatedClientSecretRecord> {
    const row = await this.found(id);
    if (row.revoked_at !== null) throw new AppError('conflict', 'api_client_revoked_already');
    const secret = newClientSecret();
    const at = nowIso(now);
    const endsAt = nowIso(new Date(now.getTime() + overlapSeconds * 1000));
    await this.db.transaction().execute(async (trx) => {
      await repository.endSecrets(trx, id, endsAt);
      await repository.insertSecret(trx, { client_id: id, secret_hash: hashSecretToken(secret), hint: hintOf(secret), created_at: at });
      await repository.updateClient(trx, id, { updated_at: at });
    });
    await this.revocations.announce();
    return { id, secret, previous_secret_expires_at: toApiTimestamp(endsAt) };
  }

  /** Ends every secret and token of the client at once, everywhere; the client stays listed, revoked, for the record. */
  async revoke(id: number, now = new Date()): Promise<ApiClientRecord> {
    const row = await this.found(id);
    if (row.revoked_at === null) {
      const at = nowIso(now);
      await this.db.transaction().execute(async (trx) => {
        await repository.updateClient(trx, id, { revoked_at: at, updated_at: at });
        await repository.endSecrets(trx, id, at);
        await repository.deleteTokensOf(trx, id);
      });
      await this.revocations.announce();
    }
    return this.get(id);
  }

  /** Deletes the client with its secrets and tokens; webhook endpoints it made stay, for administrators to manage. */
  async delete(id: number): Promise<{ id: number; deleted: true }> {
    if (!(await repository.deleteClient(this.db, id))) throw AppError.notFound();
    await this.revocations.announce();
    return { id, deleted: true };
  }

  private async found(id: number): Promise<repository.ClientWithCreator> {
    const row = await repository.findClient(this.db, id);
    if (!row) throw AppError.notFound();
    return row;
  }
}

function cleanName(name: string): string {
  const text = plainText(name);
  if (text === '') throw AppError.invalidField('name', 'rule_required');
  return text;
}

function addressesText(addresses: readonly string[] | null | undefined): string | null {
  return addresses ? JSON.stringify(checkedAddresses(addresses)) : null;
}

function hintOf(secret: string): string {
  return `${secret.slice(0, HINT_LENGTH)}…`;
}
