import type { FastifyReply, FastifyRequest } from 'fastify';
import { PRIVATE_REVALIDATE, PUBLIC_REVALIDATE, sendCacheable } from '../../http/cache.js';

/**
 * Directory answers that are the same for every caller go out from a memoized serialization with an ETag;
 * `no-cache` makes clients revalidate, so counts that follow publication show at once. An answer only some
 * callers may see (a hidden agent), or one with the caller's `is_favorite`, is private.
 */

/** A record or list page that carries nothing per caller; `shared: false` for one not everyone may see. */
export function sendDirectoryAnswer(request: FastifyRequest, reply: FastifyReply, data: object, shared = true): FastifyReply {
  return sendCacheable(request, reply, data, shared ? PUBLIC_REVALIDATE : PRIVATE_REVALIDATE, () => ({ success: true, data }));
}

/** A page of listing summaries: shared when anonymous, private (with `is_favorite`) when signed in. */
export function sendListingPage(request: FastifyRequest, reply: FastifyReply, data: object): FastifyReply {
  if (request.user) return reply.header('cache-control', PRIVATE_REVALIDATE).send({ success: true, data });
  return sendCacheable(request, reply, data, PUBLIC_REVALIDATE, () => ({ success: true, data }));
}
