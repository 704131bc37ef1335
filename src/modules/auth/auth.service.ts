import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FileStorage } from '../../adapters/storage/storage.js';
import type { DB, UserRow } from '../../db/schema.js';
import type { Authenticator } from '../../http/auth.js';
import { AppError } from '../../http/errors.js';
import type { AuthUser } from '../../http/request-context.js';
import { nowIso } from '../../lib/time.js';
import type { UsersService } from '../users/users.service.js';
import * as repository from './auth.repository.js';
import { type IssuedTokens, toLoginResult } from './auth.mapper.js';
import type { LoginInput, LoginResultRecord } from './auth.schemas.js';
import type { PasswordHasher } from './passwords.js';
import type { AccessTokens } from './tokens.js';

const DAY_MS = 86_400_000;

export class AuthService implements Authenticator {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly users: UsersService,
    private readonly passwords: PasswordHasher,
    private readonly tokens: AccessTokens,
    private readonly refreshTokenTtlDays: number,
    private readonly storage: FileStorage,
  ) {}

  /**
   * Password login. Unknown user and wrong password answer alike, after the same hashing work, so that
   * neither the message nor the timing tells which accounts exist.
   */
  async login(input: LoginInput): Promise<LoginResultRecord> {
    const login = (input.username ?? input.email)?.trim();
    if (!login) throw AppError.invalidField('username', 'rule_required');
    const user = await this.users.findByLogin(login);
    const valid = user?.password_hash
      ? await this.passwords.verify(user.password_hash, input.password)
      : await this.passwords.verifyAgainstNothing(input.password);
    if (!user || !valid) throw new AppError('invalid_credentials');
    return this.signIn(user);
  }

  /** Starts a session for a user whose identity is proven (password, social provider, registration). */
  async signIn(user: UserRow): Promise<LoginResultRecord> {
    if (user.status === 'suspended') throw new AppError('account_suspended');
    const tokens = await this.startSession(user);
    const account = await this.users.findAccount(user.id);
    if (!account) throw new AppError('invalid_credentials'); // deleted in between
    return toLoginResult(account, tokens, this.storage);
  }

  /** Ends every session of a user (password reset, account deletion), or every one but the caller's. */
  async revokeUserSessions(userId: number, exceptSessionId?: string): Promise<void> {
    let query = this.db.updateTable('sessions').set({ revoked_at: nowIso() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
    if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
    await query.execute();
  }

  /** Bearer token → caller. The session is read on every call so that revocation and role changes apply at once. */
  async authenticate(token: string): Promise<AuthUser> {
    const claims = await this.tokens.verify(token);
    const caller = await repository.findSessionCaller(this.db, claims.sessionId);
    if (!caller || caller.user_id !== claims.userId || caller.revoked_at !== null || caller.expires_at <= nowIso()) {
      throw new AppError('invalid_token');
    }
    if (caller.status === 'suspended') throw new AppError('account_suspended');
    return { id: caller.user_id, role: caller.role, sessionId: claims.sessionId };
  }

  private async startSession(user: UserRow): Promise<IssuedTokens> {
    const now = new Date();
    const sessionId = randomBytes(18).toString('base64url');
    const refreshToken = randomBytes(32).toString('base64url');
    await repository.insertSession(this.db, {
      id: sessionId,
      userId: user.id,
      refreshTokenHash: createHash('sha256').update(refreshToken).digest('hex'),
      createdAt: nowIso(now),
      expiresAt: nowIso(new Date(now.getTime() + this.refreshTokenTtlDays * DAY_MS)),
    });
    const { token, expiresAt } = await this.tokens.sign({ userId: user.id, sessionId }, now);
    return { token, refreshToken, expiresIn: this.tokens.ttlSeconds, expiresAt };
  }
}
