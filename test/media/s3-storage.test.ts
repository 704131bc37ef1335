import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../src/adapters/storage/index.js';
import { S3Storage } from '../../src/adapters/storage/s3-storage.js';
import type { MediaRecord } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newUser, tokenFor } from '../helpers/factories.js';
import { type FakeS3, startFakeS3 } from '../helpers/fake-s3.js';
import { API, jpegWithGps, keyOf, multipart, PDF, image } from './media-fixtures.js';

const BUCKET = 'realty-media';
const IMMUTABLE = 'public, max-age=31536000, immutable';

const s3Env = (fake: FakeS3, extra: Record<string, string> = {}) => ({
  S3_BUCKET: BUCKET,
  S3_ENDPOINT: fake.url,
  S3_ACCESS_KEY_ID: 'test-access-key',
  S3_SECRET_ACCESS_KEY: 'test-secret-key',
  ...extra,
});

describeEachDialect('media on S3-compatible storage (%s)', (dialect) => {
  let fake: FakeS3;
  let t: TestApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    fake = await startFakeS3();
    t = await buildTestApp(dialect, s3Env(fake));
    headers = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'agency' })));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const post = async (url: string, field: string, data: Buffer) => {
    const body = await multipart([[field, { data }]]);
    return t.app.inject({ method: 'POST', url: `${API}${url}`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };
  const objectOf = (url: string) => fake.objects.get(`${BUCKET}/${keyOf(url, `${fake.url}/${BUCKET}/`)}`);
  const urlsOf = (media: MediaRecord) => [media.url, ...Object.values(media.sizes).map((s) => s.url)];

  it('uploads the original and its sizes with their content type and immutable caching', async () => {
    const res = await post('/media/upload', 'file', await jpegWithGps(900, 600));
    expect(res.statusCode, res.body).toBe(201);
    const media = res.json().data as MediaRecord;
    expect(media.url.startsWith(`${fake.url}/${BUCKET}/`)).toBe(true);
    expect(urlsOf(media)).toHaveLength(4);
    for (const url of urlsOf(media)) {
      const object = objectOf(url);
      expect(object, url).toBeDefined();
      expect(object!.contentType).toBe('image/jpeg');
      expect(object!.cacheControl).toBe(IMMUTABLE);
      expect((await sharp(object!.body).metadata()).exif).toBeUndefined();
    }
    expect(objectOf(media.url)!.body.length).toBe(media.size_bytes);
    expect(media.sizes.large).toMatchObject({ width: 900, height: 600 });

    const pdf = (await post('/media/upload', 'file', PDF)).json().data as MediaRecord;
    expect(objectOf(pdf.url)).toMatchObject({ contentType: 'application/pdf', body: PDF });
  });

  it('deletes every object of a deleted media item', async () => {
    const media = (await post('/media/upload', 'file', await image('png', 400, 300))).json().data as MediaRecord;
    for (const url of urlsOf(media)) expect(objectOf(url)).toBeDefined();
    const res = await t.app.inject({ method: 'DELETE', url: `${API}/media/${media.id}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    for (const url of urlsOf(media)) expect(objectOf(url), url).toBeUndefined();
    expect(fake.requests.some((r) => r.startsWith(`POST /${BUCKET}/?delete`))).toBe(true);
  });

  it('replaces an avatar’s objects', async () => {
    const first = (await post('/users/upload-avatar', 'avatar', await image('webp', 300, 300))).json().data;
    expect(first.avatar_url).toMatch(new RegExp(`^${fake.url}/${BUCKET}/\\d{4}/\\d{2}/[0-9a-f]{32}-medium\\.webp$`));
    expect(objectOf(first.avatar_url)?.contentType).toBe('image/webp');
    const second = (await post('/users/upload-avatar', 'avatar', await image('webp', 300, 300))).json().data;
    expect(objectOf(first.avatar_url)).toBeUndefined();
    expect(objectOf(second.avatar_url)).toBeDefined();
  });

  it('does not serve /uploads/ itself', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/uploads/2026/01/00000000000000000000000000000000.jpg' });
    expect(res.statusCode).toBe(404);
  });
});

describe('S3Storage', () => {
  let fake: FakeS3;

  beforeAll(async () => {
    fake = await startFakeS3();
  });
  afterAll(() => fake.close());

  it('is what createStorage makes when S3_BUCKET is set', () => {
    expect(createStorage(testConfig(s3Env(fake)))).toBeInstanceOf(S3Storage);
  });

  it('builds URLs from S3_PUBLIC_URL, else from the endpoint and bucket', () => {
    expect(new S3Storage(testConfig(s3Env(fake, { S3_PUBLIC_URL: 'https://cdn.example.test/media/' })).s3!).url('2026/11/a.jpg')).toBe(
      'https://cdn.example.test/media/2026/11/a.jpg',
    );
    expect(new S3Storage(testConfig(s3Env(fake)).s3!).url('2026/11/a.jpg')).toBe(`${fake.url}/${BUCKET}/2026/11/a.jpg`);
  });

  it('puts and deletes objects by path-style requests; deleting a missing key is not an error', async () => {
    const storage = new S3Storage(testConfig(s3Env(fake)).s3!);
    await storage.put('2026/11/doc.pdf', PDF, 'application/pdf');
    expect(fake.objects.get(`${BUCKET}/2026/11/doc.pdf`)).toEqual({ body: PDF, contentType: 'application/pdf', cacheControl: IMMUTABLE });
    expect(fake.requests.some((r) => r.startsWith(`PUT /${BUCKET}/2026/11/doc.pdf?`))).toBe(true);
    await storage.delete(['2026/11/doc.pdf', '2026/11/never-stored.jpg']);
    expect(fake.objects.has(`${BUCKET}/2026/11/doc.pdf`)).toBe(false);
    await expect(storage.delete([])).resolves.toBeUndefined();
  });

  it('throws when the service reports keys it could not delete', async () => {
    const storage = new S3Storage(testConfig(s3Env(fake)).s3!);
    await storage.put('2026/11/locked.jpg', Buffer.from('x'), 'image/jpeg');
    fake.undeletable.add(`${BUCKET}/2026/11/locked.jpg`);
    await expect(storage.delete(['2026/11/locked.jpg'])).rejects.toThrow(/2026\/11\/locked\.jpg \(AccessDenied\)/);
  });
});
