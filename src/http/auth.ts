import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';
import type { AuthUser } from './request-context.js';

export interface Authenticator {
  /** Resolves a bearer token to its caller, or throws a 401/403 AppError. */
  authenticate(token: string): Promise<AuthUser>;
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i;

/**
 * The one place where route auth requirements are enforced. A token that is present is always checked,
 * on public routes too (API.md 0.3), so a revoked token never silently degrades to anonymous access.
 */
export function registerAuth(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header !== undefined) {
      const token = BEARER.exec(header)?.[1];
      if (token === undefined) throw new AppError('invalid_token');
      request.user = await authenticator.authenticate(token);
    }
    const requirement = request.routeOptions.config.auth ?? 'public';
    if (requirement === 'public') return;
    if (request.user === null) throw new AppError('unauthorized');
    if (requirement !== 'user' && !requirement.includes(request.user.role)) throw new AppError('forbidden');
  });
}
