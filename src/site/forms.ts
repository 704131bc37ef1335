import type { FastifyRequest } from 'fastify';
import { fieldErrors } from '../http/error-handler.js';
import { translate, type Language } from '../i18n/index.js';
import { AppError } from '../lib/errors.js';

/**
 * What every form of the website shares (docs/site.md): a check that a post comes from the site's own pages,
 * the honeypot field that bots fill and people never see, and the field errors shown beside the fields.
 */

/** The honeypot's name: a field a person cannot see or reach; anything in it marks the post as a bot's. */
export const HONEYPOT_FIELD = 'website';

/**
 * Whether a post was sent by a page of this site. Browsers send `Origin` with every form post (and `Referer`
 * unless told not to); a post from another site's page names that site. A request with neither is not from a
 * browser page, and a cross-site form cannot strip both, so it is let through to the forms' other defences.
 */
export function isSameOriginPost(request: FastifyRequest, siteOrigins: readonly string[]): boolean {
  const own = new Set([...siteOrigins, `${request.protocol}://${request.host}`]);
  const origin = request.headers.origin;
  if (origin !== undefined) return own.has(origin);
  const referer = request.headers.referer;
  if (referer === undefined) return true;
  try {
    return own.has(new URL(referer).origin);
  } catch {
    return false;
  }
}

export function isBotPost(body: Readonly<Record<string, unknown>>): boolean {
  const value = body[HONEYPOT_FIELD];
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined;
}

/** Messages by field name, in the page's language: what a form shows beside each field. */
export type FieldMessages = Readonly<Record<string, string>>;

/**
 * The field messages of a failed post: its schema's validation errors, or a service's AppError with fields.
 * Undefined for any other error, which the caller rethrows (a 404 stays a 404).
 */
export function fieldMessagesOf(error: unknown, lang: Language): FieldMessages | undefined {
  const fields =
    error instanceof AppError
      ? error.fields.length > 0
        ? error.fields
        : undefined
      : error instanceof Error && 'validation' in error && Array.isArray(error.validation)
        ? fieldErrors(error.validation as Parameters<typeof fieldErrors>[0])
        : undefined;
  if (!fields) return undefined;
  const messages: Record<string, string> = {};
  for (const field of fields) messages[field.field] ??= translate(lang, field.key, field.params);
  return messages;
}

/** The values a form posted, as strings, to fill the form again after an error; the honeypot never comes back. */
export function postedValues(body: unknown): Readonly<Record<string, string>> {
  const values: Record<string, string> = {};
  if (body && typeof body === 'object') {
    for (const [name, value] of Object.entries(body)) {
      if (name !== HONEYPOT_FIELD && typeof value === 'string') values[name] = value.slice(0, 10_000);
    }
  }
  return values;
}
