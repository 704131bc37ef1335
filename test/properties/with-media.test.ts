import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import type { MediaRecord } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newMedia, newUser, tokenFor } from '../helpers/factories.js';
import { API, type FilePart, image, keyOf, multipart, PDF, tempUploadDir } from '../media/media-fixtures.js';

type Auth = Record<string, string>;
type Part = [name: string, value: string | FilePart];

/** Small enough that a noise file goes over it while the flat test images stay under. */
const MAX_FILE_BYTES = 64 * 1024;

describeEachDialect('POST /properties/with-media (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;
  let sellerAuth: Auth;
  let jpeg: Buffer;
  let png: Buffer;
  let webp: Buffer;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads.dir, UPLOAD_MAX_FILE_BYTES: String(MAX_FILE_BYTES) });
    db = t.database.db;
    seller = await newUser(db, { role: 'seller' });
    sellerAuth = bearer(await tokenFor(t.app, seller));
    [jpeg, png, webp] = await Promise.all([image('jpeg', 300, 200), image('png', 200, 300), image('webp', 120, 90)]);
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  const send = async (parts: Part[], auth: Auth | undefined = sellerAuth) => {
    const body = await multipart(parts);
    return t.app.inject({
      method: 'POST',
      url: `${API}/properties/with-media`,
      headers: { ...auth, ...body.headers },
      payload: body.payload,
    });
  };
  const data = (value: object) => JSON.stringify(value);
  const file = (bytes: Buffer, type = 'image/jpeg'): FilePart => ({ data: bytes, type, filename: 'photo' });
  const filesOf = (media: MediaRecord) =>
    [media.url, ...Object.values(media.sizes).map((size) => size.url)].map((url) => path.join(uploads.dir, keyOf(url, '/uploads/')));
  const mediaCount = async () =>
    Number(
      (
        await db
          .selectFrom('media')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const listingCount = async () =>
    Number(
      (
        await db
          .selectFrom('listings')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Runs a request that must be refused and checks that it left no row and no file behind. */
  const refused = async (parts: Part[], status: number, code: string, auth?: Auth): Promise<LightMyRequestResponse> => {
    const [media, listings, files] = [await mediaCount(), await listingCount(), uploads.files()];
    const res = await send(parts, auth);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ success: false, code });
    expect(await mediaCount()).toBe(media);
    expect(await listingCount()).toBe(listings);
    expect(uploads.files()).toEqual(files);
    return res;
  };

  it('creates the listing with the images as its gallery, in order (data as a text field)', async () => {
    const res = await send([
      ['data', data({ title: 'Three photos', price: 100 })],
      ['images', file(jpeg)],
      ['images', file(png, 'image/png')],
      ['images', file(webp, 'image/webp')],
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json().data;
    expect(record).toMatchObject({ title: 'Three photos', price: 100, status: 'pending', author: { id: seller.id } });
    expect(record.gallery.map((m: MediaRecord) => [m.mime_type, m.width, m.height, m.owner_id])).toEqual([
      ['image/jpeg', 300, 200, seller.id],
      ['image/png', 200, 300, seller.id],
      ['image/webp', 120, 90, seller.id],
    ]);
    expect(record.featured_image).toEqual(record.gallery[0]);
    for (const media of record.gallery as MediaRecord[]) {
      expect(Object.keys(media.sizes).sort()).toEqual(['large', 'medium', 'thumbnail']);
      expect(filesOf(media).every((f) => existsSync(f))).toBe(true);
    }
    const rows = await db
      .selectFrom('media')
      .select(['id', 'listing_id', 'position'])
      .where('listing_id', '=', record.id)
      .orderBy('position')
      .execute();
    expect(rows).toEqual(record.gallery.map((m: MediaRecord, position: number) => ({ id: m.id, listing_id: record.id, position })));
    const read = await t.app.inject({ method: 'GET', url: `${API}/properties/${record.id}`, headers: sellerAuth });
    expect(read.json().data).toEqual(record);
  });

  it('accepts `data` as an application/json part, before or after the images', async () => {
    const res = await send([
      ['images', file(png, 'image/png')],
      ['data', { data: Buffer.from(data({ title: 'JSON part', bedrooms: 2 })), type: 'application/json', filename: 'data.json' }],
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ title: 'JSON part', bedrooms: 2 });
    expect(res.json().data.gallery).toHaveLength(1);
    const withCharset = await send([['data', { data: Buffer.from(data({ title: 'Charset' })), type: 'application/json; charset=utf-8' }]]);
    expect(withCharset.statusCode, withCharset.body).toBe(201);
  });

  it('puts the images after the `media_ids` of data', async () => {
    const earlier = await newMedia(db, seller.id);
    const res = await send([
      ['data', data({ title: 'Mixed', media_ids: [earlier.id], featured_image_id: earlier.id })],
      ['images', file(jpeg)],
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const gallery = res.json().data.gallery as MediaRecord[];
    expect(gallery.map((m) => m.id)[0]).toBe(earlier.id);
    expect(gallery[1]).toMatchObject({ mime_type: 'image/jpeg', width: 300 });
  });

  it('creates a listing without images', async () => {
    const res = await send([['data', data({ title: 'No photos', draft: true })]]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ status: 'draft', gallery: [], featured_image: null });
  });

  describe('refusals leave nothing behind', () => {
    it('a file that is not an accepted image → 415, the good ones not stored either', async () => {
      await refused(
        [
          ['data', data({ title: 'Bad file' })],
          ['images', file(jpeg)],
          ['images', file(PDF, 'image/jpeg')],
          ['images', file(png, 'image/png')],
        ],
        415,
        'unsupported_media_type',
      );
      await refused(
        [
          ['data', data({ title: 'Noise' })],
          ['images', file(randomBytes(2000))],
        ],
        415,
        'unsupported_media_type',
      );
    });

    it('more than 20 images → 413', async () => {
      const images: Part[] = Array.from({ length: 21 }, () => ['images', file(webp, 'image/webp')]);
      await refused([['data', data({ title: 'Too many' })], ...images], 413, 'payload_too_large');
    });

    it('a file over the size limit → 413', async () => {
      await refused(
        [
          ['data', data({ title: 'Too big' })],
          ['images', file(randomBytes(MAX_FILE_BYTES + 1))],
        ],
        413,
        'payload_too_large',
      );
    });

    it('missing, invalid or repeated data → 400 naming `data`', async () => {
      const field = (res: LightMyRequestResponse) => res.json().errors.map((e: { field: string }) => e.field);
      expect(field(await refused([['images', file(jpeg)]], 400, 'validation_failed'))).toEqual(['data']);
      expect(
        field(
          await refused(
            [
              ['data', '{"title": "broken'],
              ['images', file(jpeg)],
            ],
            400,
            'validation_failed',
          ),
        ),
      ).toEqual(['data']);
      expect(field(await refused([['data', '[1, 2]']], 400, 'validation_failed'))).toEqual(['data']);
      expect(field(await refused([['data', 'null']], 400, 'validation_failed'))).toEqual(['data']);
      expect(
        field(
          await refused(
            [
              ['data', data({ title: 'One' })],
              ['data', data({ title: 'Two' })],
            ],
            400,
            'validation_failed',
          ),
        ),
      ).toEqual(['data']);
      const textPart = { data: Buffer.from(data({ title: 'As text' })), type: 'text/plain', filename: 'data.txt' };
      expect(field(await refused([['data', textPart]], 400, 'validation_failed'))).toEqual(['data']);
    });

    it('an unknown part → 400', async () => {
      const res = await refused(
        [
          ['data', data({ title: 'Extra' })],
          ['photos', file(jpeg)],
        ],
        400,
        'validation_failed',
      );
      expect(res.json().errors[0].field).toBe('photos');
    });

    it('data that breaks the body rules → 400 with the same field errors as POST /properties', async () => {
      const res = await refused(
        [
          ['data', data({ title: 'Rules', colour: 'red', price: -1 })],
          ['images', file(jpeg)],
        ],
        400,
        'validation_failed',
      );
      expect(
        res
          .json()
          .errors.map((e: { field: string }) => e.field)
          .sort(),
      ).toEqual(['colour', 'price']);
      const sneaky = await refused(
        [
          ['data', data({ title: 'Sneaky', status: 'publish', views: 5 })],
          ['images', file(jpeg)],
        ],
        400,
        'validation_failed',
      );
      expect(
        sneaky
          .json()
          .errors.map((e: { field: string }) => e.field)
          .sort(),
      ).toEqual(['status', 'views']);
    });

    it('a listing refused after the images were stored removes them again', async () => {
      const res = await refused(
        [
          ['data', data({ title: 'Refused', type_ids: [999_999] })],
          ['images', file(jpeg)],
          ['images', file(png, 'image/png')],
        ],
        400,
        'validation_failed',
      );
      expect(res.json().errors).toEqual([{ field: 'type_ids.0', message: expect.any(String) }]);
    });

    it('a gallery over 50 images → 400 naming `images`', async () => {
      const given = await Promise.all(Array.from({ length: 48 }, () => newMedia(db, seller.id)));
      const images: Part[] = Array.from({ length: 3 }, () => ['images', file(webp, 'image/webp')]);
      const res = await refused(
        [['data', data({ title: 'Over fifty', media_ids: given.map((m) => m.id) })], ...images],
        400,
        'validation_failed',
      );
      expect(res.json().errors).toEqual([{ field: 'images', message: 'must have at most 2 items' }]);
    });

    it('buyers → 403, anonymous callers → 401, a JSON body → 415', async () => {
      const buyerAuth = bearer(await tokenFor(t.app, await newUser(db, { role: 'buyer' })));
      await refused(
        [
          ['data', data({ title: 'Buyer' })],
          ['images', file(jpeg)],
        ],
        403,
        'forbidden',
        buyerAuth,
      );
      const anonymous = await send([['data', data({ title: 'Anonymous' })]], {});
      expect(anonymous.statusCode).toBe(401);
      const json = await t.app.inject({
        method: 'POST',
        url: `${API}/properties/with-media`,
        headers: sellerAuth,
        payload: { data: { title: 'JSON' } },
      });
      expect(json.statusCode).toBe(415);
      expect(json.json()).toMatchObject({ success: false, code: 'unsupported_media_type' });
    });
  });
});
