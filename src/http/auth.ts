import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import type { AuthUser } from '../lib/signed-in-user.js';

export interface Authenticator {
  /**
   * Resolves a bearer token to its caller for this request (its route and address: a machine client's scopes
   * and allowed addresses depend on them), or throws a 401/403/429 AppError.
   */
  authenticate(token: string, request: FastifyRequest): Promise<AuthUser>;
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i;

/**
 * The one place where route auth requirements are enforced. A token that is present is always checked,
 * on public routes too (docs/api.md 0.3), so a revoked token never silently degrades to anonymous access.
 */
export function registerAuth(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', (request, reply, done) => {
    const header = request.headers.authorization;
    const requirement = request.routeOptions.config.auth ?? 'public';
    if (requirement === 'own') {
      done();
      return;
    }
    if (header === undefined) {
      // The common anonymous case settles without a promise.
      done(requirement === 'public' ? undefined : new AppError('unauthorized'));
      return;
    }
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) {
      done(new AppError('invalid_token'));
      return;
    }
    authenticator.authenticate(token, request).then((user) => {
      request.user = user;
      // Every line a machine client's request logs names the client (its id, never its secret).
      if (user.client) request.log = reply.log = request.log.child({ api_client: user.client.clientId });
      const allowed = requirement === 'public' || requirement === 'user' || requirement.includes(user.role);
      done(allowed ? undefined : new AppError('forbidden'));
    }, done);
  });
}
