import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EnvReader } from './config-env.js';

/** The web console (console/, docs/console.md): a single-page application this process serves at /console. */
export interface ConsoleConfig {
  /** CONSOLE_ENABLED (default true): serve the console; off, /console is an unknown route. */
  readonly enabled: boolean;
  /** CONSOLE_DIR: the console's build (`npm run build:console` writes console/dist). */
  readonly dir: string;
  /** CONSOLE_TILE_URL: the map tiles, `{z}`, `{x}`, `{y}` (and optionally `{s}`) placeholders; its origin joins the pages' CSP. */
  readonly tileUrl: string;
  /** CONSOLE_TILE_ATTRIBUTION: the credit line the tile provider asks for, shown on every map. */
  readonly tileAttribution: string;
}

/** console/dist of this checkout: two levels up from src/ (tsx) and from dist/ (compiled) alike. */
const BUILT_CONSOLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'console', 'dist');

const OPENSTREETMAP_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const OPENSTREETMAP_CREDIT = '© OpenStreetMap contributors';

export function readConsoleConfig(read: EnvReader, problems: string[]): ConsoleConfig {
  const tileUrl = read.string('CONSOLE_TILE_URL', OPENSTREETMAP_TILES);
  if (!isTileTemplate(tileUrl)) {
    problems.push(`CONSOLE_TILE_URL must be an http(s) URL with {z}, {x} and {y} placeholders (got "${tileUrl}")`);
  }
  return {
    enabled: read.boolean('CONSOLE_ENABLED', true),
    dir: path.resolve(read.string('CONSOLE_DIR', BUILT_CONSOLE)),
    tileUrl,
    tileAttribution: read.string('CONSOLE_TILE_ATTRIBUTION', OPENSTREETMAP_CREDIT),
  };
}

/** The tile server's origin as a CSP source: `https://{s}.tile.example.org` becomes `https://*.tile.example.org`. */
export function tileSource(tileUrl: string): string {
  const url = new URL(tileUrl.replaceAll('{s}', 'subdomain'));
  const host = tileUrl.includes('{s}.') ? url.host.replace(/^subdomain\./, '*.') : url.host;
  return `${url.protocol}//${host}`;
}

function isTileTemplate(value: string): boolean {
  if (!['{z}', '{x}', '{y}'].every((placeholder) => value.includes(placeholder))) return false;
  try {
    const url = new URL(value.replaceAll('{s}', 'subdomain'));
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
