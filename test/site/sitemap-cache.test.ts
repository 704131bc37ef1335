import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { seoRoutes } from '../../src/site/pages/seo/seo.routes.js';
import { Sitemaps } from '../../src/site/pages/seo/sitemaps.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newListing, newUser, signIn } from '../helpers/factories.js';

const PUBLIC_URL = 'https://realty.example';
const API = '/realty-api/v1';
const SHARD = '/sitemaps/en/listings-0.xml';
const GZIP = { 'accept-encoding': 'gzip' };

/** The `<loc>`s of a urlset, read by a real XML parser (saxes): a malformed document throws. */
function locsOf(xml: string): string[] {
  const parser = new SaxesParser({ xmlns: true });
  const locs: string[] = [];
  let root = '';
  let inLoc = false;
  parser.on('opentag', (tag) => {
    root ||= tag.local;
    inLoc = tag.local === 'loc';
    if (inLoc) locs.push('');
  });
  parser.on('text', (text) => {
    if (inLoc) locs[locs.length - 1] += text;
  });
  parser.on('closetag', () => (inLoc = false));
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  expect(root).toBe('urlset');
  return locs;
}

describeEachDialect('sitemap shards kept gzipped (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  /** The seo routes behind @fastify/compress as app.ts has it, over a listing source that counts its reads. */
  let counted: FastifyInstance;
  /** The same routes keeping nothing: every answer a fresh build. */
  let fresh: FastifyInstance;
  const reads = { summaries: 0, builds: 0 };
  let published: number[];

  const get = (app: FastifyInstance, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: SHARD, headers });
  const freshXml = async () => (await get(fresh)).rawPayload;
  const act = async (id: number, action: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/users/property-actions`,
      headers: admin,
      payload: { property_id: id, action },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  async function seo(sitemaps: Sitemaps): Promise<FastifyInstance> {
    const app = Fastify();
    await app.register(compress, { threshold: 1024, globalDecompression: false });
    seoRoutes(app, { sitemaps, robots: 'User-agent: *\n', caching: t.config.site });
    await app.ready();
    return app;
  }

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    admin = await signIn(t.app, await newUser(db, { role: 'administrator' }));
    published = [];
    for (let n = 0; n < 5; n++) published.push(await newListing(db, { slug: `kept-${n}` }));
    const source = t.services.listingSitemap;
    const countingSource = Object.create(source) as typeof source;
    countingSource.summary = (size, block) => {
      reads.summaries++;
      return source.summary(size, block);
    };
    countingSource.page = (size, block, after, limit) => {
      if (after === block * size - 1) reads.builds++; // a build's first page
      return source.page(size, block, after, limit);
    };
    const options = { publicUrl: PUBLIC_URL, listingUrlTemplate: t.config.listings.urlTemplate, pageSize: 2 };
    counted = await seo(
      new Sitemaps({ ...t.services, listingSitemap: countingSource }, t.services.stamps, { ...options, cacheBytes: 1 << 20 }),
    );
    fresh = await seo(new Sitemaps(t.services, t.services.stamps, { ...options, cacheBytes: 0 }));
  });
  afterAll(async () => {
    await counted?.close();
    await fresh?.close();
    await t?.close();
  });

  it('sends a shard kept from its first build: a repeat reads nothing and is byte for byte a fresh build', async () => {
    await newListing(db, { status: 'draft' }); // a new stamp: nothing kept is current
    const first = await get(counted, GZIP);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(String(first.headers.vary).toLowerCase()).toContain('accept-encoding');
    const before = { ...reads };
    const again = await get(counted, GZIP);
    expect(again.statusCode).toBe(200);
    expect(reads, 'neither the ETag nor the records read again').toEqual(before);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(gunzipSync(again.rawPayload).equals(await freshXml())).toBe(true);
    expect(locsOf(gunzipSync(again.rawPayload).toString())).toHaveLength(published.length);
  });

  it('sends gzip and identity clients the same valid XML, and compresses on the fly only for other codings', async () => {
    const xml = (await freshXml()).toString();
    expect(locsOf(xml)).toHaveLength(published.length);
    for (const app of [counted, t.app]) {
      const gzip = await get(app, GZIP);
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(xml);
      const identityClients: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip;q=0' }];
      for (const headers of identityClients) {
        const identity = await get(app, headers);
        expect(identity.statusCode).toBe(200);
        expect(identity.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
        expect(identity.headers['content-type']).toBe('application/xml; charset=utf-8');
        expect(identity.body).toBe(xml);
      }
      const br = await get(app, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(xml);
    }
  });

  it('answers 304 to a matching If-None-Match from the shard kept, and after a change elsewhere from its ETag alone', async () => {
    const { etag } = (await get(counted, GZIP)).headers;
    const before = { ...reads };
    const kept = await get(counted, { ...GZIP, 'if-none-match': String(etag) });
    expect(kept.statusCode).toBe(304);
    expect(kept.body).toBe('');
    expect(reads).toEqual(before);
    await newListing(db, { status: 'draft' }); // renews the stamp, but the shard lists no draft
    const elsewhere = await get(counted, { 'if-none-match': String(etag) });
    expect(elsewhere.statusCode).toBe(304);
    expect(reads).toEqual({ summaries: before.summaries + 1, builds: before.builds });
    const sent = await get(counted, GZIP);
    expect(sent.headers.etag).toBe(etag);
    expect(reads.builds, 'the bytes kept still serve').toBe(before.builds);
  });

  it('changes the shard and its ETag on a publication, an unpublication and a slug edit', async () => {
    const pending = await newListing(db, { status: 'pending', slug: 'waiting-room' });
    const changes: [string, () => Promise<void>, (locs: string[]) => void][] = [
      ['publication', () => act(pending, 'approve'), (locs) => expect(locs).toContain(`${PUBLIC_URL}/property/waiting-room`)],
      ['unpublication', () => act(published[0]!, 'hold'), (locs) => expect(locs).not.toContain(`${PUBLIC_URL}/property/kept-0`)],
      [
        'slug edit',
        async () => {
          const res = await t.app.inject({
            method: 'PUT',
            url: `${API}/properties/${published[1]}`,
            headers: admin,
            payload: { slug: 'renamed' },
          });
          expect(res.statusCode, res.body).toBe(200);
        },
        (locs) => {
          expect(locs).toContain(`${PUBLIC_URL}/property/renamed`);
          expect(locs).not.toContain(`${PUBLIC_URL}/property/kept-1`);
        },
      ],
    ];
    for (const [change, make, check] of changes) {
      const { etag } = (await get(counted, GZIP)).headers;
      await make();
      const after = await get(counted, { ...GZIP, 'if-none-match': String(etag) });
      expect(after.statusCode, change).toBe(200);
      expect(after.headers.etag, change).not.toBe(etag);
      const xml = gunzipSync(after.rawPayload);
      expect(xml.equals(await freshXml()), change).toBe(true);
      check(locsOf(xml.toString()));
    }
  });

  it('builds a shard once for concurrent requests, whatever encoding each takes', async () => {
    await act(published[2]!, 'hold');
    const before = reads.builds;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, n) => get(counted, n % 2 ? GZIP : {})));
    expect(reads.builds).toBe(before + 1);
    const xml = await freshXml();
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect((answer.headers['content-encoding'] ? gunzipSync(answer.rawPayload) : answer.rawPayload).equals(xml)).toBe(true);
    }
  });
});
