/** What a browser would do with an answer's Set-Cookie headers, as much as the tests of cookie mode need. */

interface WithHeaders {
  headers: Record<string, string | string[] | number | undefined>;
}

/** Every Set-Cookie header of an answer, as sent. */
export function setCookieHeaders(res: WithHeaders): string[] {
  const header = res.headers['set-cookie'];
  if (header === undefined) return [];
  return Array.isArray(header) ? header : [String(header)];
}

/** The one Set-Cookie header of an answer for cookie `name` (fails the test when there are several). */
export function setCookieFor(res: WithHeaders, name: string): string | undefined {
  const matching = setCookieHeaders(res).filter((header) => header.startsWith(`${name}=`));
  if (matching.length > 1) throw new Error(`${matching.length} Set-Cookie headers for ${name}`);
  return matching[0];
}

/** The value a Set-Cookie header gives its cookie. */
export function cookieValueOf(setCookie: string): string {
  const pair = setCookie.split(';')[0]!;
  return pair.slice(pair.indexOf('=') + 1);
}

/** The Cookie request header a browser would send with one cookie. */
export function cookieHeader(name: string, value: string): { cookie: string } {
  return { cookie: `${name}=${value}` };
}
