import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findCookie, serializeSetCookie } from '../http/cookies.js';
import type { AuthUser } from '../lib/signed-in-user.js';
import type { AuthService, BrowserSession } from '../modules/auth/index.js';

/** The website's session cookie: HttpOnly, SameSite=Lax (a link from elsewhere arrives signed in, a form from elsewhere does not). */
export const SITE_SESSION_COOKIE = 'realty_site';
/** Longer than any secret the auth module issues (newSecretToken: 43 characters), shorter than a header line. */
const MAX_SECRET_LENGTH = 128;

/**
 * A visitor's website session: the auth module's browser session, whose secret the cookie holds (docs/site.md).
 * Also the CSRF token of signed-in forms: an HMAC of the session id, so it needs no storage and dies with the
 * session.
 */
export class SiteSessions {
  constructor(
    private readonly auth: AuthService,
    private readonly csrfKey: string,
    private readonly secure: boolean,
  ) {}

  /** The signed-in visitor, or null; a cookie that names no live session is as good as none. */
  async callerOf(request: FastifyRequest): Promise<AuthUser | null> {
    const cookie = findCookie(request.headers.cookie, SITE_SESSION_COOKIE, MAX_SECRET_LENGTH);
    if (cookie.status !== 'present') return null;
    return (await this.auth.browserCaller(cookie.value)) ?? null;
  }

  /** Whether the request carries a session cookie at all (shared caches must not keep such answers). */
  hasCookie(request: FastifyRequest): boolean {
    return findCookie(request.headers.cookie, SITE_SESSION_COOKIE, MAX_SECRET_LENGTH).status !== 'absent';
  }

  start(reply: FastifyReply, session: BrowserSession): void {
    reply.header('set-cookie', this.cookie(session.secret, session.maxAgeSeconds));
  }

  clear(reply: FastifyReply): void {
    reply.header('set-cookie', this.cookie('', 0));
  }

  csrfToken(caller: AuthUser): string {
    return createHmac('sha256', this.csrfKey).update(`site-form:${caller.sessionId}`).digest('base64url');
  }

  /** Whether a signed-in form's token is the session's own. */
  checkCsrf(caller: AuthUser, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const expected = Buffer.from(this.csrfToken(caller));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private cookie(value: string, maxAgeSeconds: number): string {
    return serializeSetCookie(SITE_SESSION_COOKIE, value, {
      path: '/',
      maxAgeSeconds,
      httpOnly: true,
      secure: this.secure,
      sameSite: 'Lax',
    });
  }
}
