import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { authRateLimit, keyedRateLimit } from '../../http/rate-limit.js';
import { bodyDefaultsToEmpty } from '../../http/route-helpers.js';
import { translate } from '../../i18n/index.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AuthService, RenewalMeter } from './auth.service.js';
import {
  FirstAdministratorBody,
  LoginBody,
  LogoutBody,
  RegisterBody,
  ResetConfirmBody,
  ResetRequestBody,
  TokenBody,
  TokenValidity,
} from './auth.schemas.js';
import type { FirstRunService } from './first-run.service.js';
import type { PasswordResetService } from './password-reset.service.js';
import { REFRESH_COOKIE_NAME, type RefreshCookie } from './refresh-cookie.js';

export interface AuthRouteOptions {
  auth: AuthService;
  passwordReset: PasswordResetService;
  firstRun: FirstRunService;
  /** Cookie mode's refresh cookie (docs/api.md 2.3). */
  refreshCookie: RefreshCookie;
  /** Its rate limits (docs/api.md 0.6): the sign-in routes' per-address budget, the renewals' per-session one. */
  config: Config;
}

const MessageOnly = Type.Object({ success: Type.Boolean(), message: Type.String() });

/** Said in every sign-in route that takes `session`. */
const COOKIE_MODE_NOTE =
  ` With \`session: cookie\` the refresh token is set as the HttpOnly, SameSite=Strict cookie \`${REFRESH_COOKIE_NAME}\`, ` +
  'scoped to `/auth/token`, and left out of the answer (docs/api.md 2.3).';

export async function authRoutes(app: FastifyInstance, { auth, passwordReset, firstRun, refreshCookie, config }: AuthRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const signInRateLimit = authRateLimit(config);
  const limited = { rateLimit: signInRateLimit };
  // A renewal is not a sign-in attempt: every page load of the console renews its session, and a whole office may
  // share one address. A session has a budget of its own; refused tokens (guesses, copies) use the address's.
  const renewalsPerSession = keyedRateLimit(app, config, 'renewals', config.rateLimit.renewalsPerMinute);
  const refusalsPerAddress = keyedRateLimit(app, config, 'refused-renewals', config.rateLimit.authPerMinute);
  const renewalMeter = (request: FastifyRequest): RenewalMeter => ({
    renewing: async (sessionId) => renewalsPerSession?.(request, sessionId),
    refusing: async (reason) => {
      request.log.warn({ reason, ip: request.ip }, 'refresh token refused');
      await refusalsPerAddress?.(request, request.ip);
    },
  });
  if (refreshCookie.path !== `${app.prefix}/auth/token`) {
    throw new Error(`the refresh cookie's path ${refreshCookie.path} is not the token route's, ${app.prefix}/auth/token`);
  }

  api.post(
    '/auth/login',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username or e-mail and a password',
        description:
          'Also served as `/{lang}/realty-api/v1/auth/login` (messages in that language). Five failed attempts for one account ' +
          'within 15 minutes lock it for 15 minutes (429 with Retry-After).' +
          COOKIE_MODE_NOTE,
        body: LoginBody,
        response: {
          200: Envelope(Type.Ref('LoginResult')),
          ...errorResponses(400, 401, 403, 413, 415, 429),
        },
      },
    },
    async (request, reply) => ({
      success: true,
      data: refreshCookie.deliver(reply, request.body.session, await auth.login(request.body)),
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
          'Roles `agent` and `agency` also create the agent or agency record (`agent_id`/`agency_id`). 403 when REGISTRATION_ENABLED=false.' +
          COOKIE_MODE_NOTE,
        body: RegisterBody,
        response: {
          201: Envelope(Type.Ref('LoginResult')),
          ...errorResponses(400, 403, 409, 413, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const data = refreshCookie.deliver(reply, request.body.session, await auth.register(request.body));
      return reply.status(201).send({ success: true, data, message: translate(request.lang, 'register_success') });
    },
  );

  api.post(
    '/setup/administrator',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Create the first administrator with the first run’s set-up link, and sign in',
        description:
          'While the database has no active administrator, each start of `serve` prints a one-time set-up link ' +
          '(`/console/setup#token=…`; only the token’s hash is stored, and a new start replaces it). Its token creates one ' +
          'administrator and is spent with it: a used, replaced or unknown token is a 400 on `token`. Once an administrator ' +
          'exists, the next start deletes any token left (docs/operations.md, "First run").' +
          COOKIE_MODE_NOTE,
        body: FirstAdministratorBody,
        response: {
          201: Envelope(Type.Ref('LoginResult')),
          ...errorResponses(400, 409, 413, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const administrator = await firstRun.createAdministrator(request.body);
      const data = refreshCookie.deliver(reply, request.body.session, await auth.signIn(administrator));
      return reply.status(201).send({ success: true, data, message: translate(request.lang, 'first_administrator_created') });
    },
  );

  api.post(
    '/auth/token',
    {
      // The password grant has the sign-in budget; the body tells the grants apart, hence the later hook.
      config: { rateLimit: { ...signInRateLimit, hook: 'preHandler', allowList: (request) => isRefreshGrant(request.body) } },
      schema: {
        tags: ['auth'],
        summary: 'Get tokens with a password, or rotate a refresh token',
        description:
          '`grant_type: password` with `username` and `password`, or `grant_type: refresh_token` with `refresh_token`. ' +
          'Refresh tokens are single use; presenting one that was already used revokes its whole session (401). ' +
          "The password grant has the sign-in routes' budget per address (AUTH_RATE_LIMIT_PER_MINUTE); a renewal is not a " +
          'sign-in attempt: each session may be renewed REFRESH_RATE_LIMIT_PER_MINUTE times a minute (default 60) from any ' +
          'address, and refused refresh tokens (unknown, reused, revoked, expired) count against AUTH_RATE_LIMIT_PER_MINUTE ' +
          'per address; past either, 429 with Retry-After. ' +
          `With \`session: cookie\` the refresh token is answered as the HttpOnly cookie \`${REFRESH_COOKIE_NAME}\` (not in the answer), and ` +
          'a refresh grant without `refresh_token` reads that cookie: the rotated token is set again, a missing cookie is ' +
          '401 `unauthorized`, an unusable one 401 `invalid_token`. Without `session: cookie` the cookie is never read. ' +
          'Only `application/json` bodies are taken, which a cross-site form cannot send (docs/api.md 2.3).',
        body: TokenBody,
        response: {
          200: Envelope(Type.Ref('TokenPair')),
          ...errorResponses(400, 401, 403, 413, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const input = refreshCookie.tokenInput(request.body, request.headers.cookie);
      const tokens = await auth.issueTokens(input, renewalMeter(request));
      return { success: true, data: refreshCookie.deliver(reply, request.body.session, tokens) };
    },
  );

  api.post(
    '/auth/validate-token',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['auth'],
        summary: 'Check the bearer token',
        description:
          'Answers who the bearer token belongs to and when it expires (`{user_id, role, token_expires_at}`); without a usable token → 401.',
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
        description:
          "The session ended is the bearer token's (in cookie mode, also the cookie's). With `session: cookie` the answer " +
          `also deletes the refresh cookie (\`Set-Cookie: ${REFRESH_COOKIE_NAME}=; Path=…; Max-Age=0\`, docs/api.md 2.3).`,
        body: LogoutBody,
        response: { 200: MessageOnly, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      await auth.logout(request.user!, request.body.refresh_token);
      refreshCookie.clear(reply, request.body.session);
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
        description:
          'Takes the token of the reset e-mail and a new password. The token works once and only until it expires; the account’s other reset tokens expire and every session of the account is revoked. An unknown, used or expired token → 400 naming `token`.',
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

function isRefreshGrant(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { grant_type?: unknown }).grant_type === 'refresh_token';
}
