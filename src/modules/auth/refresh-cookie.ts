import type { FastifyReply } from 'fastify';
import { findCookie, serializeSetCookie } from '../../http/cookies.js';
import { AppError } from '../../lib/errors.js';

/** The cookie that carries the refresh token in cookie mode (docs/api.md 2.3). */
export const REFRESH_COOKIE_NAME = 'realty_refresh';

/**
 * How a sign-in answer delivers the refresh token: `body` (the default, the mobile apps' contract) puts it in the
 * JSON answer; `cookie` (the web console) sets it as an HttpOnly cookie and leaves it out of the answer.
 */
export const SESSION_MODES = ['body', 'cookie'] as const;
export type SessionMode = (typeof SESSION_MODES)[number];

/** Our refresh tokens are 43 characters; the JSON body allows up to 200 (auth.schemas.ts), and so does the cookie. */
const MAX_COOKIE_TOKEN_LENGTH = 200;

/** The fields of the `POST /auth/token` body that decide where its refresh token comes from. */
interface TokenRequest {
  grant_type: string;
  refresh_token?: string | undefined;
  session?: SessionMode | undefined;
}

export interface RefreshCookieOptions {
  /** The path `POST /auth/token` is served at, API_PREFIX included: the only requests the cookie is sent with. */
  path: string;
  /** The refresh token's lifetime. */
  maxAgeSeconds: number;
  /** Whether the API is served over https (`PUBLIC_URL`): then the cookie is never sent over plain http. */
  secure: boolean;
}

/**
 * The refresh cookie of cookie mode. HttpOnly, so page script cannot read the long-lived credential;
 * SameSite=Strict and scoped to the token route, so it travels only with the console's own refresh calls.
 */
export class RefreshCookie {
  private readonly clearing: string;

  constructor(private readonly options: RefreshCookieOptions) {
    // Serialized once here so that a path the cookie syntax cannot carry fails at start, not at a sign-in.
    this.clearing = this.header('', 0);
  }

  get path(): string {
    return this.options.path;
  }

  /**
   * The answer of a sign-in or token route in the mode the client asked for: in cookie mode the refresh token
   * moves from the answer into the cookie (and the answer must not be stored by any cache).
   */
  deliver<T extends { refresh_token?: string | undefined }>(reply: FastifyReply, mode: SessionMode | undefined, result: T): T {
    if (mode !== 'cookie' || result.refresh_token === undefined) return result;
    const { refresh_token: refreshToken, ...rest } = result;
    reply.header('set-cookie', this.header(refreshToken, this.options.maxAgeSeconds)).header('cache-control', 'no-store');
    return rest as T;
  }

  /** Logout in cookie mode tells the browser to drop the cookie; body mode's answer stays as it was. */
  clear(reply: FastifyReply, mode: SessionMode | undefined): void {
    if (mode === 'cookie') reply.header('set-cookie', this.clearing);
  }

  /**
   * What `POST /auth/token` asks of the service. A cookie-mode refresh grant without `refresh_token` presents the
   * cookie's token; body mode never reads the cookie, so that a refresh answered in the body can never carry the
   * token of an HttpOnly cookie to page script.
   */
  tokenInput<T extends TokenRequest>(body: T, cookieHeader: string | undefined): T {
    if (body.session !== 'cookie' || body.grant_type !== 'refresh_token' || body.refresh_token !== undefined) return body;
    return { ...body, refresh_token: this.cookieToken(cookieHeader) };
  }

  /** No cookie is a 401 `unauthorized` (no credential), like a missing bearer token; an unusable one is `invalid_token`. */
  private cookieToken(cookieHeader: string | undefined): string {
    const cookie = findCookie(cookieHeader, REFRESH_COOKIE_NAME, MAX_COOKIE_TOKEN_LENGTH);
    if (cookie.status === 'absent') throw new AppError('unauthorized');
    if (cookie.status === 'malformed') throw new AppError('invalid_token');
    return cookie.value;
  }

  private header(value: string, maxAgeSeconds: number): string {
    return serializeSetCookie(REFRESH_COOKIE_NAME, value, {
      path: this.options.path,
      maxAgeSeconds,
      httpOnly: true,
      secure: this.options.secure,
      sameSite: 'Strict',
    });
  }
}
