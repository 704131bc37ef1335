/**
 * The response headers OWASP's REST Security Cheat Sheet recommends for an API, as one constant set
 * (written by http/request-basics.ts). Helmet's browser-page extras (COOP, Origin-Agent-Cluster,
 * X-DNS-Prefetch-Control, X-Download-Options, X-Permitted-Cross-Domain-Policies, X-XSS-Protection) are
 * left out: nothing here is a page. @fastify/helmet rebuilt its headers through a middleware chain on
 * every request, which measured at 60 % of a bare route's throughput here; these never vary.
 * JSON answers get a CSP that allows nothing; the docs page (which runs scripts) keeps the CSP that
 * @fastify/swagger-ui sets for its own files, and the console's pages get theirs from http/console.ts.
 */
const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** The constant headers of every answer: API_HEADERS (pages without the CSP), plus `extra`. */
export function constantHeaders(extra: Record<string, string>): (url: string) => Readonly<Record<string, string>> {
  const { 'content-security-policy': _ownCsp, ...docs } = API_HEADERS;
  const api = Object.freeze({ ...API_HEADERS, ...extra });
  const docsPage = Object.freeze({ ...docs, ...extra });
  return (url) => (url.startsWith('/docs') || url.startsWith('/console') ? docsPage : api);
}
