import type { Config } from '../../config.js';
import type { SocialProvider } from '../../lib/social-providers.js';
import { FacebookTokenVerifier } from './facebook.js';
import { GoogleIdTokenVerifier } from './google.js';
import type { IdentityVerifier } from './identity.js';

export type { SocialIdentity } from './identity.js';
export { PROVIDER_NAMES } from './identity.js';

/** The verifier of each provider the configuration enables; undefined for a provider that is off. */
export type SocialVerifiers = Record<SocialProvider, IdentityVerifier | undefined>;

export function createSocialVerifiers(social: Config['social']): SocialVerifiers {
  const { google, facebook } = social;
  return {
    google: google.clientIds.length > 0 ? new GoogleIdTokenVerifier(google) : undefined,
    facebook:
      facebook.appId && facebook.appSecret
        ? new FacebookTokenVerifier({ appId: facebook.appId, appSecret: facebook.appSecret, graphUrl: facebook.graphUrl })
        : undefined,
  };
}
