import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/db/schema/index.js';
import type { MediaRecord } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newUser, tokenFor } from '../helpers/factories.js';
import {
  API,
  type FilePart,
  image,
  jpegWithGps,
  keyOf,
  multipart,
  PDF,
  pngHeaderOnly,
  rotatedJpeg,
  tempUploadDir,
} from './media-fixtures.js';

const PUBLIC_URL = 'http://media.test';
const KEY = /^\d{4}\/\d{2}\/[0-9a-f]{32}\.(jpg|png|webp|pdf)$/;

const expectCode = (res: LightMyRequestResponse, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, code });
  expect(res.json().request_id).toBe(res.headers['x-request-id']);
};
const expectInvalid = (res: LightMyRequestResponse, field: string) => {
  expectCode(res, 400, 'validation_failed');
  expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
};

describeEachDialect('POST /media/upload (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;
  let agent: Record<string, string>;
  let agentId: number;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads.dir, PUBLIC_URL });
    const user = await newUser(t.database.db, { role: 'agent' });
    agentId = user.id;
    agent = bearer(await tokenFor(t.app, user));
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  const upload = async (parts: [string, string | FilePart][], headers: Record<string, string> = agent) => {
    const body = await multipart(parts);
    return t.app.inject({ method: 'POST', url: `${API}/media/upload`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };
  const uploadFile = (data: Buffer, filename = 'photo.jpg', type = 'image/jpeg') => upload([['file', { data, filename, type }]]);
  const created = (res: LightMyRequestResponse): MediaRecord => {
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().success).toBe(true);
    return res.json().data as MediaRecord;
  };
  const stored = (url: string) => readFileSync(path.join(uploads.dir, keyOf(url, `${PUBLIC_URL}/uploads/`)));

  describe('accepted files', () => {
    it('stores a JPEG with its three sizes and answers 201 with the media record', async () => {
      const media = created(await uploadFile(await image('jpeg', 2000, 1000)));
      expect(Object.keys(media).sort()).toEqual(
        [
          'alt',
          'caption',
          'created_at',
          'description',
          'height',
          'id',
          'mime_type',
          'owner_id',
          'size_bytes',
          'sizes',
          'title',
          'url',
          'width',
        ].sort(),
      );
      expect(media).toMatchObject({
        mime_type: 'image/jpeg',
        width: 2000,
        height: 1000,
        owner_id: agentId,
        title: '',
        caption: '',
        alt: '',
        description: '',
      });
      expect(media.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(keyOf(media.url, `${PUBLIC_URL}/uploads/`)).toMatch(KEY);
      expect(media.size_bytes).toBe(stored(media.url).length);
      expect(media.sizes).toEqual({
        thumbnail: { url: expect.stringMatching(/-thumbnail\.jpg$/), width: 150, height: 150 },
        medium: { url: expect.stringMatching(/-medium\.jpg$/), width: 600, height: 300 },
        large: { url: expect.stringMatching(/-large\.jpg$/), width: 1200, height: 600 },
      });
      for (const size of Object.values(media.sizes)) {
        const metadata = await sharp(stored(size.url)).metadata();
        expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', size.width, size.height]);
      }
    });

    it.each([
      ['png', 'image/png', '.png'],
      ['webp', 'image/webp', '.webp'],
    ] as const)('keeps the uploaded format: %s', async (format, mime, extension) => {
      const media = created(await uploadFile(await image(format, 800, 1000), `x${extension}`, mime));
      expect(media).toMatchObject({ mime_type: mime, width: 800, height: 1000 });
      expect(media.url.endsWith(extension)).toBe(true);
      expect(media.sizes.medium).toMatchObject({ width: 480, height: 600 });
      expect(media.sizes.large).toMatchObject({ width: 800, height: 1000 });
      expect((await sharp(stored(media.url)).metadata()).format).toBe(format);
      expect((await sharp(stored(media.sizes.thumbnail!.url)).metadata()).format).toBe(format);
    });

    it('stores a PDF as it is, with no dimensions and no sizes', async () => {
      const media = created(await uploadFile(PDF, 'brochure.pdf', 'application/pdf'));
      expect(media).toMatchObject({ mime_type: 'application/pdf', width: null, height: null, sizes: {}, size_bytes: PDF.length });
      expect(media.url).toMatch(/\.pdf$/);
      expect(stored(media.url).equals(PDF)).toBe(true);
    });

    it('never upscales: a small original gives sizes of its own dimensions', async () => {
      const media = created(await uploadFile(await image('jpeg', 100, 80)));
      for (const size of Object.values(media.sizes)) expect([size.width, size.height]).toEqual([100, 80]);
    });

    it('strips EXIF, including the GPS position, from the original and every size', async () => {
      const upload = await jpegWithGps();
      expect((await sharp(upload).metadata()).exif).toBeDefined();
      const media = created(await uploadFile(upload));
      for (const url of [media.url, ...Object.values(media.sizes).map((s) => s.url)]) {
        const bytes = stored(url);
        const metadata = await sharp(bytes).metadata();
        expect(metadata.exif).toBeUndefined();
        expect(bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
      }
    });

    it('applies the EXIF orientation before dropping it', async () => {
      const media = created(await uploadFile(await rotatedJpeg(200, 100)));
      expect([media.width, media.height]).toEqual([100, 200]);
      const metadata = await sharp(stored(media.url)).metadata();
      expect([metadata.width, metadata.height, metadata.orientation]).toEqual([100, 200, undefined]);
    });

    it('takes title, caption, alt and description, cleaned', async () => {
      const media = created(
        await upload([
          ['title', '  <b>Sea</b> view  '],
          ['file', { data: await image('jpeg', 50, 50), filename: 'a.jpg', type: 'image/jpeg' }],
          ['caption', 'Beds < 3'],
          ['alt', 'A house'],
          ['description', '<p>Nice <script>alert(1)</script><em>garden</em></p>'],
        ]),
      );
      expect(media).toMatchObject({ title: 'Sea view', caption: 'Beds < 3', alt: 'A house', description: '<p>Nice <em>garden</em></p>' });
    });

    it('accepts every listing creator and refuses buyers (403) and anonymous callers (401)', async () => {
      const jpeg = await image('jpeg', 20, 20);
      for (const role of ['administrator', 'manager', 'agency', 'owner', 'seller'] satisfies Role[]) {
        const headers = bearer(await tokenFor(t.app, await newUser(t.database.db, { role })));
        expect((await upload([['file', { data: jpeg }]], headers)).statusCode, role).toBe(201);
      }
      const buyer = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'buyer' })));
      expectCode(await upload([['file', { data: jpeg }]], buyer), 403, 'forbidden');
      expectCode(await upload([['file', { data: jpeg }]], {}), 401, 'unauthorized');
    });
  });

  describe('refused files leave nothing stored', () => {
    let before: number;
    beforeAll(() => {
      before = uploads.files().length;
    });
    afterAll(() => {
      expect(uploads.files().length).toBe(before);
    });

    it('refuses SVG, whatever its name', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>');
      expectCode(await uploadFile(svg, 'logo.svg', 'image/svg+xml'), 415, 'unsupported_media_type');
      expectCode(await uploadFile(svg, 'logo.png', 'image/png'), 415, 'unsupported_media_type');
    });

    it('refuses HTML named .jpg and sent as image/jpeg', async () => {
      const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
      const res = await uploadFile(html, 'photo.jpg', 'image/jpeg');
      expectCode(res, 415, 'unsupported_media_type');
      expect(res.json().message).toContain('JPG, PNG, WEBP, PDF');
    });

    it('refuses GIF, plain text and zip', async () => {
      const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
        .gif()
        .toBuffer();
      expectCode(await uploadFile(gif, 'a.gif', 'image/gif'), 415, 'unsupported_media_type');
      expectCode(await uploadFile(Buffer.from('just text'), 'a.jpg'), 415, 'unsupported_media_type');
      const zip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(40)]);
      expectCode(await uploadFile(zip, 'a.zip', 'application/zip'), 415, 'unsupported_media_type');
      expectCode(await uploadFile(Buffer.alloc(0), 'empty.jpg'), 415, 'unsupported_media_type');
    });

    it('refuses a truncated JPEG with 415, not 500', async () => {
      const jpeg = await image('jpeg', 800, 600);
      const res = await uploadFile(jpeg.subarray(0, Math.floor(jpeg.length / 2)));
      expectCode(res, 415, 'unsupported_media_type');
    });

    it('refuses a PNG of more than 40 megapixels from its header (8000×6000)', async () => {
      // Its pixel data cannot be decoded: decoding it would answer 415 media_unreadable, not 413.
      const res = await uploadFile(pngHeaderOnly(8000, 6000), 'huge.png', 'image/png');
      expectCode(res, 413, 'payload_too_large');
      expect(res.json().message).toContain('40');
      // The same bytes with a header within the limit: the decoder reads them, and fails.
      expectCode(await uploadFile(pngHeaderOnly(800, 600), 'small.png', 'image/png'), 415, 'unsupported_media_type');
    });

    it('refuses a PNG beyond the decoder’s own pixel limit with the same 413 (17000×17000, 289 megapixels)', async () => {
      const res = await uploadFile(pngHeaderOnly(17_000, 17_000), 'bomb.png', 'image/png');
      expectCode(res, 413, 'payload_too_large');
    });

    it('refuses a request that is not multipart with 415', async () => {
      const json = await t.app.inject({ method: 'POST', url: `${API}/media/upload`, headers: agent, payload: { file: 'x' } });
      expectCode(json, 415, 'unsupported_media_type');
      const text = await t.app.inject({
        method: 'POST',
        url: `${API}/media/upload`,
        headers: { ...agent, 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expectCode(text, 415, 'unsupported_media_type');
      const octets = await t.app.inject({
        method: 'POST',
        url: `${API}/media/upload`,
        headers: { ...agent, 'content-type': 'image/jpeg' },
        payload: await image('jpeg', 10, 10),
      });
      expectCode(octets, 415, 'unsupported_media_type');
      expectCode(await t.app.inject({ method: 'POST', url: `${API}/media/upload`, headers: agent }), 415, 'unsupported_media_type');
    });

    it('answers a malformed multipart body with 400, not 500', async () => {
      const post = (contentType: string, payload: string) =>
        t.app.inject({ method: 'POST', url: `${API}/media/upload`, headers: { ...agent, 'content-type': contentType }, payload });
      expectCode(await post('multipart/form-data', 'no boundary'), 400, 'validation_failed');
      const truncated = '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n\xff\xd8\xff';
      expectCode(await post('multipart/form-data; boundary=xyz', truncated), 400, 'validation_failed');
    });

    it('names the missing file field (400)', async () => {
      expectInvalid(await upload([['title', 'No file']]), 'file');
      expectInvalid(await upload([['file', 'not a file']]), 'file');
    });

    it('refuses unknown parts and over-long or repeated text fields (400)', async () => {
      const jpeg = { data: await image('jpeg', 10, 10) };
      expectInvalid(
        await upload([
          ['file', jpeg],
          ['owner_id', '1'],
        ]),
        'owner_id',
      );
      expectInvalid(await upload([['image', jpeg]]), 'image');
      expectInvalid(
        await upload([
          ['file', jpeg],
          ['title', 'x'.repeat(201)],
        ]),
        'title',
      );
      expectInvalid(
        await upload([
          ['file', jpeg],
          ['alt', 'a'],
          ['alt', 'b'],
        ]),
        'alt',
      );
      expectInvalid(
        await upload([
          ['description', 'é'.repeat(20_001)],
          ['file', jpeg],
        ]),
        'description',
      );
      expect(
        (
          await upload([
            ['file', jpeg],
            ['title', 'x'.repeat(200)],
            ['description', 'é'.repeat(20_000)],
          ])
        ).statusCode,
      ).toBe(201);
      before += 4; // the accepted upload just above
    });

    it('refuses a second file part (413)', async () => {
      const jpeg = { data: await image('jpeg', 10, 10) };
      expectCode(
        await upload([
          ['file', jpeg],
          ['file', jpeg],
        ]),
        413,
        'payload_too_large',
      );
    });

    it('keeps a polyglot’s image and drops its HTML payload', async () => {
      const payload = '<html><body><script>alert(document.domain)</script></body></html>';
      const polyglot = Buffer.concat([await image('jpeg', 64, 64), Buffer.from(payload)]);
      const media = created(await uploadFile(polyglot, 'x.html', 'text/html'));
      expect(media.mime_type).toBe('image/jpeg');
      for (const url of [media.url, ...Object.values(media.sizes).map((s) => s.url)]) {
        expect(stored(url).includes(Buffer.from('<script'))).toBe(false);
      }
      before += 4;
    });
  });
});

describeEachDialect('upload limits (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;
  let agent: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads.dir, UPLOAD_MAX_FILE_BYTES: '50000', IMAGE_MAX_MEGAPIXELS: '1' });
    agent = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'owner' })));
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  const uploadFile = async (data: Buffer) => {
    const body = await multipart([['file', { data, filename: 'f.jpg', type: 'image/jpeg' }]]);
    return t.app.inject({ method: 'POST', url: `${API}/media/upload`, headers: { ...agent, ...body.headers }, payload: body.payload });
  };

  it('refuses a file over UPLOAD_MAX_FILE_BYTES with 413', async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(50_001 - PDF.length, 0x20)]);
    const res = await uploadFile(big);
    expectCode(res, 413, 'payload_too_large');
    expect(res.json().message).toContain('50000');
    expect((await uploadFile(big.subarray(0, 50_000))).statusCode).toBe(201);
  });

  it('refuses an image over IMAGE_MAX_MEGAPIXELS with 413 (1100×1000 > 1 MP) and takes one at the limit', async () => {
    const res = await uploadFile(await image('jpeg', 1100, 1000));
    expectCode(res, 413, 'payload_too_large');
    expect(res.json().message).toContain('1 megapixels');
    expect((await uploadFile(await image('jpeg', 1000, 1000))).statusCode).toBe(201);
  });
});
