import { SITE_LANGUAGES, localPath } from '../../paths.js';

/** Pages no search engine should crawl: the visitor's own pages, the forms to sign in, the comparison of a visitor's picks. */
const PRIVATE_PAGES = ['/account/', '/sign-in', '/sign-up', '/reset-password', '/compare'] as const;

/**
 * `/robots.txt` (docs/site.md, "Search engines"): every public page may be crawled; the private pages of every
 * language, the API (plain and language-prefixed) and the console may not; the sitemap index is named. Rules are
 * path prefixes (RFC 9309), so each language's prefix is written out rather than matched with a wildcard that
 * would catch listing slugs too.
 */
export function robotsTxt(publicUrl: string, apiPrefix: string): string {
  const disallowed = [
    ...SITE_LANGUAGES.flatMap((lang) => PRIVATE_PAGES.map((page) => localPath(lang, page))),
    `${apiPrefix}/realty-api/`,
    ...SITE_LANGUAGES.filter((lang) => localPath(lang, '/') !== '/').map((lang) => `/${lang}${apiPrefix}/realty-api/`),
    '/console/',
  ];
  return ['User-agent: *', 'Allow: /', ...disallowed.map((path) => `Disallow: ${path}`), '', `Sitemap: ${publicUrl}/sitemap.xml`, ''].join(
    '\n',
  );
}
