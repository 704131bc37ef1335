import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Response headers a browser client may read (request ids in bug reports, retry hints, validators). */
const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'ETag', 'Deprecation', 'Sunset', 'Link'];

/**
 * CORS through @fastify/cors. With an allow-list the plugin checks every request's Origin. With the
 * default wildcard nothing varies per request, so the two response headers join the constant set that
 * every answer gets (http/request-basics.ts) and the plugin is registered in a scope of its own, where it
 * only answers preflight requests: its per-request hook then costs the other routes nothing.
 */
export async function registerCors(app: FastifyInstance, origins: '*' | readonly string[]): Promise<void> {
  const options = { origin: origins === '*' ? '*' : [...origins], maxAge: 600, exposedHeaders: EXPOSED_HEADERS };
  if (origins === '*') await app.register(async (preflightOnly) => preflightOnly.register(cors, options));
  else await app.register(cors, options);
}

/** The CORS headers every answer carries when any origin is allowed. */
export function wildcardCorsHeaders(origins: '*' | readonly string[]): Record<string, string> {
  return origins === '*' ? { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS.join(', ') } : {};
}
