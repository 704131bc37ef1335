import { hash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type CompressedBody, compressBody, sendCompressed } from '../http/compressed-body.js';
import { PAGE_ROUTE } from './site-routes.js';

/**
 * The website's static files: its one stylesheet and the small scripts ("islands") that enhance pages which
 * work without them (src/site/browser/), and Leaflet for the map. Each is served at a name holding its
 * content's hash, so it can be cached for a year and a changed file is a new URL. They are read and compressed
 * once, at start: there is no build step, and the files are plain CSS and JavaScript modules.
 */

/** src/site/browser of this checkout: two levels up from src/site (tsx) and from dist/site (compiled) alike. */
const BROWSER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'site', 'browser');
const LEAFLET_DIR = path.dirname(createRequire(import.meta.url).resolve('leaflet/dist/leaflet.js'));

const SOURCES = {
  'site.css': path.join(BROWSER_DIR, 'styles'),
  'print.css': path.join(BROWSER_DIR, 'print.css'),
  'icon.svg': path.join(BROWSER_DIR, 'icon.svg'),
  'when-visible.js': path.join(BROWSER_DIR, 'when-visible.js'),
  'gallery.js': path.join(BROWSER_DIR, 'gallery.js'),
  'calculator.js': path.join(BROWSER_DIR, 'calculator.js'),
  'listing-map.js': path.join(BROWSER_DIR, 'listing-map.js'),
  'favorite.js': path.join(BROWSER_DIR, 'favorite.js'),
  'results-map.js': path.join(BROWSER_DIR, 'results-map.js'),
  'leaflet.js': path.join(LEAFLET_DIR, 'leaflet.js'),
  'leaflet.css': path.join(LEAFLET_DIR, 'leaflet.css'),
} as const;

export type AssetName = keyof typeof SOURCES;

const TYPES: Readonly<Record<string, string>> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Asset {
  readonly url: string;
  readonly type: string;
  readonly body: CompressedBody;
}

/** A file's bytes; a folder's CSS files joined in name order (the stylesheet is written in one file per concern). */
function contentOf(file: string): Buffer {
  if (!statSync(file).isDirectory()) return readFileSync(file);
  const parts = readdirSync(file)
    .filter((name) => name.endsWith('.css'))
    .sort()
    .map((name) => readFileSync(path.join(file, name)));
  return Buffer.concat(parts.flatMap((part) => [part, Buffer.from('\n')]));
}

const ASSET_PREFIX = '/site-assets/';

export class SiteAssets {
  private readonly byName: ReadonlyMap<AssetName, Asset>;
  private readonly byUrl: ReadonlyMap<string, Asset>;

  constructor() {
    const contents = (Object.entries(SOURCES) as [AssetName, string][]).map(([name, file]) => [name, contentOf(file)] as const);
    // One version for the whole set, so that islands import each other by relative URL (`./<name>.js`).
    const digest = hash('sha256', Buffer.concat(contents.flatMap(([name, content]) => [Buffer.from(name), content])), 'base64url');
    const assets = new Map<AssetName, Asset>();
    for (const [name, content] of contents) {
      assets.set(name, {
        url: `${ASSET_PREFIX}${digest.slice(0, 12)}/${name}`,
        type: TYPES[path.extname(name)]!,
        body: compressBody(content),
      });
    }
    this.byName = assets;
    this.byUrl = new Map([...assets.values()].map((asset) => [asset.url, asset]));
  }

  /** The URL a page links the asset at. */
  url(name: AssetName): string {
    return this.byName.get(name)!.url;
  }

  /** Serves every asset at its hashed URL, cached for a year; any other name under the prefix is a 404. */
  register(app: FastifyInstance): void {
    app.get(`${ASSET_PREFIX}:version/:file`, PAGE_ROUTE, (request, reply) => {
      const asset = this.byUrl.get(request.url.split('?')[0]!);
      if (!asset) return reply.callNotFound();
      reply.header('cache-control', 'public, max-age=31536000, immutable').type(asset.type);
      return sendCompressed(request, reply, asset.body);
    });
  }
}
