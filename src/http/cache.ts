import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface Representation {
  /** UTF-8 bytes: encoded once here rather than by every send (non-ASCII text made that the main cost). */
  body: Buffer;
  etag: string;
}

/** A shared answer that every cache must check again (ETag) before reusing. */
export const PUBLIC_REVALIDATE = 'public, no-cache';
/** A caller's own answer: no shared cache keeps it, the caller's checks it again. */
export const PRIVATE_REVALIDATE = 'private, no-cache';

const representations = new WeakMap<object, Map<string, Representation>>();

/**
 * Answers a cacheable GET with the given Cache-Control, an ETag that changes exactly when
 * the body does, and 304 for a matching If-None-Match. `data` is serialized and hashed only the first time
 * this very object is sent in the caller's language: services that cache their answers return the same
 * object while it is current, so a hot cached GET costs neither serialization nor hashing. The ETag is weak
 * because compression may send the same representation in several encodings.
 */
export function sendCacheable(
  request: FastifyRequest,
  reply: FastifyReply,
  data: object,
  cacheControl: string,
  envelope: () => unknown,
): FastifyReply {
  let byLanguage = representations.get(data);
  if (!byLanguage) representations.set(data, (byLanguage = new Map()));
  let representation = byLanguage.get(request.lang);
  if (!representation) {
    // With a response schema (every cacheable route has one) the serializer yields a string.
    representation = representationOf(Buffer.from(String(reply.serialize(envelope()))));
    byLanguage.set(request.lang, representation);
  }
  return sendRepresentation(request, reply, representation, cacheControl);
}

/**
 * As sendCacheable, for a body the caller assembled itself (e.g. from pieces serialized once each), with a
 * fingerprint it made of them that changes exactly when the body does: the ETag. Nothing is kept, since each
 * such answer is a new one.
 */
export function sendCacheableBody(
  request: FastifyRequest,
  reply: FastifyReply,
  { body, fingerprint }: { body: Buffer; fingerprint: string },
  cacheControl: string,
): FastifyReply {
  return sendRepresentation(request, reply, { body, etag: `W/"${fingerprint}"` }, cacheControl);
}

function representationOf(body: Buffer): Representation {
  // The one-shot hash: a Hash object per answer cost three times as much.
  return { body, etag: `W/"${hash('sha1', body, 'base64url')}"` };
}

function sendRepresentation(
  request: FastifyRequest,
  reply: FastifyReply,
  representation: Representation,
  cacheControl: string,
): FastifyReply {
  const vary = reply.getHeader('vary'); // e.g. Origin, set by CORS with an allow-list
  reply.headers({
    etag: representation.etag,
    'cache-control': cacheControl,
    vary: vary ? `${String(vary)}, Accept-Encoding, Accept-Language` : 'Accept-Encoding, Accept-Language',
  });
  if (ifNoneMatch(request.headers['if-none-match'], representation.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(representation.body);
}

/** Weak comparison (RFC 9110 13.1.2), as If-None-Match requires. */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}
