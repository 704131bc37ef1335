import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../../http/errors.js';

const ISSUER = 'realty-api';
const AUDIENCE = 'realty-api';

export interface AccessTokenClaims {
  userId: number;
  sessionId: string;
}

export interface VerifiedAccessToken extends AccessTokenClaims {
  expiresAt: Date;
}

/**
 * HS256 access tokens (API.md 12). Verification pins the algorithm, so `alg: none` and algorithm
 * confusion are refused, and requires every claim we rely on.
 */
export class AccessTokens {
  private readonly key: Uint8Array;

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
