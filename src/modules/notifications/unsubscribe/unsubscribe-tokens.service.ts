import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_TYPES, type NotificationType } from '../../../db/schema/index.js';

/** What an unsubscribe token stands for: e-mails of one type to one user. */
export interface UnsubscribeClaim {
  userId: number;
  type: NotificationType;
}

/** The HKDF `info`: keys derived for other purposes from the same secret never equal this one. */
const LABEL = 'notification-unsubscribe';
const PAYLOAD = /^([1-9][0-9]{0,15})\.([a-z_]{1,40})$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** base64url of an HMAC-SHA256 (32 bytes, no padding). */
const SIGNATURE_LENGTH = 43;
/** Longer than any token this class writes; anything past it is refused before any work. */
const MAX_TOKEN_LENGTH = 200;

/**
 * The tokens of the e-mails' unsubscribe links: `base64url("<userId>.<type>") + "." + base64url(HMAC-SHA256)`,
 * signed with a key derived from the JWT secret. They carry no expiry on purpose: an unsubscribe link in an
 * old e-mail must keep working (RFC 8058 asks senders to honour it for as long as they send). A token only
 * ever turns one type of e-mail off for one user, so there is nothing to gain by stealing one; changing the
 * JWT secret invalidates every link sent before.
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, '', LABEL, 32));
  }

  sign(userId: number, type: NotificationType): string {
    if (!Number.isSafeInteger(userId) || userId < 1) throw new RangeError(`not a user id: ${userId}`);
    const payload = Buffer.from(`${userId}.${type}`).toString('base64url');
    return `${payload}.${this.signatureOf(payload)}`;
  }

  /** The claim of a token this service signed; undefined for anything malformed, forged or tampered with. */
  verify(token: string): UnsubscribeClaim | undefined {
    if (token.length > MAX_TOKEN_LENGTH) return undefined;
    const [payload, signature, ...rest] = token.split('.');
    if (payload === undefined || signature === undefined || rest.length > 0) return undefined;
    if (!BASE64URL.test(payload) || !BASE64URL.test(signature) || signature.length !== SIGNATURE_LENGTH) return undefined;
    // Compared as text: the signature covers the payload as sent, and only one spelling of the signature passes
    // (decoding would let the unused low bits of its last character vary).
    if (!timingSafeEqual(Buffer.from(signature), Buffer.from(this.signatureOf(payload)))) return undefined;
    const match = PAYLOAD.exec(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!match) return undefined;
    const userId = Number(match[1]);
    const type = match[2] as NotificationType;
    if (!Number.isSafeInteger(userId) || !NOTIFICATION_TYPES.includes(type)) return undefined;
    return { userId, type };
  }

  private signatureOf(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
