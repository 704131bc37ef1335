import type { AccountsServices } from '../accounts/index.js';
import type { AppModule, Platform } from '../module.js';
import { AccessTokens } from './access-tokens.service.js';
import { authRoutes } from './auth.routes.js';
import { LoginResult, TokenPair } from './auth.schemas.js';
import { AuthService } from './auth.service.js';
import { FirstRunService } from './first-run.service.js';
import { LoginLocks } from './login-locks.service.js';
import { PASSWORD_RESET_CHANNEL, PasswordResetService } from './password-reset.service.js';
import { RefreshCookie } from './refresh-cookie.js';
import { DatabaseStampSignal, RedisRevocationChannel, type RevocationAnnouncer } from './revocations.service.js';
import { SessionCache } from './session-cache.service.js';

export interface AuthServices {
  /** Sign-in, registration, tokens and sessions; also the HTTP layer's authenticator. */
  auth: AuthService;
  passwordReset: PasswordResetService;
  /** Failed sign-ins per account, shared by every process. */
  loginLocks: LoginLocks;
  /** Cookie mode's refresh cookie, for every route that answers a sign-in (docs/api.md 2.3). */
  refreshCookie: RefreshCookie;
  /** The one-time set-up link of a database without an administrator (`serve` prints it). */
  firstRun: FirstRunService;
  /**
   * How other processes hear that a credential stopped working, and a cache of verified callers that follows it,
   * for machine clients' credentials (modules/api-clients); undefined where caching would not pay.
   */
  credentialRevocations: { announcer: RevocationAnnouncer; newCache: (<T>() => SessionCache<T>) | undefined };
}

/** Authentication (docs/api.md 2): sessions with access and refresh tokens, revocation across processes. */
export function createAuthModule(
  { config, database, jwtSecret, redis, log, storage, mailer }: Platform,
  { users, passwords }: AccountsServices,
): AppModule<AuthServices> {
  const { db } = database;
  const tokens = new AccessTokens(jwtSecret, config.accessTokenTtlSeconds);
  const revocations = redis
    ? new RedisRevocationChannel(redis, log, `${config.redisKeyPrefix}sessions:revoked`)
    : new DatabaseStampSignal(database.readCacheVersion);
  // Cached sessions pay off where checking the revocation signal costs no round trip (revocations.service.ts).
  const cacheable = redis !== undefined || database.stampReadsAreLocal;
  const sessionCache = cacheable ? new SessionCache(revocations) : undefined;
  const loginLocks = new LoginLocks(db);
  const auth = new AuthService(db, users, passwords, tokens, storage, loginLocks, revocations, sessionCache, {
    refreshTokenTtlDays: config.refreshTokenTtlDays,
    registrationEnabled: config.registrationEnabled,
  });
  const firstRun = new FirstRunService(db, users);
  const passwordReset = new PasswordResetService(db, users, passwords, revocations, config.resetPasswordUrl, mailer);
  // The path app.ts serves the token route at (auth.routes.ts checks it at start): the browser sends the cookie there only.
  const refreshCookie = new RefreshCookie({
    path: `${config.apiPrefix}/realty-api/v1/auth/token`,
    maxAgeSeconds: config.refreshTokenTtlDays * 86_400,
    secure: new URL(config.publicUrl).protocol === 'https:',
  });
  return {
    services: {
      auth,
      passwordReset,
      loginLocks,
      refreshCookie,
      firstRun,
      credentialRevocations: { announcer: revocations, newCache: cacheable ? <T>() => new SessionCache<T>(revocations) : undefined },
    },
    schemas: [LoginResult, TokenPair],
    routes: async (api) => {
      await api.register(authRoutes, { auth, passwordReset, firstRun, refreshCookie, config });
    },
    senders: { [PASSWORD_RESET_CHANNEL]: (payload) => passwordReset.deliverReset(payload) },
    stop: async () => {
      if (revocations instanceof RedisRevocationChannel) revocations.close();
    },
  };
}

export { LoginResult, RegisterBody, ResetConfirmBody, SessionField } from './auth.schemas.js';
export type { AuthService, BrowserSession } from './auth.service.js';
export { LoginLocks } from './login-locks.service.js';
export type { SessionCache } from './session-cache.service.js';
export { hashSecretToken } from './secret-tokens.js';
export { REFRESH_COOKIE_NAME, type RefreshCookie } from './refresh-cookie.js';
