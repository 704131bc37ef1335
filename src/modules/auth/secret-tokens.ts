import { createHash, randomBytes } from 'node:crypto';

/** An opaque random token for a client (refresh tokens, reset links): 256 bits, URL-safe. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a secret token: its SHA-256, so that a leaked table grants nothing. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
