/**
 * How an old address becomes the path a redirect is kept and looked up by: the same function for the address a feed
 * gives (`https://old.example/property/bright-villa/`) and for the path a request asks for (`/property/bright%2Dvilla`),
 * so that the two meet whatever spelling each uses.
 *
 * - scheme, host, query and fragment are dropped (a redirect is of this site's paths only; the query string of the
 *   request is handed on to the target);
 * - each segment is percent-decoded (`%C3%A1` and `á` are one path) and put in Unicode NFC;
 * - empty segments (`//`) and a trailing slash (WordPress's permalinks end in one) are dropped;
 * - `.` and `..` segments, control characters and a path longer than MAX_PATH_LENGTH make no path at all.
 */

/** The longest path kept; a longer one is not kept (permalinks are far shorter). */
const MAX_PATH_LENGTH = 500;

const SCHEME_AND_HOST = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#]*/i;
// eslint-disable-next-line no-control-regex -- control characters are what this pattern is for: no path holds one
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The normalized path of an address or request path; undefined when it makes none (see above). */
export function redirectPathOf(address: string): string | undefined {
  let rest = address.trim().replace(SCHEME_AND_HOST, '');
  rest = rest.split(/[?#]/, 1)[0]!;
  const segments: string[] = [];
  for (const raw of rest.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw).normalize('NFC');
    } catch {
      return undefined;
    }
    if (segment === '.' || segment === '..' || CONTROL.test(segment)) return undefined;
    segments.push(segment);
  }
  if (segments.length === 0) return undefined;
  const path = `/${segments.join('/')}`;
  return path.length > MAX_PATH_LENGTH ? undefined : path;
}

/**
 * Whether a normalized path lies under one of `reserved` (the API, the console, the documentation, uploads, health
 * checks): such a path is never kept as a redirect nor answered by one, so that no import can put a redirect in
 * front of a route of the application, even one that does not exist yet.
 */
export function isReservedPath(path: string, reserved: readonly string[]): boolean {
  const folded = path.toLowerCase();
  return reserved.some((prefix) => {
    const base = prefix.toLowerCase().replace(/\/+$/, '');
    return folded === base || folded.startsWith(`${base}/`);
  });
}

/** The application's own paths (see isReservedPath), under `apiPrefix` (API_PREFIX) for the API. */
export function reservedPaths(apiPrefix: string): string[] {
  return [
    `${apiPrefix}/realty-api`,
    '/console',
    '/docs',
    '/uploads',
    '/health',
    '/ready',
    '/metrics',
    '/site-assets',
    '/robots.txt',
    '/sitemap.xml',
    '/sitemaps',
  ];
}
