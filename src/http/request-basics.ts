import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.js';
import { resolveLanguage } from './language.js';
import { constantHeaders } from './security-headers.js';

/**
 * What every request gets before anything else, in one hook: the constant headers (security, and CORS
 * when it does not vary), the X-Request-Id header, the message language, and a 503 while the server
 * drains; and the body types every route accepts. Callback-style hooks: they run on every request, and an async hook costs a promise each time.
 */
export function registerRequestBasics(
  app: FastifyInstance,
  { isClosing, extraHeaders }: { isClosing: () => boolean; extraHeaders: Record<string, string> },
): void {
  const headersFor = constantHeaders(extraHeaders);
  // Bodies are JSON (or what a route's own parser takes): a text/plain body is a 415, not a string that then
  // fails validation as a 400 (docs/api.md 0.2).
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headersFor(request.url));
    reply.header('x-request-id', request.id);
    request.lang = resolveLanguage(request);
    done(isClosing() ? new AppError('service_unavailable') : undefined);
  });
  // While draining, answers close their connection: a keep-alive socket would otherwise hold shutdown open.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isClosing()) reply.header('connection', 'close');
    done(null, payload);
  });
}
