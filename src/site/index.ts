import formBody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tileSource } from '../config-console.js';
import type { Config } from '../config.js';
import { parseQueryString } from '../http/querystring.js';
import { authRateLimit, formsRateLimit } from '../http/rate-limit.js';
import { SiteAssets } from './assets.js';
import type { BrandSource } from './brand.js';
import { accountRoutes } from './pages/account/account.routes.js';
import { directoriesRoutes } from './pages/directory/directories.routes.js';
import { profileRoutes } from './pages/directory/profile.routes.js';
import { homeRoutes } from './pages/home/home.routes.js';
import { favoriteRoutes } from './pages/listing/favorite.routes.js';
import { listingRoutes } from './pages/listing/listing.routes.js';
import { compareRoutes } from './pages/compare/compare.routes.js';
import { robotsTxt } from './pages/seo/robots.js';
import { seoRoutes } from './pages/seo/seo.routes.js';
import { Sitemaps } from './pages/seo/sitemaps.js';
import { resultsRoutes } from './pages/results/results.routes.js';
import { languageOfPath, languagePrefix, SITE_LANGUAGES } from './paths.js';
import { SiteSessions } from './session.js';
import { Site, type StampReader } from './site.js';
import { PAGE_ROUTE, type SiteRoutes } from './site-routes.js';
import type { SiteServices } from './site-services.js';

export { DEFAULT_BRAND, HOME_SECTIONS } from './brand.js';

/** The page modules, each registered in every language. */
const PAGES: readonly SiteRoutes[] = [
  homeRoutes,
  listingRoutes,
  favoriteRoutes,
  compareRoutes,
  accountRoutes,
  profileRoutes,
  directoriesRoutes,
  resultsRoutes,
];

/** Video and tour players a listing page may embed; any other tour is a link. */
const EMBEDDED_PLAYERS = ['https://www.youtube-nocookie.com', 'https://player.vimeo.com', 'https://my.matterport.com'] as const;

export interface SiteDependencies {
  readonly config: Config;
  readonly services: SiteServices;
  readonly stamps: StampReader;
  readonly brands: BrandSource;
  /** Signs the signed-in forms' CSRF tokens. */
  readonly secret: string;
}

/**
 * The public website (docs/site.md): server-rendered pages in four languages at `/` and `/{lang}/`, with their
 * static assets, served by the same process as the API. Returns what renders the site's 404 page, for the
 * application's not-found handler.
 */
export async function registerSite(app: FastifyInstance, { config, services, stamps, brands, secret }: SiteDependencies) {
  const mediaOrigin = new URL(config.s3 ? config.s3.publicUrl : config.publicUrl).origin;
  const assets = new SiteAssets();
  const sessions = new SiteSessions(services.auth, secret, new URL(config.publicUrl).protocol === 'https:');
  const site = new Site(services, sessions, assets, brands, stamps, {
    publicUrl: config.publicUrl,
    sharedMaxAgeSeconds: config.site.sharedMaxAgeSeconds,
    staleWhileRevalidateSeconds: config.site.staleWhileRevalidateSeconds,
    pageCacheBytes: config.site.pageCacheBytes,
    tiles: { url: config.console.tileUrl, attribution: config.console.tileAttribution },
    consoleUrl: config.console.enabled ? '/console/' : null,
    apiBase: `${config.apiPrefix}/realty-api/v1`,
    csp: siteCsp(config.console.tileUrl, mediaOrigin),
    rateLimits: { auth: authRateLimit(config), forms: formsRateLimit(config) },
    registrationOpen: config.registrationEnabled,
  });

  assets.register(app);
  app.get('/site-assets/brand.css', PAGE_ROUTE, async (_request, reply) => {
    const { brand } = await brands.current();
    reply.header('cache-control', 'public, max-age=31536000, immutable').type('text/css; charset=utf-8');
    return `:root{--brand:${brand.primaryColor};--accent:${brand.accentColor}}\n`;
  });
  seoRoutes(app, {
    sitemaps: new Sitemaps(services, stamps, {
      publicUrl: config.publicUrl,
      listingUrlTemplate: config.listings.urlTemplate,
      cacheBytes: config.site.sitemapCacheBytes,
    }),
    robots: robotsTxt(config.publicUrl, config.apiPrefix),
    caching: config.site,
  });
  for (const lang of SITE_LANGUAGES) {
    await app.register(
      async (scope) => {
        // Forms post as application/x-www-form-urlencoded, read with the same parser as query strings.
        await scope.register(formBody, { parser: (body) => parseQueryString(body) });
        scope.setErrorHandler((error: FastifyError, request, reply) => site.errorPage(error, request, reply, lang));
        for (const routes of PAGES) routes(scope, site, lang);
      },
      { prefix: languagePrefix(lang) },
    );
  }
  const notPages = [`${config.apiPrefix}/realty-api/`, '/docs', '/console', '/uploads/', '/health', '/ready', '/metrics'];
  return {
    /** Whether an unknown path is the site's to answer (with its 404 page) rather than the API's. */
    isPage: (path: string) => !notPages.some((prefix) => path.startsWith(prefix)),
    /** The 404 page of an unknown path, in the language its prefix names. */
    pageNotFound: (request: FastifyRequest, reply: FastifyReply) => site.notFoundPage(request, reply, languageOfPath(request.url)),
  };
}

/**
 * The Content-Security-Policy of every page: scripts and styles only from this origin (the islands are files,
 * never inline; JSON-LD is data, which CSP does not govern), images also from the media and tile servers, frames
 * only from the known video and tour players, forms only to this origin.
 */
function siteCsp(tileUrl: string, mediaOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: ${tileSource(tileUrl)} ${mediaOrigin}`,
    "connect-src 'self'",
    "font-src 'self'",
    `frame-src ${EMBEDDED_PLAYERS.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
