import { LANGUAGES, type Language } from '../i18n/index.js';

/**
 * Every page exists in each language: English at its plain path, the others under a prefix (`/es/property/x`).
 * Paths here are the plain ones; `localPath` adds the prefix. The home page of a prefixed language is `/es/`.
 */
export const SITE_LANGUAGES = LANGUAGES;
const DEFAULT_LANGUAGE: Language = 'en';

export function localPath(lang: Language, path: string): string {
  return lang === DEFAULT_LANGUAGE ? path : `/${lang}${path}`;
}

/** The URL prefix of a language's pages: '' for English, `/es` for Spanish. */
export function languagePrefix(lang: Language): string {
  return lang === DEFAULT_LANGUAGE ? '' : `/${lang}`;
}

/** The language a URL's prefix names (`/es/…`), else the default. */
export function languageOfPath(url: string): Language {
  const prefix = /^\/([a-z]{2})(?:[/?]|$)/.exec(url)?.[1];
  return SITE_LANGUAGES.find((lang) => lang === prefix && lang !== DEFAULT_LANGUAGE) ?? DEFAULT_LANGUAGE;
}

/** The plain path (and query) of a request's URL, without its language prefix. */
export function plainPathOf(url: string, lang: Language): string {
  const prefix = languagePrefix(lang);
  const rest = prefix && url.startsWith(prefix) ? url.slice(prefix.length) : url;
  return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
}

/**
 * Query parameters that links carry for analytics (campaign tags, ad click ids) and that no page reads: a page
 * is the same page with or without them, so they are left out of its cache key and of the links it renders (the
 * language switch does not hand a campaign tag on).
 */
const TRACKING_PARAMS =
  /^(utm_[a-z_]+|gclid|gbraid|wbraid|dclid|fbclid|msclkid|twclid|ttclid|yclid|igshid|li_fat_id|mc_cid|mc_eid|_ga|_gl)$/i;

/** `url` (path and query) without its tracking parameters; the others keep their order and spelling. */
export function withoutTrackingParams(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const kept = url
    .slice(mark + 1)
    .split('&')
    .filter((pair) => pair !== '' && !TRACKING_PARAMS.test(decodeName(pair.split('=', 1)[0]!)));
  return kept.length > 0 ? `${url.slice(0, mark)}?${kept.join('&')}` : url.slice(0, mark);
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Paths of the record pages (the records' `url`s, docs/api.md 4.1 and 5.1). */
export const listingPath = (slug: string) => `/property/${encodeURIComponent(slug)}`;
export const agentPath = (slug: string) => `/agent/${encodeURIComponent(slug)}`;
export const agencyPath = (slug: string) => `/agency/${encodeURIComponent(slug)}`;

/** `path` with the query parameters of `params` (empty and undefined ones left out), in the order given. */
export function withQuery(path: string, params: Readonly<Record<string, string | number | undefined | null>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.append(name, String(value));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}
