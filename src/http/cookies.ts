/**
 * Cookies by RFC 6265, strictly and without a library: the one cookie this service sets is the web console's
 * refresh cookie (docs/api.md 2.3), so reading a Cookie header and writing a Set-Cookie value is all it needs.
 * Pure functions; nothing here logs or keeps a value.
 */

/** `token` of RFC 9110 5.6.2: the characters a cookie name may hold. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** `*cookie-octet` of RFC 6265 4.1.1: printable US-ASCII without space, `"`, `,`, `;` and `\`. */
const COOKIE_VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
/** `path-value` of RFC 6265 4.1.1: any character but controls and `;` (non-ASCII refused too). */
const PATH_VALUE = /^\/[\x20-\x3A\x3C-\x7E]*$/;
/** Optional white space around a pair and around its `=`. */
const OWS = /^[ \t]+|[ \t]+$/g;

export interface CookiePair {
  name: string;
  /** The value without its optional double quotes; `null` when it holds characters no cookie value may hold. */
  value: string | null;
}

/**
 * The pairs of a Cookie header, in order. A pair whose name is not a token, or that has no `=`, is skipped
 * (it cannot be any cookie this service set); a pair with a well-formed name but a bad value is kept with
 * `value: null`, so that a caller looking for that name can refuse it instead of missing it.
 */
export function parseCookieHeader(header: string): CookiePair[] {
  const pairs: CookiePair[] = [];
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).replace(OWS, '');
    if (!COOKIE_NAME.test(name)) continue;
    let value = part.slice(equals + 1).replace(OWS, '');
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    pairs.push({ name, value: COOKIE_VALUE.test(value) ? value : null });
  }
  return pairs;
}

export type CookieLookup =
  | { readonly status: 'absent' }
  | { readonly status: 'present'; readonly value: string }
  /** Sent, but not usable: a bad character, longer than allowed, empty, or sent more than once (ambiguous). */
  | { readonly status: 'malformed' };

/**
 * One cookie of a request's Cookie header. Refusing a repeated name matters: a browser sends two cookies of one
 * name when another site of the same registrable domain planted a second one ("cookie tossing"), and which
 * comes first is not something to bet a session on.
 */
export function findCookie(header: string | undefined, name: string, maxLength: number): CookieLookup {
  if (header === undefined || header === '') return { status: 'absent' };
  const matches = parseCookieHeader(header).filter((pair) => pair.name === name);
  if (matches.length === 0) return { status: 'absent' };
  const value = matches[0]!.value;
  if (matches.length > 1 || value === null || value === '' || value.length > maxLength) return { status: 'malformed' };
  return { status: 'present', value };
}

export interface SetCookieAttributes {
  path: string;
  /** Seconds the browser keeps the cookie; 0 deletes it. */
  maxAgeSeconds: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax';
}

/**
 * A Set-Cookie header value. Throws on a name, value or path that RFC 6265 does not allow: these come from
 * code and configuration, never from a request, so a bad one is a programming error to catch at start.
 */
export function serializeSetCookie(name: string, value: string, attributes: SetCookieAttributes): string {
  if (!COOKIE_NAME.test(name)) throw new TypeError(`invalid cookie name ${JSON.stringify(name)}`);
  if (!COOKIE_VALUE.test(value)) throw new TypeError(`invalid value for cookie ${name}`);
  if (!PATH_VALUE.test(attributes.path)) throw new TypeError(`invalid cookie path ${JSON.stringify(attributes.path)}`);
  if (!Number.isSafeInteger(attributes.maxAgeSeconds) || attributes.maxAgeSeconds < 0) {
    throw new TypeError(`invalid cookie max-age ${attributes.maxAgeSeconds}`);
  }
  let cookie = `${name}=${value}; Path=${attributes.path}; Max-Age=${attributes.maxAgeSeconds}`;
  if (attributes.httpOnly) cookie += '; HttpOnly';
  if (attributes.secure) cookie += '; Secure';
  return `${cookie}; SameSite=${attributes.sameSite}`;
}
