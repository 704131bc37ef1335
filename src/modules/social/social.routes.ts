import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { translate } from '../../i18n/index.js';
import { REFRESH_COOKIE_NAME, type RefreshCookie } from '../auth/index.js';
import { FacebookLoginBody, GoogleLoginBody, SocialConfig } from './social.schemas.js';
import type { SocialService } from './social.service.js';

export interface SocialRouteOptions {
  social: SocialService;
  /** Cookie mode's refresh cookie (docs/api.md 2.3). */
  refreshCookie: RefreshCookie;
  /** The per-IP budget of the sign-in routes (docs/api.md 0.6); unused when rate limiting is off. */
  signInRateLimit: { max: number; timeWindow: number };
}

const ACCOUNT_RULES =
  'The first sign-in of an identity creates a password-less buyer account. An identity is linked to an ' +
  'existing account with the same e-mail address only when the provider reports the address as verified; ' +
  'when it does not, the answer is 409 `email_taken`. An identity without an e-mail address and no account ' +
  'yet is refused with 400. 403 `forbidden` when the provider is not configured here; 503 when the provider ' +
  'cannot be reached. With `session: cookie` the refresh token is set as the HttpOnly, SameSite=Strict cookie ' +
  `\`${REFRESH_COOKIE_NAME}\`, scoped to \`/auth/token\`, and left out of the answer (docs/api.md 2.3).`;

export async function socialRoutes(app: FastifyInstance, { social, refreshCookie, signInRateLimit }: SocialRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const loginResponses = {
    200: Envelope(Type.Ref('SocialLoginResult')),
    ...errorResponses(400, 401, 403, 409, 413, 415, 429, 503),
  };

  api.get(
    '/social/config',
    {
      schema: {
        tags: ['social'],
        summary: 'Which social sign-in providers are enabled, with their public identifiers',
        description:
          'Public: which providers the site has turned on and the client identifiers a sign-in button needs (`google.client_id`, `facebook.app_id`); secrets are never sent.',
        response: { 200: Envelope(SocialConfig), ...errorResponses(400, 401, 429) },
      },
    },
    async () => ({ success: true, data: social.publicConfig() }),
  );

  api.post(
    '/social/google/login',
    {
      config: { rateLimit: signInRateLimit },
      schema: {
        tags: ['social'],
        summary: 'Sign in with a Google ID token',
        description:
          "The ID token is verified (RS256) against Google's published keys (`GOOGLE_JWKS_URL`); its audience " +
          'must be one of `GOOGLE_CLIENT_IDS` and its issuer Google. Its `email` counts as verified only when ' +
          `\`email_verified\` is true. ${ACCOUNT_RULES}`,
        body: GoogleLoginBody,
        response: loginResponses,
      },
    },
    async (request, reply) => ({
      success: true,
      data: refreshCookie.deliver(reply, request.body.session, await social.login('google', request.body.id_token)),
      message: translate(request.lang, 'login_success'),
    }),
  );

  api.post(
    '/social/facebook/login',
    {
      config: { rateLimit: signInRateLimit },
      schema: {
        tags: ['social'],
        summary: 'Sign in with a Facebook user access token',
        description:
          'The token is checked with the Graph API (`FACEBOOK_GRAPH_URL`): `debug_token` must report it valid ' +
          'and issued to this app (`FACEBOOK_APP_ID`), and `me` must belong to the same user. The e-mail ' +
          'address counts as verified: the Graph API returns only a confirmed primary address, never an ' +
          `unconfirmed one. ${ACCOUNT_RULES}`,
        body: FacebookLoginBody,
        response: loginResponses,
      },
    },
    async (request, reply) => ({
      success: true,
      data: refreshCookie.deliver(reply, request.body.session, await social.login('facebook', request.body.access_token)),
      message: translate(request.lang, 'login_success'),
    }),
  );
}
