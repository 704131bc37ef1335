import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { bodyDefaultsToEmpty } from '../../http/route-helpers.js';
import { translate } from '../../i18n/index.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AuthService } from './auth.service.js';
import { LoginBody, LogoutBody, RegisterBody, ResetConfirmBody, ResetRequestBody, TokenBody, TokenValidity } from './auth.schemas.js';
import type { PasswordResetService } from './password-reset.service.js';

export interface AuthRouteOptions {
  auth: AuthService;
  passwordReset: PasswordResetService;
  /** The per-IP budget of the sign-in routes (docs/api.md 0.6); unused when rate limiting is off. */
  signInRateLimit: { max: number; timeWindow: number };
}

const MessageOnly = Type.Object({ success: Type.Boolean(), message: Type.String() });

export async function authRoutes(app: FastifyInstance, { auth, passwordReset, signInRateLimit }: AuthRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const limited = { rateLimit: signInRateLimit };

  api.post(
    '/auth/login',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username or e-mail and a password',
        description:
          'Also served as `/{lang}/realty-api/v1/auth/login` (messages in that language). Five failed attempts for one account ' +
          'within 15 minutes lock it for 15 minutes (429 with Retry-After).',
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

  api.post(
    '/auth/register',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Create an account and sign in',
        description:
          'Roles `agent` and `agency` also create the agent or agency record (`agent_id`/`agency_id`). 403 when REGISTRATION_ENABLED=false.',
        body: RegisterBody,
        response: {
          201: Envelope(Type.Ref('LoginResult')),
          ...errorResponses(400, 403, 409, 413, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const data = await auth.register(request.body);
      return reply.status(201).send({ success: true, data, message: translate(request.lang, 'register_success') });
    },
  );

  api.post(
    '/auth/token',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Get tokens with a password, or rotate a refresh token',
        description:
          '`grant_type: password` with `username` and `password`, or `grant_type: refresh_token` with `refresh_token`. ' +
          'Refresh tokens are single use; presenting one that was already used revokes its whole session (401).',
        body: TokenBody,
        response: {
          200: Envelope(Type.Ref('TokenPair')),
          ...errorResponses(400, 401, 403, 413, 415, 429),
        },
      },
    },
    async (request) => ({ success: true, data: await auth.issueTokens(request.body) }),
  );

  api.post(
    '/auth/validate-token',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['auth'],
        summary: 'Check the bearer token',
        response: { 200: Envelope(TokenValidity), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const user = request.user!;
      return {
        success: true,
        data: { user_id: user.id, role: user.role, token_expires_at: toApiTimestamp(user.tokenExpiresAt.toISOString()) },
      };
    },
  );

  api.post(
    '/auth/logout',
    {
      config: { auth: 'user' },
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags: ['auth'],
        summary: 'End the session: its access and refresh tokens stop working at once, in every server process',
        body: LogoutBody,
        response: { 200: MessageOnly, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      await auth.logout(request.user!, request.body.refresh_token);
      return { success: true, message: translate(request.lang, 'logout_success') };
    },
  );

  api.post(
    '/auth/reset-password',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Mail a password-reset link',
        description:
          'Same answer whether or not the address is registered. The link is `RESET_PASSWORD_URL?token=…`, single use, valid one hour.',
        body: ResetRequestBody,
        response: { 200: MessageOnly, ...errorResponses(400, 413, 415, 429) },
      },
    },
    async (request) => {
      await passwordReset.requestReset(request.body.email, request.lang);
      return { success: true, message: translate(request.lang, 'reset_requested') };
    },
  );

  api.post(
    '/auth/reset-password/confirm',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token; ends every session of the account',
        body: ResetConfirmBody,
        response: { 200: MessageOnly, ...errorResponses(400, 413, 415, 429) },
      },
    },
    async (request) => {
      await passwordReset.confirmReset(request.body.token, request.body.password);
      return { success: true, message: translate(request.lang, 'reset_done') };
    },
  );
}
