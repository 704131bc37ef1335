import type { FastifyReply, FastifyRequest } from 'fastify';
import { findCookie, serializeSetCookie } from '../../../http/cookies.js';

/**
 * The visitor's comparison (docs/site.md): the listing ids chosen with "Add to compare", kept in a small cookie so
 * that the listing pages (shared by every visitor, cached) need not know it. The compare page itself shows the ids
 * its URL names, so that a comparison can be shared; only adding and removing touch the cookie.
 */
export const MAX_COMPARED = 4;
export const COMPARE_COOKIE = 'realty_compare';
const COOKIE_DAYS = 30;
const INT4_MAX = 2_147_483_647;

/** The ids of an `ids` parameter (`1,2,3`), each once, in order; null when it is not such a list. */
export function parseIds(value: string): number[] | null {
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0 || parts.length > 100) return null;
  const ids: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,10}$/.test(part)) return null;
    const id = Number(part);
    if (id < 1 || id > INT4_MAX) return null;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The ids the cookie holds (none when it is absent or not ours). */
export function selectionOf(request: FastifyRequest): number[] {
  const cookie = findCookie(request.headers.cookie, COMPARE_COOKIE, 100);
  if (cookie.status !== 'present') return [];
  return (parseIds(cookie.value.replace(/\./g, ',')) ?? []).slice(0, MAX_COMPARED);
}

export function keepSelection(reply: FastifyReply, ids: readonly number[], secure: boolean): void {
  reply.header(
    'set-cookie',
    serializeSetCookie(COMPARE_COOKIE, ids.join('.'), {
      path: '/',
      maxAgeSeconds: ids.length === 0 ? 0 : COOKIE_DAYS * 86_400,
      httpOnly: true,
      secure,
      sameSite: 'Lax',
    }),
  );
}
