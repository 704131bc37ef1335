import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { PORTAL_STATES } from '../../src/modules/exchange/export/feed-downloads.service.js';
import { PortalFeeds } from '../../src/modules/exchange/export/portal-feeds.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newListing, newSignedInUser } from '../helpers/factories.js';

/**
 * Portal feeds kept built while their data holds (docs/data-exchange.md, "Portal feed tokens"): ETags and 304s, the
 * kept bytes, one build for pulls that arrive together, the per-token rate limit, and malformed tokens as unknown.
 */
const API = '/realty-api/v1';
const ORIGIN = 'https://realty.example';

describeEachDialect('portal feeds (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  let listing: number;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL: ORIGIN });
    db = t.database.db;
    admin = (await newSignedInUser(t, { role: 'administrator' })).auth;
    listing = await newListing(db, { title: 'First on the market' });
    await newListing(db, { title: 'Second on the market', description: 'Words enough to be worth compressing. '.repeat(60) });
  });
  afterAll(() => t.close());

  const newFeedPath = async (format: 'csv' | 'reso' | 'kyero') => {
    const res = await t.app.inject({ method: 'POST', url: `${API}/exports/tokens`, headers: admin, payload: { name: 'Portal', format } });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json().data.url as string).slice(ORIGIN.length);
  };
  const pull = (path: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: path, headers });

  /** The feed as GET /exports streams it, written afresh. */
  async function freshFeed(format: 'csv' | 'reso' | 'kyero'): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of t.services.feedDownloads.file(format, { states: PORTAL_STATES, publicOnly: true }).body) {
      chunks.push(Buffer.from(chunk as Buffer | string));
    }
    return Buffer.concat(chunks);
  }

  it('answers a second pull with nothing changed 304, without a body', async () => {
    const path = await newFeedPath('kyero');
    const first = await pull(path);
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const second = await pull(path, { 'if-none-match': String(first.headers.etag) });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['cache-control']).toBe('private, no-cache');
    // Without the validator the same bytes come again.
    const third = await pull(path);
    expect(third.statusCode).toBe(200);
    expect(third.body).toBe(first.body);
  });

  it('answers 200 with a new ETag and the change once a listing changes', async () => {
    const path = await newFeedPath('csv');
    const before = await pull(path);
    expect(before.body).not.toContain('Renamed for the portal');
    await db.updateTable('listings').set({ title: 'Renamed for the portal' }).where('id', '=', listing).execute();
    const after = await pull(path, { 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toContain('Renamed for the portal');
    // The changed feed is kept in its turn.
    expect((await pull(path, { 'if-none-match': String(after.headers.etag) })).statusCode).toBe(304);
  });

  it('keeps the ETag when the data moved but the feed did not (a view counted): 304 still', async () => {
    const path = await newFeedPath('reso');
    const first = await pull(path);
    await db.updateTable('listings').set({ views: 41 }).where('id', '=', listing).execute();
    const second = await pull(path, { 'if-none-match': String(first.headers.etag) });
    expect(second.statusCode).toBe(304);
  });

  it('sends kept bytes equal to a feed written afresh, as they are, gzipped or in brotli', async () => {
    for (const format of ['csv', 'reso', 'kyero'] as const) {
      const path = await newFeedPath(format);
      await pull(path);
      const kept = await pull(path);
      const fresh = await freshFeed(format);
      expect(kept.rawPayload.equals(fresh), format).toBe(true);
      expect(kept.headers['content-length']).toBe(String(fresh.length));
      const gzipped = await pull(path, { 'accept-encoding': 'gzip' });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gzipped.headers.vary).toContain('Accept-Encoding');
      expect(gunzipSync(gzipped.rawPayload).equals(fresh), format).toBe(true);
      const br = await pull(path, { 'accept-encoding': 'br, gzip' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).equals(fresh), format).toBe(true);
      expect(new Set([kept.headers.etag, gzipped.headers.etag, br.headers.etag]).size).toBe(1);
    }
  });

  it('builds a feed once for pulls that arrive together, and serves every token of a format from it', async () => {
    const paths = [await newFeedPath('kyero'), await newFeedPath('kyero')];
    await db.updateTable('listings').set({ price: 987_654 }).where('id', '=', listing).execute();
    const builds = vi.spyOn(t.services.feedDownloads, 'file');
    try {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, k) => pull(paths[k % 2]!)));
      expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
      expect(new Set(answers.map((answer) => answer.headers.etag)).size).toBe(1);
      expect(answers[0]!.body).toContain('<price>987654</price>');
      expect(builds).toHaveBeenCalledTimes(1);
    } finally {
      builds.mockRestore();
    }
  });

  it('answers a malformed token of any length or characters 404, exactly as an unknown one', async () => {
    const unknown = await pull(`${API}/feeds/${randomBytes(32).toString('base64url')}`);
    expect(unknown.statusCode).toBe(404);
    const { request_id: _id, ...expected } = unknown.json();
    for (const token of ['a'.repeat(500), 'a'.repeat(101), 'b'.repeat(5000), 'with/slash', 'sp%20ace', '%C3%A9t%C3%A9', '!*()']) {
      const res = await pull(`${API}/feeds/${token}`);
      expect(res.statusCode, token).toBe(404);
      const { request_id: id, ...body } = res.json();
      expect(body, token).toEqual(expected);
      expect(id).toBe(res.headers['x-request-id']);
      expect(res.headers['content-type']).toBe(unknown.headers['content-type']);
    }
  });

  it('streams a feed larger than its budget, without an ETag, and every pull of it again', async () => {
    const tiny = new PortalFeeds(t.services.feedDownloads, t.services.stamps, 100);
    const answer = await tiny.answer('csv');
    expect('streamed' in answer).toBe(true);
    const builds = vi.spyOn(t.services.feedDownloads, 'file');
    try {
      expect('streamed' in (await tiny.answer('csv'))).toBe(true);
      expect(builds).toHaveBeenCalledTimes(1); // streamed without a second attempt at keeping it
    } finally {
      builds.mockRestore();
    }
  });

  it('documents the ETag, the 304 and the per-token 429 in OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    const feed = doc.paths[`${API}/feeds/{token}`].get;
    expect(Object.keys(feed.responses).sort()).toEqual(['200', '304', '400', '401', '404', '429']);
    expect(feed.responses['200'].headers).toHaveProperty('etag');
    expect(Object.keys(doc.paths).filter((path) => path.startsWith(`${API}/feeds/`))).toEqual([`${API}/feeds/{token}`]);
  });
});

describeEachDialect('portal feed rate limit (%s)', (dialect) => {
  let t: TestApp;
  let admin: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL: ORIGIN, RATE_LIMIT_ENABLED: 'true', FEED_RATE_LIMIT_PER_MINUTE: '2' });
    admin = (await newSignedInUser(t, { role: 'administrator' })).auth;
    await newListing(t.database.db, { title: 'On the market' });
  });
  afterAll(() => t.close());

  const newFeedPath = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/exports/tokens`,
      headers: admin,
      payload: { name: 'Portal', format: 'csv' },
    });
    return (res.json().data.url as string).slice(ORIGIN.length);
  };

  it('limits each token to FEED_RATE_LIMIT_PER_MINUTE pulls a minute (429, Retry-After) while another token still pulls', async () => {
    const [busy, other] = [await newFeedPath(), await newFeedPath()];
    const first = await t.app.inject({ method: 'GET', url: busy });
    expect(first.statusCode).toBe(200);
    // A revalidation counts as a pull.
    expect((await t.app.inject({ method: 'GET', url: busy, headers: { 'if-none-match': String(first.headers.etag) } })).statusCode).toBe(
      304,
    );
    const limited = await t.app.inject({ method: 'GET', url: busy });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.json()).toEqual({
      success: false,
      code: 'rate_limited',
      message: expect.any(String),
      request_id: limited.headers['x-request-id'],
    });
    // From another address too: the budget is the token's.
    expect((await t.app.inject({ method: 'GET', url: busy, remoteAddress: '203.0.113.9' })).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url: other })).statusCode).toBe(200);
  });
});
