import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { tileSource, type ConsoleConfig } from '../config-console.js';
import { AppError } from '../lib/errors.js';

/** Vite names every built file under assets/ by its content's hash: a changed file is a new name. No dot-names. */
const HASHED_ASSET = /^\/console\/assets\/[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
/** Client-side routes of the single-page application: letters, digits and `/ - _` only, no dots (no files). */
const APP_ROUTE = /^\/console(\/[A-Za-z0-9_/-]*)?$/;

export interface ConsoleSettings {
  readonly console: ConsoleConfig;
  /** Where the API lives, for the page's requests (`API_PREFIX` + /realty-api/v1). */
  readonly apiBase: string;
  /**
   * Where uploaded images come from: PUBLIC_URL's origin (the media URLs in records are absolute, and the
   * console may be opened under another name for the same server), or S3's public URL.
   */
  readonly mediaOrigin: string;
}

/**
 * The Content-Security-Policy of every console answer. Scripts and styles come only from this origin: the
 * build has no inline script, React and Leaflet set styles through the CSSOM (which style-src does not
 * govern), and Vite loads lazy chunks' CSS as <link> files. Images also from the tile server and the media
 * origin; the map's workers from blob: URLs; requests only to this origin (the API).
 */
export function consoleCsp(tileUrl: string, mediaOrigin: string): string {
  const images = ["'self'", 'data:', 'blob:', tileSource(tileUrl), mediaOrigin];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${images.join(' ')}`,
    "connect-src 'self'",
    "font-src 'self'",
    'worker-src blob:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Serves the console's build (docs/console.md) at /console: its hashed assets with year-long caching, its
 * settings at /console/config.json, and index.html for every client-side route, revalidated on each load.
 * Every answer carries the console's CSP. Without a build (a checkout where `npm run build:console` has not
 * run) the pages answer 503 and say so.
 */
export async function registerConsole(app: FastifyInstance, settings: ConsoleSettings): Promise<void> {
  const { console: config } = settings;
  const csp = consoleCsp(config.tileUrl, settings.mediaOrigin);
  const pageSettings = {
    api_base: settings.apiBase,
    tile_url: config.tileUrl,
    tile_attribution: config.tileAttribution,
  };

  await app.register(async (scope) => {
    scope.addHook('onRequest', (_request, reply, done) => {
      reply.header('content-security-policy', csp);
      done();
    });
    await scope.register(fastifyStatic, {
      root: config.dir,
      serve: false,
      decorateReply: true,
      dotfiles: 'deny',
      suppressWarning: true,
    });
    const built = () => existsSync(`${config.dir}/index.html`);

    scope.get('/console/config.json', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return pageSettings;
    });
    scope.get('/console/assets/*', { schema: { hide: true } }, async (request, reply) => {
      const path = request.url.split('?')[0]!;
      if (!HASHED_ASSET.test(path) || !existsSync(`${config.dir}${path.slice('/console'.length)}`)) throw new AppError('not_found');
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      return reply.sendFile(path.slice('/console/'.length), { cacheControl: false });
    });
    scope.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 302));
    scope.get('/console/*', { schema: { hide: true } }, async (request, reply) => {
      const path = request.url.split('?')[0]!;
      if (!APP_ROUTE.test(path)) throw new AppError('not_found');
      if (!built()) throw new AppError('service_unavailable', 'console_not_built');
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html', { cacheControl: false });
    });
  });
}
