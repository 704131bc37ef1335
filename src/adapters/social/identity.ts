import type { SocialProvider } from '../../lib/social-providers.js';
import { AppError } from '../../lib/errors.js';

/** What a provider vouches for once it has verified a sign-in token. */
export interface SocialIdentity {
  provider: SocialProvider;
  /** The provider's stable user id; e-mail addresses change, this does not. */
  subject: string;
  email: string | undefined;
  /** True only when the provider asserts that the user proved ownership of `email`. */
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  fullName: string;
}

export interface IdentityVerifier {
  readonly provider: SocialProvider;
  /** The public identifier of this server's registration with the provider (Google client id, Facebook app id). */
  readonly publicId: string;
  /** Throws a 401 `invalid_token` AppError for a token the provider does not vouch for, 503 when it cannot be asked. */
  verify(token: string): Promise<SocialIdentity>;
}

export const PROVIDER_NAMES: Record<SocialProvider, string> = { google: 'Google', facebook: 'Facebook' };

/** How long a provider may take to answer before the sign-in answers 503. */
export const PROVIDER_TIMEOUT_MS = 5_000;

export function invalidProviderToken(provider: SocialProvider): AppError {
  return new AppError('invalid_token', 'social_token_invalid', [], { provider: PROVIDER_NAMES[provider] });
}

/** A 503 that keeps the underlying failure as its cause, so that the error log shows what went wrong. */
export function providerUnavailable(provider: SocialProvider, cause: unknown): AppError {
  const error = new AppError('service_unavailable', 'social_provider_unavailable', [], { provider: PROVIDER_NAMES[provider] });
  error.cause = cause;
  return error;
}

/** A claim as trimmed text, or "" when the provider left it out or sent something else. */
export function textClaim(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
