import type { FastifyInstance } from 'fastify';
import { SITE_SESSION_COOKIE } from '../../src/site/session.js';
import { cookieHeader, cookieValueOf, setCookieFor } from '../helpers/cookies.js';
import { DEFAULT_PASSWORD } from '../helpers/factories.js';
import { parsePage } from '../helpers/html.js';

export const PUBLIC_URL = 'https://realty.example';
const SAME_ORIGIN = { origin: PUBLIC_URL };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A form post as a browser sends it from a page of the site (with the session cookie, when given). */
export function postForm(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  { cookie, headers = SAME_ORIGIN }: { cookie?: string | undefined; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...FORM, ...headers, ...(cookie ? cookieHeader(SITE_SESSION_COOKIE, cookie) : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
}

export function getPage(app: FastifyInstance, url: string, cookie?: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers: { ...headers, ...(cookie ? cookieHeader(SITE_SESSION_COOKIE, cookie) : {}) } });
}

/** Signs in through the sign-in form; the session cookie's value. */
export async function signInOnSite(app: FastifyInstance, login: string, password = DEFAULT_PASSWORD): Promise<string> {
  const res = await postForm(app, '/sign-in', { login, password });
  if (res.statusCode !== 303) throw new Error(`sign-in failed: ${res.statusCode} ${res.body.slice(0, 500)}`);
  return cookieValueOf(setCookieFor(res, SITE_SESSION_COOKIE)!);
}

/** The CSRF token a signed-in page carries in its forms. */
export async function csrfOf(app: FastifyInstance, cookie: string, url = '/account/favorites'): Promise<string> {
  const page = parsePage((await getPage(app, url, cookie)).body);
  const token = page.root.querySelector('input[name="csrf"]')?.getAttribute('value');
  if (!token) throw new Error(`no CSRF token on ${url}`);
  return token;
}

/** The text of a page's notices (status and alert messages above its forms). */
export function noticesOf(html: string): string[] {
  return parsePage(html)
    .root.querySelectorAll('.form-notice')
    .map((notice) => notice.text.trim());
}

/** A field's error message beside it. */
export function fieldErrorOf(html: string, id: string): string | undefined {
  return parsePage(html).root.querySelector(`#${id}-error`)?.text.trim();
}
