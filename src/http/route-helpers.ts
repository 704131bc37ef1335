import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import type { AuthUser } from '../lib/signed-in-user.js';

/** The caller, on a route whose auth requirement (`config: { auth }`) guarantees one. */
export function callerOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('unauthorized');
  return request.user;
}

/**
 * A `preValidation` hook for routes whose body is optional: a request without one is validated as `{}`
 * (a POST that needs nothing but the path, a DELETE of an account without a password).
 */
export async function bodyDefaultsToEmpty(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}
