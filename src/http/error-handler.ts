import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUniqueViolation } from '../db/dialect/index.js';
import { type MessageKey, type MessageParams, translate } from '../i18n/index.js';
import { AppError, type FieldError } from '../lib/errors.js';

type AjvError = NonNullable<FastifyError['validation']>[number];

/**
 * Renders every failure as the contract's error body (docs/api.md 0.2): Fastify's own errors (validation,
 * parsing, body size), driver errors (unique violations → 409) and anything unexpected,
 * which is logged with the request id and answered 500 without internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error, request);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, appError);
  });
}

/** Old addresses kept for records (an import's redirects): where a GET of a path no route answers is sent. */
export interface OldAddresses {
  /** The Location for a request's URL (path and query), or undefined for none. */
  locationFor(url: string): Promise<string | undefined>;
  /** How long a shared cache or a browser may keep the 301 (a redirect may be removed, a slug change). */
  maxAgeSeconds: number;
}

/**
 * Unknown routes: a 301 when the path is an old address kept for a record (GET and HEAD only; never a route that
 * exists, since only unknown paths come here), else the error body, or, for a path `isPage` claims (the website's,
 * when it is served), the page `pageNotFound` renders, so that a visitor who follows a dead link gets a page and
 * not JSON.
 */
export function registerNotFound(
  app: FastifyInstance,
  pages?: { isPage: (path: string) => boolean; pageNotFound: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> },
  oldAddresses?: OldAddresses,
): void {
  app.setNotFoundHandler(async (request, reply) => {
    if (oldAddresses && (request.method === 'GET' || request.method === 'HEAD')) {
      const location = await oldAddresses.locationFor(request.url);
      if (location !== undefined) return sendMovedPermanently(reply, location, oldAddresses.maxAgeSeconds);
    }
    const path = request.url.split('?')[0] ?? '/';
    if (pages?.isPage(path)) return pages.pageNotFound(request, reply);
    return sendError(
      request,
      reply,
      new AppError('route_not_found', 'route_not_found', [], { method: request.method, path: path.slice(0, 200) }),
    );
  });
}

/** A 301 to `location` (always a URL the application built), which caches may keep `maxAgeSeconds`. */
export function sendMovedPermanently(reply: FastifyReply, location: string, maxAgeSeconds: number): FastifyReply {
  return reply.header('cache-control', `public, max-age=${maxAgeSeconds}, s-maxage=${maxAgeSeconds}`).redirect(location, 301);
}

/**
 * Fastify's `frameworkErrors`: the answers its router gives before any route or hook runs (a path parameter it
 * cannot percent-decode, one over its length limit) get the error body too, with what every answer gets.
 */
export function frameworkErrorHandler(
  basics: (request: FastifyRequest, reply: FastifyReply) => void,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  // Returns nothing: a reply is a thenable, and Fastify's router awaits no promise from this handler.
  return (error, request, reply) => {
    basics(request, reply);
    sendError(request, reply, toAppError(error, request));
  };
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const params: MessageParams = { ...error.messageParams, request_id: request.id };
  // Limits raised by services (the account lock) tell clients when to retry, as the rate limiter does.
  if (error.code === 'rate_limited' && error.messageParams.seconds !== undefined && !reply.hasHeader('retry-after')) {
    reply.header('retry-after', String(error.messageParams.seconds));
  }
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .send({
      success: false,
      code: error.code,
      message: translate(request.lang, error.messageKey, params),
      ...(error.fields.length > 0
        ? { errors: error.fields.map((f) => ({ field: f.field, message: translate(request.lang, f.key, f.params) })) }
        : {}),
      request_id: request.id,
    });
}

/** Any failure as the AppError it is answered with: the website renders the same errors as pages. */
export function toAppError(error: FastifyError, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) return new AppError('validation_failed', 'validation_failed', fieldErrors(error.validation));
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'payload_too_large', [], {
        limit: request.routeOptions.bodyLimit ?? 0,
      });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'unsupported_media_type' : 'validation_failed');
  }
  if (isUniqueViolation(error)) return new AppError('conflict');
  // Other client errors raised by Fastify itself (e.g. a malformed URL) stay client errors.
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('validation_failed');
  }
  return new AppError('internal_error');
}

/**
 * One entry per field, naming the field and the rule (Ajv reports unions once per branch; keep the first). Feed
 * imports report their records' problems with it, in the same words as a request's.
 */
export function fieldErrors(errors: AjvError[]): FieldError[] {
  const byField = new Map<string, FieldError>();
  for (const error of errors) {
    const field = fieldPath(error);
    if (!byField.has(field)) byField.set(field, { field, ...ruleOf(error) });
    // A body of 100,000 wrong array items made a 6 MB answer: the first fields tell the client enough.
    if (byField.size === MAX_FIELD_ERRORS) break;
  }
  return [...byField.values()];
}

/** At most this many entries in an error's `errors` (docs/api.md 0.2). */
const MAX_FIELD_ERRORS = 100;

function fieldPath(error: AjvError): string {
  const params = error.params as Record<string, unknown>;
  const segments = error.instancePath.split('/').filter(Boolean).map(decodePointer);
  if (error.keyword === 'required') segments.push(String(params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(params.additionalProperty));
  return segments.join('.') || '(root)';
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function ruleOf(error: AjvError): { key: MessageKey; params?: MessageParams } {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { key: 'rule_required' };
    case 'additionalProperties':
      return { key: 'rule_unknown_field' };
    case 'type':
      return { key: 'rule_type', params: { type: String(params.type) } };
    case 'enum':
      return { key: 'rule_enum', params: { values: (params.allowedValues as unknown[]).join(', ') } };
    case 'const':
      return { key: 'rule_enum', params: { values: String(params.allowedValue) } };
    case 'minimum':
    case 'exclusiveMinimum':
      return { key: 'rule_minimum', params: { limit: Number(params.limit) } };
    case 'maximum':
    case 'exclusiveMaximum':
      return { key: 'rule_maximum', params: { limit: Number(params.limit) } };
    case 'minLength':
      return { key: 'rule_min_length', params: { limit: Number(params.limit) } };
    case 'maxLength':
      return { key: 'rule_max_length', params: { limit: Number(params.limit) } };
    case 'maxItems':
      return { key: 'rule_max_items', params: { limit: Number(params.limit) } };
    case 'pattern':
      return { key: 'rule_pattern' };
    case 'format':
      return { key: 'rule_format', params: { format: String(params.format) } };
    case 'noNul':
      return { key: 'rule_no_nul' };
    default:
      return { key: 'rule_invalid' };
  }
}
