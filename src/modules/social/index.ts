import { createSocialVerifiers } from '../../adapters/social/index.js';
import { authRateLimit } from '../../http/rate-limit.js';
import type { AccountsServices } from '../accounts/index.js';
import type { AuthServices } from '../auth/index.js';
import type { AppModule, Platform } from '../module.js';
import { socialRoutes } from './social.routes.js';
import { SocialLoginResult } from './social.schemas.js';
import { SocialService } from './social.service.js';

export interface SocialServices {
  social: SocialService;
}

/** Sign-in with Google and Facebook (docs/api.md 2.2): verified identities linked to accounts. */
export function createSocialModule(
  { config, database }: Platform,
  { users, auth, refreshCookie }: Pick<AccountsServices, 'users'> & Pick<AuthServices, 'auth' | 'refreshCookie'>,
): AppModule<SocialServices> {
  const social = new SocialService(database.db, users, auth, createSocialVerifiers(config.social));
  return {
    services: { social },
    schemas: [SocialLoginResult],
    routes: async (api) => {
      await api.register(socialRoutes, { social, refreshCookie, signInRateLimit: authRateLimit(config) });
    },
  };
}
