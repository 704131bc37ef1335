import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleCsp } from '../../src/http/console.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// The console's pages and files come from a directory, not the database: SQLite alone covers them.
describe('the console at /console', () => {
  let built: string;
  let t: TestApp;
  let unbuilt: TestApp;
  let off: TestApp;

  beforeAll(async () => {
    built = mkdtempSync(path.join(tmpdir(), 'console-'));
    mkdirSync(path.join(built, 'assets'));
    writeFileSync(
      path.join(built, 'index.html'),
      '<!doctype html><div id="root"></div><script type="module" src="/console/assets/index-abc123.js"></script>',
    );
    writeFileSync(path.join(built, 'assets', 'index-abc123.js'), 'console.log("console");');
    writeFileSync(path.join(built, '.sources-hash'), 'secret-ish');
    writeFileSync(path.join(built, '..', `${path.basename(built)}-outside.txt`), 'FILE-OUTSIDE-THE-BUILD');
    t = await buildTestApp('sqlite', {
      CONSOLE_DIR: built,
      CONSOLE_TILE_URL: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
      API_PREFIX: '/wp-json',
    });
    unbuilt = await buildTestApp('sqlite', { CONSOLE_DIR: path.join(built, 'missing') });
    off = await buildTestApp('sqlite', { CONSOLE_DIR: built, CONSOLE_ENABLED: 'false' });
  });
  afterAll(async () => {
    await Promise.all([t.close(), unbuilt.close(), off.close()]);
    rmSync(built, { recursive: true, force: true });
    rmSync(`${built}-outside.txt`, { force: true });
  });

  it('serves index.html for every client-side route, revalidated on each load, under the strict CSP', async () => {
    for (const url of ['/console/', '/console/login', '/console/listings/12/edit', '/console/reset-password?token=abc&lang=ar']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("img-src 'self' data: blob: https://*.tiles.example.org http://127.0.0.1:3000;");
      expect(csp).toContain('worker-src blob:');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    expect((await t.app.inject({ url: '/console' })).headers.location).toBe('/console/');
  });

  it('serves hashed assets for a year, and nothing outside the build or beside it', async () => {
    const asset = await t.app.inject({ url: '/console/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    for (const url of [
      '/console/assets/missing.js',
      '/console/assets/../index.html',
      `/console/assets/%2e%2e/%2e%2e/${path.basename(built)}-outside.txt`,
      `/console/..%2f..%2f${path.basename(built)}-outside.txt`,
      '/console/.sources-hash',
      '/console/index.html',
      '/console/assets/',
    ]) {
      const res = await t.app.inject({ url });
      expect([404], url).toContain(res.statusCode);
      expect(res.body, url).not.toContain('FILE-OUTSIDE-THE-BUILD');
      expect(res.body, url).not.toContain('secret-ish');
    }
  });

  it('tells the page where the API and the map tiles are', async () => {
    const res = await t.app.inject({ url: '/console/config.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      api_base: '/wp-json/realty-api/v1',
      tile_url: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
      tile_attribution: '© OpenStreetMap contributors',
    });
  });

  it('says plainly when the console is not built, and is absent when turned off', async () => {
    const res = await unbuilt.app.inject({ url: '/console/', headers: { 'accept-language': 'fr' } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, code: 'service_unavailable' });
    expect(res.json().message).toContain('npm run build:console');
    expect((await off.app.inject({ url: '/console/' })).statusCode).toBe(404);
    expect((await off.app.inject({ url: '/console/config.json' })).statusCode).toBe(404);
  });

  it('keeps the API’s own headers on API answers', async () => {
    const res = await t.app.inject({ url: '/health' });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('adds the media origin to the images the pages may show', () => {
    expect(consoleCsp('https://tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://bucket.s3.example.com')).toContain(
      "img-src 'self' data: blob: https://tile.openstreetmap.org https://bucket.s3.example.com;",
    );
  });
});
