/** The sitemaps.org 0.9 documents (https://www.sitemaps.org/protocol.html), written as text pieces. */

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** At most this many `<url>`s in one shard, and this many bytes (the protocol's limits). */
export const MAX_SHARD_URLS = 50_000;
export const MAX_SHARD_BYTES = 50 * 1024 * 1024;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export const URLSET_OPEN = `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NAMESPACE}">\n`;
export const URLSET_CLOSE = '</urlset>\n';
export const INDEX_OPEN = `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n`;
export const INDEX_CLOSE = '</sitemapindex>\n';

const SPECIAL = /[&<>"']/;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for an XML element: the five characters the protocol requires as entities. */
function escapeXml(text: string): string {
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (char) => ENTITIES[char]!) : text;
}

/** One `<url>` of a urlset; `lastmod` a W3C datetime, left out when the page has no one record behind it. */
export function urlEntry(loc: string, lastmod: string | null): string {
  return `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}</url>\n`;
}

/** One `<sitemap>` of an index. */
export function indexEntry(loc: string, lastmod: string | null): string {
  return `<sitemap><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}</sitemap>\n`;
}
