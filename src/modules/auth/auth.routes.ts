import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { translate } from '../../i18n/index.js';
import type { AuthService } from './auth.service.js';
import { LoginBody } from './auth.schemas.js';

export interface AuthRouteOptions {
  auth: AuthService;
  /** The per-IP budget of the sign-in routes (API.md 0.6); unused when rate limiting is off. */
  signInRateLimit: { max: number; timeWindow: number };
}

export async function authRoutes(app: FastifyInstance, { auth, signInRateLimit }: AuthRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/auth/login',
    {
      config: { rateLimit: signInRateLimit },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username or e-mail and a password',
        description: 'Also served as `/{lang}/realty-api/v1/auth/login` (messages in that language).',
        body: LoginBody,
        response: {
          200: Envelope(Type.Ref('LoginResult')),
          ...errorResponses(400, 401, 403, 413, 415, 429),
        },
      },
    },
    async (request) => ({
      success: true,
      data: await auth.login(request.body),
      message: translate(request.lang, 'login_success'),
    }),
  );
}
