import { type Static, Type } from 'typebox';
import { SOCIAL_PROVIDERS } from '../../lib/social-providers.js';
import { LoginResult, SessionField } from '../auth/index.js';

const PROVIDER_TOKEN_LIMIT = 4096;

export const GoogleLoginBody = Type.Object(
  {
    id_token: Type.String({
      minLength: 1,
      maxLength: PROVIDER_TOKEN_LIMIT,
      description: 'The Google ID token (a JWT) the client obtained from Google Sign-In',
    }),
    session: SessionField,
  },
  { additionalProperties: false },
);

export const FacebookLoginBody = Type.Object(
  {
    access_token: Type.String({
      minLength: 1,
      maxLength: PROVIDER_TOKEN_LIMIT,
      description: 'The Facebook user access token the client obtained from Facebook Login',
    }),
    session: SessionField,
  },
  { additionalProperties: false },
);

const SocialProviderName = Type.Enum([...SOCIAL_PROVIDERS]);

/** The login result (docs/api.md 2.1) plus the provider that proved the identity. */
export const SocialLoginResult = Type.Object(
  { ...LoginResult.properties, social_provider: SocialProviderName },
  { $id: 'SocialLoginResult', title: 'SocialLoginResult' },
);
export type SocialLoginRecord = Static<typeof SocialLoginResult>;

export const SocialConfig = Type.Object({
  google: Type.Object({
    enabled: Type.Boolean(),
    client_id: Type.Union([Type.String(), Type.Null()], { description: 'The first configured client id; null when off' }),
  }),
  facebook: Type.Object({
    enabled: Type.Boolean(),
    app_id: Type.Union([Type.String(), Type.Null()], { description: 'null when off' }),
  }),
  available_providers: Type.Array(SocialProviderName),
});
export type SocialConfigRecord = Static<typeof SocialConfig>;
