import type { EnvReader } from './config-env.js';

/** The public website (src/site/, docs/site.md): the pages home-seekers and search engines see. */
export interface SiteConfig {
  /** SITE_ENABLED (default true): serve the website at `/`; off, the process is headless and `/` is an unknown route. */
  readonly enabled: boolean;
  /** SITE_SHARED_MAX_AGE (seconds, default 60): how long a shared cache (a CDN) may serve a public page unchecked. */
  readonly sharedMaxAgeSeconds: number;
  /** SITE_STALE_WHILE_REVALIDATE (seconds, default 600): how long it may serve a stale one while it revalidates. */
  readonly staleWhileRevalidateSeconds: number;
  /** SITE_PAGE_CACHE_MB (default 32, 0 turns it off): rendered public pages kept in memory while their data holds. */
  readonly pageCacheBytes: number;
  /** SITE_SITEMAP_CACHE_MB (default 32, 0 keeps none): gzipped sitemap shards kept in memory while their data holds. */
  readonly sitemapCacheBytes: number;
}

export function readSiteConfig(read: EnvReader): SiteConfig {
  return {
    enabled: read.boolean('SITE_ENABLED', true),
    sharedMaxAgeSeconds: read.integer('SITE_SHARED_MAX_AGE', 60, 0, 86_400),
    staleWhileRevalidateSeconds: read.integer('SITE_STALE_WHILE_REVALIDATE', 600, 0, 604_800),
    pageCacheBytes: read.integer('SITE_PAGE_CACHE_MB', 32, 0, 4096) * 1024 * 1024,
    sitemapCacheBytes: read.integer('SITE_SITEMAP_CACHE_MB', 32, 0, 4096) * 1024 * 1024,
  };
}
