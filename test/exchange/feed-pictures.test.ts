import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema/index.js';
import { FEED_FORMATS } from '../../src/modules/exchange/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newUser } from '../helpers/factories.js';
import { image } from '../media/media-fixtures.js';

/** A picture server on 127.0.0.1: `/n.png` images, `/missing.png` 404, `/text.png` not an image. */
async function pictureServer(): Promise<{ base: string; hits: Map<string, number>; close(): Promise<void> }> {
  const pictures = new Map<string, Buffer>([
    ['/one.png', await image('png', 64, 48)],
    ['/two.jpeg', await image('jpeg', 40, 30)],
    ['/three.webp', await image('webp', 20, 20)],
  ]);
  const hits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const url = request.url ?? '';
    hits.set(url, (hits.get(url) ?? 0) + 1);
    const body = pictures.get(url);
    if (body) return response.end(body);
    if (url === '/text.png') return response.end('this is not a picture');
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describeEachDialect('feed pictures (%s)', (dialect) => {
  let t: TestApp;
  let admin: UserRow;
  let uploads: string;
  let server: Awaited<ReturnType<typeof pictureServer>>;

  beforeAll(async () => {
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-feed-pictures-'));
    server = await pictureServer();
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads, PUBLIC_URL: 'https://realty.example', IMPORT_ALLOWED_HOSTS: '127.0.0.1' });
    admin = await newUser(t.database.db, { role: 'administrator' });
  });
  afterAll(async () => {
    await t.close();
    await server.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  const importCsv = (text: string, source = 'pictures') =>
    t.services.feedImporter.run(FEED_FORMATS.csv.read(Readable.from([Buffer.from(text)])), { source, actorId: admin.id });

  /** Runs the job until nothing is due now (retries wait for later). */
  async function fetchAll(): Promise<void> {
    while ((await t.services.feedPictures.runOnce()) === 0);
  }

  async function gallery(key: string, source = 'pictures') {
    const { listing_id } = await t.database.db
      .selectFrom('listing_sources')
      .select('listing_id')
      .where('source', '=', source)
      .where('source_key', '=', key)
      .executeTakeFirstOrThrow();
    return t.database.db
      .selectFrom('media')
      .select(['id', 'owner_id', 'position', 'width', 'height', 'mime_type'])
      .where('listing_id', '=', listing_id)
      .orderBy('position')
      .execute();
  }

  it('fetches the pictures a feed names into the gallery in order, after the import, owned by the author', async () => {
    const { base } = server;
    const summary = await importCsv(`key,title,images\nP1,Two pictures,${base}/one.png|${base}/two.jpeg`);
    expect(summary).toMatchObject({ created: 1, rejected: 0 });
    // The import itself fetched nothing: the job does.
    expect(await gallery('P1')).toEqual([]);
    expect(await t.services.feedPictures.counts()).toMatchObject({ pending: 2 });
    await fetchAll();
    const media = await gallery('P1');
    expect(media.map(({ position, width, height, mime_type, owner_id }) => ({ position, width, height, mime_type, owner_id }))).toEqual([
      { position: 0, width: 64, height: 48, mime_type: 'image/png', owner_id: admin.id },
      { position: 1, width: 40, height: 30, mime_type: 'image/jpeg', owner_id: admin.id },
    ]);
    // The API shows them: the listing record's gallery, the first one featured.
    const { body } = await t.app.inject({ method: 'GET', url: `/realty-api/v1/properties/${await listingIdOf('P1')}` });
    const record = JSON.parse(body).data as { gallery: { id: number }[]; featured_image: { id: number } };
    expect(record.gallery.map((item) => item.id)).toEqual(media.map((item) => item.id));
    expect(record.featured_image.id).toBe(media[0]!.id);
  });

  async function listingIdOf(key: string): Promise<number> {
    const row = await t.database.db
      .selectFrom('listing_sources')
      .select('listing_id')
      .where('source_key', '=', key)
      .executeTakeFirstOrThrow();
    return row.listing_id;
  }

  it('fetches a queue longer than one claim in one run of the job', async () => {
    const { base } = server;
    const urls = `${base}/one.png|${base}/two.jpeg|${base}/three.webp`;
    await importCsv(['key,title,images', ...['Q1', 'Q2', 'Q3', 'Q4'].map((key) => `${key},Queue ${key},${urls}`)].join('\n'));
    expect(await t.services.feedPictures.counts()).toMatchObject({ pending: 12 });
    // One run claims more as the pictures in hand run out, and says when nothing is left.
    expect(await t.services.feedPictures.runOnce()).toBeUndefined();
    expect(await t.services.feedPictures.counts()).toMatchObject({ pending: 0 });
    for (const key of ['Q1', 'Q2', 'Q3', 'Q4']) expect(await gallery(key)).toHaveLength(3);
  });

  it('fetches nothing again for an unchanged gallery, and replaces a changed one', async () => {
    const { base, hits } = server;
    await importCsv(`key,title,images\nP2,Replaced pictures,${base}/one.png`);
    await fetchAll();
    const before = hits.get('/one.png');
    // The record changed (its title), its pictures did not: nothing is fetched.
    await importCsv(`key,title,images\nP2,Replaced pictures again,${base}/one.png`);
    await fetchAll();
    expect(hits.get('/one.png')).toBe(before);
    const [kept] = await gallery('P2');
    await importCsv(`key,title,images\nP2,Replaced pictures again,${base}/three.webp|${base}/one.png`);
    await fetchAll();
    const replaced = await gallery('P2');
    expect(replaced.map((item) => item.mime_type)).toEqual(['image/webp', 'image/png']);
    // The old picture's media went with it.
    expect(await t.database.db.selectFrom('media').select('id').where('id', '=', kept!.id).execute()).toEqual([]);
  });

  it('retries a failed download later and gives it up after three tries, keeping why; a non-image is refused', async () => {
    const { base } = server;
    await importCsv(`key,title,images\nP3,Broken pictures,${base}/missing.png|${base}/text.png|${base}/two.jpeg`);
    const now = Date.now();
    for (const minutes of [0, 2, 10]) await t.services.feedPictures.runOnce(new Date(now + minutes * 60_000));
    const rows = await t.database.db
      .selectFrom('feed_pictures')
      .select(['url', 'state', 'attempts', 'last_error'])
      .where('listing_id', '=', await listingIdOf('P3'))
      .orderBy('position')
      .execute();
    expect(rows).toEqual([
      { url: `${base}/missing.png`, state: 'failed', attempts: 3, last_error: `${new URL(base).host} answered with HTTP status 404` },
      {
        url: `${base}/text.png`,
        state: 'failed',
        attempts: 3,
        last_error: 'This file type is not accepted. Accepted types: JPG, PNG, WEBP.',
      },
      { url: `${base}/two.jpeg`, state: 'stored', attempts: 0, last_error: '' },
    ]);
    expect((await gallery('P3')).map((item) => item.mime_type)).toEqual(['image/jpeg']);
  });
});

describe('feed pictures without the host allowed', () => {
  it('never fetches from a private address', async () => {
    const server = await pictureServer();
    const t = await buildTestApp('sqlite', { IMPORT_ALLOWED_HOSTS: '' });
    try {
      const admin = await newUser(t.database.db, { role: 'administrator' });
      await t.services.feedImporter.run(FEED_FORMATS.csv.read(Readable.from([`key,title,images\nQ1,Private,${server.base}/one.png`])), {
        source: 'private',
        actorId: admin.id,
      });
      await t.services.feedPictures.runOnce();
      const [row] = await t.database.db.selectFrom('feed_pictures').select(['state', 'last_error']).execute();
      expect(row).toMatchObject({ state: 'pending', last_error: expect.stringContaining('127.0.0.1') });
      expect(server.hits.size).toBe(0);
    } finally {
      await t.close();
      await server.close();
    }
  });
});
