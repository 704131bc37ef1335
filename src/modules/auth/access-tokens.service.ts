import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../../lib/errors.js';

const ISSUER = 'realty-api';
const AUDIENCE = 'realty-api';

export interface AccessTokenClaims {
  userId: number;
  sessionId: string;
}

export interface VerifiedAccessToken extends AccessTokenClaims {
  expiresAt: Date;
}

/** How many verified tokens a process remembers (a few MB at most). */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * HS256 access tokens (docs/api.md 12). Verification pins the algorithm, so `alg: none` and algorithm
 * confusion are refused, and requires every claim we rely on.
 *
 * jose verifies through WebCrypto, about 100 µs a token here: more than the rest of a small authenticated
 * request. Clients send the same token many times, so each verified token (the whole string, signature
 * included: only what jose accepted gets in) is remembered until it expires; a repeat costs a map look-up.
 * Whether its session still stands is checked on every request all the same (AuthService.authenticate).
 */
export class AccessTokens {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, VerifiedAccessToken>();

  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: AccessTokenClaims, now: Date = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAt = new Date((issuedAt + this.ttlSeconds) * 1000);
    const token = await new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .sign(this.key);
    return { token, expiresAt };
  }

  async verify(token: string): Promise<VerifiedAccessToken> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt.getTime() > Date.now()) return known;
      this.verified.delete(token);
      throw new AppError('token_expired');
    }
    const claims = await this.verifySignature(token);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next().value; // insertion order
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, claims);
    return claims;
  }

  private async verifySignature(token: string): Promise<VerifiedAccessToken> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'sid', 'exp', 'iat'],
      });
      const userId = Number(payload.sub);
      if (!Number.isSafeInteger(userId) || userId < 1 || typeof payload.sid !== 'string') {
        throw new AppError('invalid_token');
      }
      return { userId, sessionId: payload.sid, expiresAt: new Date((payload.exp ?? 0) * 1000) };
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new AppError('token_expired');
      throw new AppError('invalid_token');
    }
  }
}
