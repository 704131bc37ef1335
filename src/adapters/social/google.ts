import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import {
  type IdentityVerifier,
  invalidProviderToken,
  PROVIDER_TIMEOUT_MS,
  providerUnavailable,
  type SocialIdentity,
  textClaim,
} from './identity.js';

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** Raised by the key look-up when Google's key set cannot be fetched, as opposed to a token naming no known key. */
class KeySetUnavailable extends Error {}

/**
 * Verifies Google ID tokens (OpenID Connect) against Google's published keys. The key set is fetched on
 * first use and cached by jose, which re-fetches it when a token names an unknown key (at most every 30 s).
 */
export class GoogleIdTokenVerifier implements IdentityVerifier {
  readonly provider = 'google' as const;
  readonly publicId: string;
  private readonly audience: string[];
  private readonly keys: JWTVerifyGetKey;

  constructor(settings: { clientIds: readonly string[]; jwksUrl: string }) {
    const [first] = settings.clientIds;
    if (first === undefined) throw new Error('Google sign-in needs at least one client id');
    this.publicId = first;
    this.audience = [...settings.clientIds];
    const remote = createRemoteJWKSet(new URL(settings.jwksUrl), { timeoutDuration: PROVIDER_TIMEOUT_MS });
    this.keys = async (header, token) => {
      try {
        return await remote(header, token);
      } catch (error) {
        // A token whose `kid` matches no published key is the token's fault; anything else (network, timeout,
        // non-200, a body that is no key set) is the key server's.
        if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
        throw new KeySetUnavailable('Google key set unavailable', { cause: error });
      }
    };
  }

  async verify(idToken: string): Promise<SocialIdentity> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.keys, {
        algorithms: ['RS256'],
        issuer: GOOGLE_ISSUERS,
        audience: this.audience,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      if (error instanceof KeySetUnavailable) throw providerUnavailable(this.provider, error.cause);
      throw invalidProviderToken(this.provider);
    }
    const subject = textClaim(payload.sub);
    if (subject === '') throw invalidProviderToken(this.provider);
    const email = textClaim(payload.email);
    return {
      provider: this.provider,
      subject,
      email: email === '' ? undefined : email,
      // Google sends a boolean; some older tokens carried the string "true".
      emailVerified: payload.email_verified === true || payload.email_verified === 'true',
      firstName: textClaim(payload.given_name),
      lastName: textClaim(payload.family_name),
      fullName: textClaim(payload.name),
    };
  }
}
