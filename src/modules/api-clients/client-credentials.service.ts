import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB, Role } from '../../db/schema/index.js';
import type { KeyedRateCheck } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { nowIso } from '../../lib/time.js';
import { hashSecretToken, type SessionCache } from '../auth/index.js';
import { AllowedAddresses } from './allowed-addresses.js';
import * as repository from './api-clients.repository.js';
import type { OAuthTokenInput, OAuthTokenRecord } from './api-clients.schemas.js';
import { type ClientScope, CLIENT_SCOPES, clientMayCall } from './client-scopes.js';

/** A client's secret: what it sends as `client_secret`, or as a bearer token itself. */
const SECRET_PREFIX = 'rak_';
/** An access token of the client-credentials grant. */
const TOKEN_PREFIX = 'rat_';
const CREDENTIAL = /^ra[kt]_[A-Za-z0-9_-]{43}$/;
/** `last_used_at` is written at most this often per client and process. */
const TOUCH_EVERY_MS = 60_000;
const API_ROOT = '/realty-api/v1';

export function newClientSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Whether a bearer token is a machine client's (a secret or an access token) rather than a person's. */
export function isClientCredential(token: string): boolean {
  return token.startsWith(SECRET_PREFIX) || token.startsWith(TOKEN_PREFIX);
}

/** A credential as a request needs it: read once, then kept in the cache until any credential changes anywhere. */
interface ClientCaller {
  id: number;
  clientId: string;
  name: string;
  scopes: ReadonlySet<ClientScope>;
  addresses: AllowedAddresses | undefined;
  ratePerMinute: number;
  revoked: boolean;
  createdBy: number;
  role: Role;
  suspended: boolean;
  /** The secret's end of overlap or the token's expiry, in ms; undefined for a current secret. */
  endsAt: number | undefined;
}

/** The budgets a client's requests are checked against (set once the rate limiter exists; absent while limits are off). */
interface ClientMeters {
  /** Each client's own budget, keyed by the client. */
  perClient: KeyedRateCheck;
  /** Refused credentials, keyed by the address that sent them. */
  refusals: KeyedRateCheck;
}

/**
 * Machine clients' credentials (docs/machine-clients.md): a secret (`rak_…`) sent as a bearer token, or an
 * access token (`rat_…`) that `POST /oauth/token` issues for it. Every request checks the client is not
 * revoked, the credential not ended, the address allowed and the route granted by a scope; verified
 * credentials are cached under the sessions' revocation signal, so a revocation anywhere applies at once.
 */
export class ClientCredentials {
  private meters: ClientMeters | undefined;
  private readonly touched = new Map<number, number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly cache: SessionCache<ClientCaller> | undefined,
    private readonly log: FastifyBaseLogger,
    private readonly tokenTtlSeconds: number,
  ) {}

  meterWith(meters: ClientMeters | undefined): void {
    this.meters = meters;
  }

  async authenticate(token: string, request: FastifyRequest): Promise<AuthUser> {
    const caller = await this.usableCaller(token, request);
    // Every route of the API that the client's scopes do not grant is refused. A path no route matches goes on to
    // its 404; routes outside the API (health probes, the website) give a client nothing of its own.
    const pattern = request.routeOptions.url;
    const root = pattern?.indexOf(API_ROOT) ?? -1;
    if (pattern !== undefined && root !== -1) {
      const decision = clientMayCall(request.method, pattern.slice(root + API_ROOT.length), caller.scopes);
      if (!decision.allowed) {
        throw decision.needs === undefined
          ? new AppError('forbidden', 'api_client_route_not_offered')
          : new AppError('forbidden', 'api_client_insufficient_scope', [], { scope: decision.needs });
      }
    }
    return {
      id: caller.createdBy,
      role: caller.role,
      sessionId: `client:${caller.id}`,
      tokenExpiresAt: new Date(caller.endsAt ?? 8.64e15),
      client: { id: caller.id, clientId: caller.clientId, name: caller.name },
    };
  }

  /** `POST /oauth/token`: an access token for a client that proves itself with its id and secret. */
  async issueToken(input: OAuthTokenInput, basic: string | undefined, request: FastifyRequest): Promise<OAuthTokenRecord> {
    const { clientId, secret } = credentialsOf(input, basic);
    const caller = await this.callerOf(secret);
    if (!caller || caller.clientId !== clientId || !isLive(caller)) {
      await this.meters?.refusals(request, request.ip);
      throw new AppError('invalid_credentials');
    }
    await this.admit(caller, request);
    const scopes = requestedScopes(input.scope, caller.scopes);
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = new Date();
    await repository.insertToken(this.db, {
      client_id: caller.id,
      token_hash: hashSecretToken(token),
      scopes: JSON.stringify(scopes),
      created_at: nowIso(now),
      expires_at: nowIso(new Date(now.getTime() + this.tokenTtlSeconds * 1000)),
    });
    return { access_token: token, token_type: 'Bearer', expires_in: this.tokenTtlSeconds, scope: scopes.join(' ') };
  }

  /** Deletes ended tokens and secrets (the `api-client-prune` job). */
  async prune(now = new Date()): Promise<number> {
    return repository.pruneEnded(this.db, nowIso(now));
  }

  private async usableCaller(token: string, request: FastifyRequest): Promise<ClientCaller> {
    const caller = CREDENTIAL.test(token) ? await this.callerOf(token) : undefined;
    if (!caller || !isLive(caller)) {
      await this.meters?.refusals(request, request.ip);
      throw new AppError('invalid_token');
    }
    await this.admit(caller, request);
    return caller;
  }

  /** The checks after the credential itself: the account it acts for, the address, the client's budget. */
  private async admit(caller: ClientCaller, request: FastifyRequest): Promise<void> {
    if (caller.suspended) throw new AppError('account_suspended');
    if (caller.addresses && !caller.addresses.allows(request.ip)) throw new AppError('forbidden', 'api_client_address_refused');
    await this.meters?.perClient(request, String(caller.id), caller.ratePerMinute);
    this.touch(caller.id);
  }

  private async callerOf(credential: string): Promise<ClientCaller | undefined> {
    const hash = hashSecretToken(credential);
    const read = () =>
      credential.startsWith(TOKEN_PREFIX) ? repository.findHolderOfToken(this.db, hash) : repository.findHolderOfSecret(this.db, hash);
    if (!this.cache) return toCaller(await read());
    const { caller: cached, stamp } = await this.cache.lookup(hash);
    if (cached) return cached;
    const caller = toCaller(await read());
    if (caller) this.cache.remember(hash, caller, stamp);
    return caller;
  }

  private touch(clientId: number): void {
    const now = Date.now();
    if (now - (this.touched.get(clientId) ?? 0) < TOUCH_EVERY_MS) return;
    this.touched.set(clientId, now);
    repository
      .touchClient(this.db, clientId, nowIso(new Date(now)), nowIso(new Date(now - TOUCH_EVERY_MS)))
      .catch((error: unknown) => this.log.warn({ err: error, api_client_id: clientId }, 'could not record an API client’s use'));
  }
}

function isLive(caller: ClientCaller): boolean {
  return !caller.revoked && (caller.endsAt === undefined || caller.endsAt > Date.now());
}

function toCaller(holder: repository.CredentialHolder | undefined): ClientCaller | undefined {
  if (!holder) return undefined;
  const clientScopes = JSON.parse(holder.client_scopes) as ClientScope[];
  // A token keeps the scopes it was given, less any the client has lost since.
  const scopes =
    holder.token_scopes === null
      ? clientScopes
      : (JSON.parse(holder.token_scopes) as ClientScope[]).filter((scope) => clientScopes.includes(scope));
  return {
    id: holder.id,
    clientId: holder.client_id,
    name: holder.name,
    scopes: new Set(scopes),
    addresses: holder.allowed_addresses === null ? undefined : new AllowedAddresses(JSON.parse(holder.allowed_addresses) as string[]),
    ratePerMinute: holder.rate_limit_per_minute,
    revoked: holder.revoked_at !== null,
    createdBy: holder.created_by,
    role: holder.role,
    suspended: holder.status === 'suspended',
    endsAt: holder.expires_at === null ? undefined : Date.parse(holder.expires_at),
  };
}

/** The client's id and secret, from the body or from HTTP Basic (RFC 6749 2.3.1), exactly one of the two. */
function credentialsOf(input: OAuthTokenInput, basic: string | undefined): { clientId: string; secret: string } {
  if (basic !== undefined) {
    if (input.client_id !== undefined || input.client_secret !== undefined) {
      throw AppError.invalidField('client_secret', 'api_client_rule_two_credentials');
    }
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) throw new AppError('invalid_credentials');
    try {
      // Basic's id and secret are form-encoded first (RFC 6749 2.3.1).
      const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
      return { clientId: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
    } catch {
      throw new AppError('invalid_credentials');
    }
  }
  if (input.client_id === undefined) throw AppError.invalidField('client_id', 'rule_required');
  if (input.client_secret === undefined) throw AppError.invalidField('client_secret', 'rule_required');
  return { clientId: input.client_id, secret: input.client_secret };
}

/** The scopes a token asks for (space-separated), each one the client has; all of the client's when absent. */
function requestedScopes(scope: string | undefined, granted: ReadonlySet<ClientScope>): ClientScope[] {
  if (scope === undefined) return [...granted].sort();
  const asked = [...new Set(scope.split(' ').filter(Boolean))];
  const refused = asked.filter((name) => !(name in CLIENT_SCOPES) || !granted.has(name as ClientScope));
  if (asked.length === 0 || refused.length > 0) throw AppError.invalidField('scope', 'api_client_rule_scope_not_granted');
  return (asked as ClientScope[]).sort();
}
