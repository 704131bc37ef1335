import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Conditional GETs for routes that declare `config.cacheSeconds`: a strong ETag from the body, so it
 * changes exactly when the answer does, and 304 for a matching If-None-Match. Registered before
 * compression so the tag describes the representation, not its encoding.
 */
export function registerConditionalGet(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const seconds = request.routeOptions.config.cacheSeconds;
    if (seconds === undefined || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    reply.header('cache-control', `public, max-age=${seconds}`);
    reply.header('vary', 'Accept-Encoding, Accept-Language');
    if (ifNoneMatch(request.headers['if-none-match'], etag)) {
      reply.code(304);
      return '';
    }
    return payload;
  });
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
