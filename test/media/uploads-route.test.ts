import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MediaRecord } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newUser, tokenFor } from '../helpers/factories.js';
import { API, image, keyOf, multipart, PDF, tempUploadDir } from './media-fixtures.js';

describeEachDialect('GET /uploads/* (%s)', (dialect) => {
  // The upload directory sits inside this parent; a file beside it must never be reachable.
  const root = tempUploadDir();
  const uploadDir = path.join(root.dir, 'uploads');
  let t: TestApp;
  let photo: MediaRecord;
  let document: MediaRecord;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploadDir });
    writeFileSync(path.join(root.dir, 'secret.txt'), 'outside the upload directory');
    const headers = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'agent' })));
    const upload = async (data: Buffer) => {
      const body = await multipart([['file', { data }]]);
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/media/upload`,
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
      return res.json().data as MediaRecord;
    };
    photo = await upload(await image('jpeg', 700, 700));
    document = await upload(PDF);
    mkdirSync(path.join(uploadDir, 'nested'), { recursive: true });
    writeFileSync(path.join(uploadDir, '.hidden.txt'), 'dot-file');
    writeFileSync(path.join(uploadDir, 'nested', 'Upper.TXT'), 'not a generated name');
  });
  afterAll(async () => {
    await t.close();
    root.remove();
  });

  const fetch = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url });
  const pathOf = (url: string) => `/uploads/${keyOf(url, '/uploads/')}`;

  it('serves stored files with immutable caching, nosniff and a sandboxing CSP', async () => {
    for (const url of [photo.url, ...Object.values(photo.sizes).map((s) => s.url)]) {
      const res = await fetch(pathOf(url));
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(res.rawPayload.equals(readFileSync(path.join(uploadDir, keyOf(url, '/uploads/'))))).toBe(true);
    }
    const pdf = await fetch(pathOf(document.url));
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.equals(PDF)).toBe(true);
    const head = await fetch(pathOf(photo.url), 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers an unknown file with 404 in the contract’s body', async () => {
    const res = await fetch('/uploads/2026/01/00000000000000000000000000000000.jpg');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 'route_not_found' });
    expect(res.json().request_id).toBe(res.headers['x-request-id']);
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it.each([
    '/uploads/../secret.txt',
    '/uploads/%2e%2e/secret.txt',
    '/uploads/%2E%2E%2Fsecret.txt',
    '/uploads/..%2fsecret.txt',
    '/uploads/2026/../../secret.txt',
    '/uploads/nested/..%5c..%5csecret.txt',
    '/uploads//secret.txt',
    '/uploads/./secret.txt',
    '/uploads/.hidden.txt',
    '/uploads/%2ehidden.txt',
    '/uploads/nested/Upper.TXT',
    '/uploads/',
    '/uploads/nested',
    '/uploads/nested/',
    '/uploads/%00.jpg',
  ])('refuses %s with 404', async (url) => {
    const res = await fetch(url);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.body).not.toContain('outside the upload directory');
    expect(res.body).not.toContain('dot-file');
    // A path whose dot segments the router resolves out of /uploads is a page of the website: its 404 page.
    const resolved = new URL(url, 'http://x').pathname;
    if (resolved.startsWith('/uploads/')) expect(res.json().code).toBe('route_not_found');
    else expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});
