import type { FastifyRequest } from 'fastify';
import type { Authenticator } from '../../http/auth.js';
import { keyedRateLimit } from '../../http/rate-limit.js';
import type { AuthServices } from '../auth/index.js';
import type { AppModule, Platform } from '../module.js';
import { apiClientRoutes } from './api-clients.routes.js';
import { ApiClient } from './api-clients.schemas.js';
import { ApiClientsService } from './api-clients.service.js';
import { ClientCredentials, isClientCredential } from './client-credentials.service.js';
import { oauthRoutes } from './oauth.routes.js';

const HOUR_MS = 3600_000;

export interface ApiClientsServices {
  /** The administrators' machine clients (docs/api.md 17). */
  apiClients: ApiClientsService;
  /** Every bearer token's check: a person's session (auth) or a machine client's credential. */
  callers: Authenticator;
}

const BEARER_CLIENT_CREDENTIAL = /^Bearer[ ]+ra[kt]_/i;

/**
 * Whether a request carries a machine client's credential to a route that checks it: it is metered by the client's
 * budget (or, refused, by the address's budget of refusals) instead of the address's. A route that reads a credential
 * of its own kind (`auth: 'own'`: a feed's token, the metrics token) never checks a client's, so it keeps the
 * address's budget whatever the header says.
 */
export function sentByClient(request: FastifyRequest): boolean {
  const header = request.headers.authorization;
  return header !== undefined && BEARER_CLIENT_CREDENTIAL.test(header) && request.routeOptions.config.auth !== 'own';
}

/**
 * Machine clients (issue 43 item 1, docs/machine-clients.md): scoped credentials an administrator makes for
 * another system, used as a bearer key or through the OAuth 2.0 client-credentials grant.
 */
export function createApiClientsModule(
  { config, database, log }: Platform,
  { auth, credentialRevocations }: Pick<AuthServices, 'auth' | 'credentialRevocations'>,
): AppModule<ApiClientsServices> {
  const { db } = database;
  const credentials = new ClientCredentials(db, credentialRevocations.newCache?.(), log, config.accessTokenTtlSeconds);
  const apiClients = new ApiClientsService(db, credentialRevocations.announcer, config.rateLimit.perMinute);
  const callers: Authenticator = {
    authenticate: (token, request) => (isClientCredential(token) ? credentials.authenticate(token, request) : auth.authenticate(token)),
  };
  return {
    services: { apiClients, callers },
    schemas: [ApiClient],
    routes: async (api) => {
      // The budgets exist once the rate limiter does; undefined while limits are off.
      const perClient = keyedRateLimit(api, config, 'api-client', config.rateLimit.perMinute);
      const refusals = keyedRateLimit(api, config, 'api-client-refusals', config.rateLimit.authPerMinute);
      credentials.meterWith(perClient && refusals ? { perClient, refusals } : undefined);
      await api.register(apiClientRoutes, { apiClients });
      await api.register(oauthRoutes, { credentials });
    },
    jobs: [
      {
        name: 'api-client-prune',
        intervalMs: HOUR_MS,
        run: async (now) => {
          await credentials.prune(now);
        },
      },
    ],
  };
}

export { CLIENT_SCOPES, routesOfScopes } from './client-scopes.js';
