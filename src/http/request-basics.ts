import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { resolveLanguage } from './language.js';
import { constantHeaders } from './security-headers.js';

/**
 * What every request gets before anything else, in one hook: the constant headers (security, and CORS
 * when it does not vary), the X-Request-Id header, the message language, and a 503 while the server
 * drains (from `close()` on: `isClosing`); and the body types every route accepts. Callback-style hooks:
 * they run on every request, and an async hook costs a promise each time.
 */
export function registerRequestBasics(app: FastifyInstance, extraHeaders: Record<string, string>): { isClosing: () => boolean } {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const isClosing = () => closing;
  const basics = requestBasics(extraHeaders);
  // Bodies are JSON (or what a route's own parser takes): a text/plain body is a 415, not a string that then
  // fails validation as a 400 (docs/api.md 0.2).
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', (request, reply, done) => {
    basics(request, reply);
    done(isClosing() ? new AppError('service_unavailable') : undefined);
  });
  // While draining, answers close their connection: a keep-alive socket would otherwise hold shutdown open.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isClosing()) reply.header('connection', 'close');
    done(null, payload);
  });
  return { isClosing };
}

/**
 * What every answer gets: the constant headers, the X-Request-Id header and the message language. Also applied
 * to the answers Fastify's router gives before any hook runs (error-handler.ts `frameworkErrorHandler`).
 */
export function requestBasics(extraHeaders: Record<string, string>): (request: FastifyRequest, reply: FastifyReply) => void {
  const headersFor = constantHeaders(extraHeaders);
  return (request, reply) => {
    reply.headers(headersFor(request.url));
    reply.header('x-request-id', request.id);
    request.lang = resolveLanguage(request);
  };
}
