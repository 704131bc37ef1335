/**
 * Where a sign-in (or sign-up) returns the visitor: `?next=`, when it is a path of this site. Anything that a
 * browser could read as another site is refused and the visitor goes home instead: a scheme (`https://evil`,
 * `javascript:`), a network path (`//evil`), a backslash (browsers read `/\evil` as `//evil`), control characters
 * and white space (browsers drop tabs and new lines from URLs, so `/\t/evil` would become `//evil`, and a new line
 * could split the Location header), and any path that normalizes to one of those (`/.//evil`).
 */
const MAX_NEXT_LENGTH = 2000;
const BASE = 'http://site.invalid';

/** The plain path (and query) to return to, or null when `next` is absent or not a path of this site. */
export function safeNextPath(next: unknown): string | null {
  if (typeof next !== 'string' || next.length === 0 || next.length > MAX_NEXT_LENGTH) return null;
  if (!next.startsWith('/') || next.startsWith('//')) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\\\s\u0000-\u001f\u007f]/.test(next)) return null;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || url.pathname.startsWith('//')) return null;
  const path = `${url.pathname}${url.search}`;
  // The account pages themselves are no place to come back to after signing in.
  if (/^\/(?:[a-z]{2}\/)?(?:sign-in|sign-up|sign-out)(?:[/?]|$)/.test(path)) return null;
  return path;
}
