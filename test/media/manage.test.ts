import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListingState } from '../../src/db/schema/index.js';
import type { MediaRecord } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newListing, newSignedInUser } from '../helpers/factories.js';
import { API, image, keyOf, multipart, PDF, tempUploadDir } from './media-fixtures.js';

const MISSING_ID = 2_147_483_647;
type Headers = Record<string, string>;

const expectCode = (res: LightMyRequestResponse, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, code });
};

describeEachDialect('media management (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;
  let owner: Headers;
  let stranger: Headers;
  let admin: Headers;
  let manager: Headers;
  let jpeg: Buffer;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads.dir });
    [{ auth: owner }, { auth: stranger }, { auth: admin }, { auth: manager }] = await Promise.all([
      newSignedInUser(t, { role: 'agent' }),
      newSignedInUser(t, { role: 'seller' }),
      newSignedInUser(t, { role: 'administrator' }),
      newSignedInUser(t, { role: 'manager' }),
    ]);
    jpeg = await image('jpeg', 300, 200);
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  const uploadAs = async (headers: Headers, data: Buffer = jpeg): Promise<MediaRecord> => {
    const body = await multipart([['file', { data }]]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/media/upload`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as MediaRecord;
  };
  const get = (id: number, headers: Headers = {}) => t.app.inject({ method: 'GET', url: `${API}/media/${id}`, headers });
  const put = (id: number, payload: Record<string, unknown>, headers: Headers = owner) =>
    t.app.inject({ method: 'PUT', url: `${API}/media/${id}`, headers, payload });
  const del = (id: number, headers: Headers = owner) => t.app.inject({ method: 'DELETE', url: `${API}/media/${id}`, headers });
  const list = (query: string, headers: Headers = owner) => t.app.inject({ method: 'GET', url: `${API}/media${query}`, headers });

  /** Attaches a media item to a new listing in the given state (the listings API does this in its own issue). */
  const attach = async (mediaId: number, status: ListingState): Promise<number> => {
    const listingId = await newListing(t.database.db, { status });
    await t.database.db.updateTable('media').set({ listing_id: listingId }).where('id', '=', mediaId).execute();
    return listingId;
  };
  const filesOf = (media: MediaRecord) =>
    [media.url, ...Object.values(media.sizes).map((s) => s.url)].map((url) => path.join(uploads.dir, keyOf(url, '/uploads/')));

  describe('GET /media/{id}', () => {
    it('shows the owner and the moderators the record the upload answered', async () => {
      const media = await uploadAs(owner);
      for (const headers of [owner, admin, manager]) {
        const res = await get(media.id, headers);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toStrictEqual({ success: true, data: media });
      }
    });

    it('hides an unattached item from everyone else (404)', async () => {
      const media = await uploadAs(owner);
      expectCode(await get(media.id, stranger), 404, 'not_found');
      expectCode(await get(media.id), 404, 'not_found');
      expectCode(await get(MISSING_ID, owner), 404, 'not_found');
      expectCode(await get(0, owner), 400, 'validation_failed');
    });

    it('shows an item attached to a published or sold listing to anyone, and hides it on other listings', async () => {
      for (const status of ['publish', 'sold'] as const) {
        const media = await uploadAs(owner);
        await attach(media.id, status);
        expect((await get(media.id)).statusCode, status).toBe(200);
        expect((await get(media.id, stranger)).json().data).toStrictEqual(media);
      }
      for (const status of ['draft', 'pending', 'on_hold', 'disapproved', 'expired'] as const) {
        const media = await uploadAs(owner);
        await attach(media.id, status);
        expectCode(await get(media.id), 404, 'not_found');
        expectCode(await get(media.id, stranger), 404, 'not_found');
        expect((await get(media.id, owner)).statusCode).toBe(200);
      }
    });
  });

  describe('PUT /media/{id}', () => {
    it('updates the given fields only, cleaned, for the owner', async () => {
      const media = await uploadAs(owner);
      const first = await put(media.id, { title: ' <i>Front</i> ', alt: 'Facade' });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().data).toStrictEqual({ ...media, title: 'Front', alt: 'Facade' });
      const second = await put(media.id, { description: '<p>Hi<img src=x onerror=alert(1)></p>', caption: '' });
      expect(second.json().data).toMatchObject({ title: 'Front', alt: 'Facade', caption: '', description: '<p>Hi</p>' });
      expect((await get(media.id, owner)).json().data).toStrictEqual(second.json().data);
      expect((await put(media.id, {})).json().data).toStrictEqual(second.json().data);
    });

    it('lets moderators update anyone’s item', async () => {
      const media = await uploadAs(owner);
      for (const headers of [admin, manager]) {
        const res = await put(media.id, { caption: 'Moderated' }, headers);
        expect(res.statusCode, res.body).toBe(200);
      }
      expect((await get(media.id, owner)).json().data.caption).toBe('Moderated');
    });

    it('answers 404 to a stranger who cannot see it, 403 to one who can, 401 without a token', async () => {
      const media = await uploadAs(owner);
      expectCode(await put(media.id, { title: 'Mine' }, stranger), 404, 'not_found');
      await attach(media.id, 'publish');
      expectCode(await put(media.id, { title: 'Mine' }, stranger), 403, 'forbidden');
      expectCode(await put(media.id, { title: 'Mine' }, {}), 401, 'unauthorized');
      expect((await get(media.id)).json().data.title).toBe('');
    });

    it('refuses unknown and over-long fields (400)', async () => {
      const media = await uploadAs(owner);
      const unknown = await put(media.id, { owner_id: 1 });
      expectCode(unknown, 400, 'validation_failed');
      expect(unknown.json().errors[0].field).toBe('owner_id');
      expectCode(await put(media.id, { alt: 'x'.repeat(201) }), 400, 'validation_failed');
      expectCode(await put(media.id, { description: 'x'.repeat(20_001) }), 400, 'validation_failed');
      expectCode(await put(media.id, { title: 5 }), 400, 'validation_failed');
      expectCode(await put(MISSING_ID, { title: 'x' }), 404, 'not_found');
    });
  });

  describe('DELETE /media/{id}', () => {
    it('removes the row and every stored file, and detaches it from its listing', async () => {
      const media = await uploadAs(owner);
      const listingId = await attach(media.id, 'draft');
      const files = filesOf(media);
      expect(files).toHaveLength(4);
      for (const file of files) expect(existsSync(file)).toBe(true);

      const res = await del(media.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ success: true, data: { id: media.id, deleted: true } });
      for (const file of files) expect(existsSync(file), file).toBe(false);
      expectCode(await get(media.id, owner), 404, 'not_found');
      expectCode(await del(media.id), 404, 'not_found');
      const listing = await t.database.db.selectFrom('listings').select('id').where('id', '=', listingId).executeTakeFirst();
      expect(listing?.id).toBe(listingId);
    });

    it('removes a document', async () => {
      const media = await uploadAs(owner, PDF);
      const [file] = filesOf(media);
      expect((await del(media.id)).statusCode).toBe(200);
      expect(existsSync(file!)).toBe(false);
    });

    it('answers 404 to a stranger who cannot see it, 403 to one who can; moderators may delete', async () => {
      const media = await uploadAs(owner);
      expectCode(await del(media.id, stranger), 404, 'not_found');
      await attach(media.id, 'sold');
      expectCode(await del(media.id, stranger), 403, 'forbidden');
      expectCode(await del(media.id, {}), 401, 'unauthorized');
      expect((await del(media.id, manager)).statusCode).toBe(200);
      const other = await uploadAs(stranger);
      expect((await del(other.id, admin)).statusCode).toBe(200);
      for (const file of filesOf(other)) expect(existsSync(file)).toBe(false);
    });
  });

  describe('GET /media', () => {
    let lister: Headers;
    let mine: MediaRecord[];

    beforeAll(async () => {
      ({ auth: lister } = await newSignedInUser(t, { role: 'owner' }));
      mine = [];
      for (let i = 0; i < 3; i++) mine.push(await uploadAs(lister, await image('png', 10 + i, 10)));
      await uploadAs(stranger);
    });

    it('lists the caller’s own uploads, newest first, paged', async () => {
      const res = await list('', lister);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toStrictEqual({
        success: true,
        data: {
          media: [...mine].reverse(),
          pagination: { total_records: 3, total_pages: 1, current_page: 1, per_page: 10, has_next_page: false, has_previous_page: false },
        },
      });

      const first = (await list('?per_page=2', lister)).json().data;
      expect(first.media.map((m: MediaRecord) => m.id)).toEqual([mine[2]!.id, mine[1]!.id]);
      expect(first.pagination).toEqual({
        total_records: 3,
        total_pages: 2,
        current_page: 1,
        per_page: 2,
        has_next_page: true,
        has_previous_page: false,
      });
      const second = (await list('?per_page=2&paged=2', lister)).json().data;
      expect(second.media.map((m: MediaRecord) => m.id)).toEqual([mine[0]!.id]);
      expect(second.pagination).toMatchObject({ current_page: 2, has_next_page: false, has_previous_page: true });
    });

    it('answers a page past the end with an empty list and true figures', async () => {
      const res = await list('?page=9&per_page=2', lister);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toStrictEqual({
        media: [],
        pagination: { total_records: 3, total_pages: 2, current_page: 9, per_page: 2, has_next_page: false, has_previous_page: true },
      });
    });

    it('filters by property_id', async () => {
      const listingId = await attach(mine[1]!.id, 'draft');
      const res = await list(`?property_id=${listingId}`, lister);
      expect(res.json().data.media.map((m: MediaRecord) => m.id)).toEqual([mine[1]!.id]);
      expect(res.json().data.pagination.total_records).toBe(1);
      expect((await list(`?property_id=${listingId}`, stranger)).json().data.media).toEqual([]);
    });

    it('shows moderators only their own uploads here', async () => {
      const { auth: moderator } = await newSignedInUser(t, { role: 'administrator' });
      const res = await list('', moderator);
      expect(res.json().data).toMatchObject({ media: [], pagination: { total_records: 0, total_pages: 0 } });
    });

    it('refuses bad paging and unknown parameters (400), and anonymous callers (401)', async () => {
      for (const query of ['?per_page=101', '?per_page=0', '?page=0', '?page=x', '?property_id=0', '?owner_id=1']) {
        expectCode(await list(query, lister), 400, 'validation_failed');
      }
      expectCode(await list('', {}), 401, 'unauthorized');
    });
  });
});
