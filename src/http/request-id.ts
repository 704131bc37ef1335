import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Random per process, so that ids from several processes do not collide in shared logs. */
const PROCESS_PREFIX = randomBytes(6).toString('base64url');
let sequence = 0;

/**
 * Echo a client's X-Request-Id when it is safe to log and send back (docs/api.md 12), else make one: a process
 * prefix and a counter, unique and short (ids correlate logs; they are not secrets).
 */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming)) return incoming;
  sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
  return `${PROCESS_PREFIX}-${sequence.toString(36)}`;
}
