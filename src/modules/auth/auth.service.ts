import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FileStorage } from '../../adapters/storage/storage.js';
import type { DB, UserRow } from '../../db/schema/index.js';
import type { Authenticator } from '../../http/auth.js';
import { AppError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { nowIso, toApiTimestamp } from '../../lib/time.js';
import type { AccountsService, PasswordHasher } from '../accounts/index.js';
import { type IssuedTokens, toLoginResult } from './auth.mapper.js';
import * as repository from './auth.repository.js';
import type { LoginInput, LoginResultRecord, RegisterInput, TokenInput, TokenPairRecord } from './auth.schemas.js';
import { LoginLocks } from './login-locks.service.js';
import type { RevocationAnnouncer } from './revocations.service.js';
import { hashSecretToken, newSecretToken } from './secret-tokens.js';
import type { SessionCache, SessionCaller } from './session-cache.service.js';
import type { AccessTokens } from './access-tokens.service.js';

const DAY_MS = 86_400_000;

/** A website session: the secret its cookie holds, and how long the cookie lives. */
export interface BrowserSession {
  secret: string;
  maxAgeSeconds: number;
}

export interface AuthOptions {
  refreshTokenTtlDays: number;
  registrationEnabled: boolean;
}

/** Why a refresh token was refused: `reused` is a copied token (its session is revoked with it). */
type RefusedRenewal = 'unknown' | 'reused' | 'revoked' | 'expired' | 'no_account';

/** How renewals are metered (auth.routes.ts): each session's on its own budget, refusals on the address's. */
export interface RenewalMeter {
  /** Before a session is renewed; throws (429) when it has been renewed too often. */
  renewing(sessionId: string): Promise<void>;
  /** Before an unusable refresh token is refused; throws (429) past the address's budget of refusals. */
  refusing(reason: RefusedRenewal): Promise<void>;
}

const UNMETERED: RenewalMeter = { renewing: async () => {}, refusing: async () => {} };

/** Sign-in, registration, tokens and sessions (docs/api.md 2). */
export class AuthService implements Authenticator {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly users: AccountsService,
    private readonly passwords: PasswordHasher,
    private readonly tokens: AccessTokens,
    private readonly storage: FileStorage,
    private readonly locks: LoginLocks,
    private readonly revocations: RevocationAnnouncer,
    /** Undefined where checking a cached session would cost as much as reading it (see revocations.service.ts). */
    private readonly sessionCache: SessionCache | undefined,
    private readonly options: AuthOptions,
  ) {}

  /** Password login: `POST /auth/login`. */
  async login(input: LoginInput): Promise<LoginResultRecord> {
    return this.signIn(await this.userOfLogin(input));
  }

  async register(input: RegisterInput): Promise<LoginResultRecord> {
    return this.signIn(await this.createAccount(input));
  }

  /**
   * `POST /auth/token`: the password grant starts a session, the refresh grant rotates one, metered by `renewals`
   * (the route's rate limits) rather than counted as a sign-in attempt.
   */
  async issueTokens(input: TokenInput, renewals: RenewalMeter = UNMETERED): Promise<TokenPairRecord> {
    if (input.grant_type === 'password') {
      if (!input.username) throw AppError.invalidField('username', 'rule_required');
      if (!input.password) throw AppError.invalidField('password', 'rule_required');
      const user = await this.verifyPassword(input.username.trim(), input.password);
      if (user.status === 'suspended') throw new AppError('account_suspended');
      return toTokenPair(user.id, await this.startSession(user.id));
    }
    if (!input.refresh_token) throw AppError.invalidField('refresh_token', 'rule_required');
    return this.refresh(input.refresh_token, renewals);
  }

  /** Starts a session for a user whose identity is proven (password, social provider, registration). */
  async signIn(user: UserRow): Promise<LoginResultRecord> {
    if (user.status === 'suspended') throw new AppError('account_suspended');
    const tokens = await this.startSession(user.id);
    const account = await this.users.findAccount(user.id);
    if (!account) throw new AppError('invalid_credentials'); // deleted in between
    return toLoginResult(account, tokens, this.storage);
  }

  /**
   * Bearer token → caller. The session is checked on every call (revocation, deletion and role changes
   * apply at once); where possible from this process's cache, which any revocation anywhere empties.
   */
  async authenticate(token: string): Promise<AuthUser> {
    const claims = await this.tokens.verify(token);
    const caller = await this.sessionCaller(claims.sessionId);
    if (!caller || caller.user_id !== claims.userId || caller.revoked_at !== null || caller.expires_at <= nowIso()) {
      throw new AppError('invalid_token');
    }
    if (caller.status === 'suspended') throw new AppError('account_suspended');
    return { id: caller.user_id, role: caller.role, sessionId: claims.sessionId, tokenExpiresAt: claims.expiresAt };
  }

  /**
   * Password sign-in for the website (src/site/): a session like any other, whose secret the browser keeps in
   * an HttpOnly cookie instead of a client rotating it. Revoking the session (sign-out, a password change, a
   * suspension) ends it like every other. Refused exactly as `login` is.
   */
  async browserSignIn(input: LoginInput): Promise<BrowserSession> {
    return this.browserSession(await this.userOfLogin(input));
  }

  /** Registration from the website: the account as `register` makes it, signed in as `browserSignIn` does. */
  async browserRegister(input: RegisterInput): Promise<BrowserSession> {
    return this.browserSession(await this.createAccount(input));
  }

  /** The caller of a website session's secret; undefined when the session is unknown, revoked, expired or suspended. */
  async browserCaller(secret: string): Promise<AuthUser | undefined> {
    const session = await repository.findSessionByRefreshHash(this.db, hashSecretToken(secret));
    if (!session) return undefined;
    const caller = await this.sessionCaller(session.id);
    if (!caller || caller.revoked_at !== null || caller.expires_at <= nowIso() || caller.status === 'suspended') return undefined;
    return { id: caller.user_id, role: caller.role, sessionId: session.id, tokenExpiresAt: new Date(caller.expires_at) };
  }

  /** Ends the caller's session (its access and refresh tokens), and the session of `refreshToken` if it is theirs. */
  async logout(user: AuthUser, refreshToken: string | undefined): Promise<void> {
    const sessionIds = [user.sessionId];
    if (refreshToken) {
      const other = await repository.findSessionByRefreshHash(this.db, hashSecretToken(refreshToken));
      if (other && other.user_id === user.id && other.id !== user.sessionId) sessionIds.push(other.id);
    }
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      for (const sessionId of sessionIds) await repository.revokeSessions(trx, { sessionId }, now);
    });
    await this.revocations.announce();
  }

  /** Ends every session of a user (account deletion, password change), or every one but `exceptSessionId`. */
  async revokeUserSessions(userId: number, exceptSessionId?: string): Promise<void> {
    await this.db
      .transaction()
      .execute((trx) =>
        repository.revokeSessions(trx, { userId, ...(exceptSessionId !== undefined ? { exceptSessionId } : {}) }, nowIso()),
      );
    await this.revocations.announce();
  }

  /**
   * Unknown user and wrong password answer alike, after the same hashing work, so that neither the message
   * nor the timing tells which accounts exist. Failures count towards the account lock (login-locks.service.ts).
   */
  private async verifyPassword(login: string, password: string): Promise<UserRow> {
    const user = await this.users.findByLogin(login);
    const lockKey = LoginLocks.keyFor(login, user?.id);
    const { hasFailures } = await this.locks.assertOpen(lockKey);
    const valid = user?.password_hash
      ? await this.passwords.verify(user.password_hash, password)
      : await this.passwords.verifyAgainstNothing(password);
    if (!user || !valid) {
      await this.locks.recordFailure(lockKey);
      throw new AppError('invalid_credentials');
    }
    if (hasFailures) await this.locks.clear([lockKey]);
    return user;
  }

  /**
   * Rotates a refresh token. A token that was already rotated away (or that loses a race against its own
   * second use) has been copied: the whole session is revoked, so the thief's and the owner's tokens die.
   */
  private async refresh(refreshToken: string, renewals: RenewalMeter): Promise<TokenPairRecord> {
    const hash = hashSecretToken(refreshToken);
    const now = new Date();
    const refuse = async (reason: RefusedRenewal): Promise<never> => {
      await renewals.refusing(reason);
      throw new AppError('invalid_token');
    };
    const session = await repository.findSessionByRefreshHash(this.db, hash);
    if (!session) {
      const reused = await repository.findSessionOfRetiredToken(this.db, hash);
      if (!reused) return refuse('unknown');
      await this.revokeSession(reused);
      return refuse('reused');
    }
    if (session.revoked_at !== null) return refuse('revoked');
    if (session.expires_at <= nowIso(now)) return refuse('expired');
    const user = await this.users.findAccount(session.user_id);
    if (!user) return refuse('no_account');
    if (user.status === 'suspended') throw new AppError('account_suspended');
    await renewals.renewing(session.id);

    const nextToken = newSecretToken();
    const rotated = await this.db
      .transaction()
      .execute((trx) =>
        repository.rotateRefreshToken(trx, session.id, hash, hashSecretToken(nextToken), nowIso(now), this.sessionExpiry(now)),
      );
    if (!rotated) {
      await this.revokeSession(session.id);
      return refuse('reused');
    }
    const { token, expiresAt } = await this.tokens.sign({ userId: user.id, sessionId: session.id }, now);
    return toTokenPair(user.id, { token, refreshToken: nextToken, expiresIn: this.tokens.ttlSeconds, expiresAt });
  }

  private async revokeSession(sessionId: string): Promise<void> {
    await this.db.transaction().execute((trx) => repository.revokeSessions(trx, { sessionId }, nowIso()));
    await this.revocations.announce();
  }

  /** The user a login body names by username or e-mail, with its password checked. */
  private async userOfLogin(input: LoginInput): Promise<UserRow> {
    const login = (input.username ?? input.email)?.trim();
    if (!login) throw AppError.invalidField('username', 'rule_required');
    return this.verifyPassword(login, input.password);
  }

  private async createAccount(input: RegisterInput): Promise<UserRow> {
    if (!this.options.registrationEnabled) throw new AppError('forbidden', 'registration_closed');
    return this.users.createUser({
      username: input.username,
      email: input.email,
      password: input.password,
      role: input.role ?? 'buyer',
      ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
      ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
      ...(input.phone !== undefined ? { phone: input.phone } : {}),
    });
  }

  private async browserSession(user: UserRow): Promise<BrowserSession> {
    if (user.status === 'suspended') throw new AppError('account_suspended');
    const { refreshToken } = await this.startSession(user.id);
    return { secret: refreshToken, maxAgeSeconds: this.options.refreshTokenTtlDays * 86_400 };
  }

  private async sessionCaller(sessionId: string): Promise<SessionCaller | undefined> {
    if (!this.sessionCache) return repository.findSessionCaller(this.db, sessionId);
    const { caller: cached, stamp } = await this.sessionCache.lookup(sessionId);
    if (cached) return cached;
    const caller = await repository.findSessionCaller(this.db, sessionId);
    if (caller) this.sessionCache.remember(sessionId, caller, stamp);
    return caller;
  }

  private async startSession(userId: number): Promise<IssuedTokens> {
    const now = new Date();
    const sessionId = randomBytes(18).toString('base64url');
    const refreshToken = newSecretToken();
    await repository.insertSession(this.db, {
      id: sessionId,
      userId,
      refreshTokenHash: hashSecretToken(refreshToken),
      createdAt: nowIso(now),
      expiresAt: this.sessionExpiry(now),
    });
    const { token, expiresAt } = await this.tokens.sign({ userId, sessionId }, now);
    return { token, refreshToken, expiresIn: this.tokens.ttlSeconds, expiresAt };
  }

  /** Refresh tokens live 30 days from their issue: each rotation extends the session (docs/api.md 2.2). */
  private sessionExpiry(now: Date): string {
    return nowIso(new Date(now.getTime() + this.options.refreshTokenTtlDays * DAY_MS));
  }
}

function toTokenPair(userId: number, tokens: IssuedTokens): TokenPairRecord {
  return {
    token: tokens.token,
    refresh_token: tokens.refreshToken,
    expires_in: tokens.expiresIn,
    token_expires_at: toApiTimestamp(tokens.expiresAt.toISOString()),
    user_id: userId,
  };
}
