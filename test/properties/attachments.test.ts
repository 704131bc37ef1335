import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema/index.js';
import type { MediaRecord } from '../../src/modules/media/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newListing, newMedia, newUser, signIn, unique } from '../helpers/factories.js';
import { API, image, multipart, PDF, tempUploadDir } from '../media/media-fixtures.js';

type Auth = Record<string, string>;

const errorsOf = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(400);
  return res.json().errors as { field: string; message: string }[];
};

describeEachDialect('a listing’s attachments (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;
  let seller: UserRow;
  let other: UserRow;
  let sellerAuth: Auth;
  let otherAuth: Auth;
  let adminAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads.dir });
    seller = await newUser(t.database.db, { role: 'seller' });
    other = await newUser(t.database.db, { role: 'seller' });
    [sellerAuth, otherAuth, adminAuth] = await Promise.all([
      signIn(t.app, seller),
      signIn(t.app, other),
      signIn(t.app, await newUser(t.database.db, { role: 'administrator' })),
    ]);
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  const upload = async (auth: Auth, data: Buffer, title = ''): Promise<MediaRecord> => {
    const body = await multipart([['file', { data }], ...(title ? ([['title', title]] as [string, string][]) : [])]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/media/upload`,
      headers: { ...auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  const post = (auth: Auth, payload: object) => t.app.inject({ method: 'POST', url: `${API}/properties`, headers: auth, payload });
  const put = (auth: Auth, id: number, payload: object) =>
    t.app.inject({ method: 'PUT', url: `${API}/properties/${id}`, headers: auth, payload });
  const read = async (id: number, auth: Auth = {}) => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/properties/${id}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const pdfMedia = (ownerId: number, overrides: object = {}) =>
    newMedia(t.database.db, ownerId, {
      mime_type: 'application/pdf',
      width: null,
      height: null,
      storage_key: `${unique('test/')}.pdf`,
      ...overrides,
    });

  it('creates a listing with its documents in order, beside its gallery, and reads them back', async () => {
    const brochure = await upload(sellerAuth, PDF, 'Brochure');
    const plans = await upload(sellerAuth, PDF, 'Plans');
    const photo = await upload(sellerAuth, await image('jpeg', 40, 30));
    const res = await post(sellerAuth, { title: 'Villa with a brochure', media_ids: [photo.id], attachment_ids: [plans.id, brochure.id] });
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json().data;
    const expected = [
      { id: plans.id, url: plans.url, title: 'Plans', mime_type: 'application/pdf' },
      { id: brochure.id, url: brochure.url, title: 'Brochure', mime_type: 'application/pdf' },
    ];
    expect(record.attachments).toEqual(expected);
    expect(record.gallery.map((media: MediaRecord) => media.id)).toEqual([photo.id]);
    expect((await read(record.id, sellerAuth)).attachments).toEqual(expected);
    // Summaries carry no attachments, and a document never shows in a gallery.
    expect((await put(adminAuth, record.id, { status: 'publish' })).statusCode).toBe(200);
    const list = await t.app.inject({ method: 'GET', url: `${API}/properties?per_page=100` });
    const summary = list.json().data.properties.find((listing: { id: number }) => listing.id === record.id);
    expect(summary).toBeDefined();
    expect(summary).not.toHaveProperty('attachments');
    expect(summary.gallery.map((media: MediaRecord) => media.id)).toEqual([photo.id]);
    const media = await t.app.inject({ method: 'GET', url: `${API}/properties/${record.id}/media`, headers: sellerAuth });
    expect(media.json().data.media.map((item: MediaRecord) => item.id)).toEqual([photo.id]);
  });

  it('updates the documents without touching the gallery, and the gallery without touching the documents', async () => {
    const first = await upload(sellerAuth, PDF, 'First');
    const second = await upload(sellerAuth, PDF, 'Second');
    const photo = await upload(sellerAuth, await image('jpeg', 40, 30));
    const created = (await post(sellerAuth, { title: 'Flat with papers', media_ids: [photo.id], attachment_ids: [first.id] })).json().data;
    const updated = await put(sellerAuth, created.id, { attachment_ids: [second.id, first.id] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data.attachments.map((item: { id: number }) => item.id)).toEqual([second.id, first.id]);
    expect(updated.json().data.gallery.map((item: MediaRecord) => item.id)).toEqual([photo.id]);
    const noPhotos = await put(sellerAuth, created.id, { media_ids: [] });
    expect(noPhotos.json().data.gallery).toEqual([]);
    expect(noPhotos.json().data.attachments.map((item: { id: number }) => item.id)).toEqual([second.id, first.id]);
    // Dropped documents are detached, kept as the caller's uploads, free for another listing.
    const dropped = await put(sellerAuth, created.id, { attachment_ids: [second.id] });
    expect(dropped.json().data.attachments.map((item: { id: number }) => item.id)).toEqual([second.id]);
    const row = await t.database.db.selectFrom('media').select('listing_id').where('id', '=', first.id).executeTakeFirstOrThrow();
    expect(row.listing_id).toBeNull();
  });

  it('refuses another user’s document, one in another listing, a missing one and an image, naming each', async () => {
    const others = await pdfMedia(other.id);
    const elsewhere = await pdfMedia(seller.id, { listing_id: await newListing(t.database.db, { author_id: seller.id }) });
    const photo = await upload(sellerAuth, await image('jpeg', 40, 30));
    const mine = await upload(sellerAuth, PDF);
    const errors = errorsOf(
      await post(sellerAuth, { title: 'Borrowed papers', attachment_ids: [mine.id, others.id, elsewhere.id, photo.id, 2_147_483_647] }),
    );
    const notYours = 'must be one of your uploads that is not in another listing';
    expect(errors).toEqual([
      { field: 'attachment_ids.1', message: notYours },
      { field: 'attachment_ids.2', message: notYours },
      { field: 'attachment_ids.3', message: 'must be a PDF document' },
      { field: 'attachment_ids.4', message: notYours },
    ]);
    // A document is no picture either.
    expect(errorsOf(await post(sellerAuth, { title: 'PDF as a photo', media_ids: [mine.id] }))).toEqual([
      { field: 'media_ids.0', message: 'must be an image' },
    ]);
    // Nothing was attached by the refused requests.
    const row = await t.database.db.selectFrom('media').select('listing_id').where('id', '=', mine.id).executeTakeFirstOrThrow();
    expect(row.listing_id).toBeNull();
  });

  it('refuses a deleted document, and a listing loses one its owner deletes', async () => {
    const kept = await upload(sellerAuth, PDF, 'Kept');
    const gone = await upload(sellerAuth, PDF, 'Gone');
    const created = (await post(sellerAuth, { title: 'House with two papers', attachment_ids: [kept.id, gone.id] })).json().data;
    const deleted = await t.app.inject({ method: 'DELETE', url: `${API}/media/${gone.id}`, headers: sellerAuth });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await read(created.id, sellerAuth)).attachments.map((item: { id: number }) => item.id)).toEqual([kept.id]);
    expect(errorsOf(await put(sellerAuth, created.id, { attachment_ids: [kept.id, gone.id] }))).toEqual([
      { field: 'attachment_ids.1', message: 'must be one of your uploads that is not in another listing' },
    ]);
  });

  it('lets another user neither change the documents nor take them; an administrator may use the author’s', async () => {
    const paper = await upload(sellerAuth, PDF, 'Paper');
    const created = (await post(sellerAuth, { title: 'House with a paper', attachment_ids: [paper.id] })).json().data;
    const taken = await put(otherAuth, created.id, { attachment_ids: [] });
    expect([403, 404]).toContain(taken.statusCode);
    const theirs = errorsOf(await post(otherAuth, { title: 'Stolen paper', attachment_ids: [paper.id] }));
    expect(theirs).toEqual([{ field: 'attachment_ids.0', message: 'must be one of your uploads that is not in another listing' }]);
    const free = await upload(sellerAuth, PDF, 'Free');
    const byAdmin = await put(adminAuth, created.id, { attachment_ids: [paper.id, free.id] });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json().data.attachments.map((item: { id: number }) => item.id)).toEqual([paper.id, free.id]);
  });

  it('refuses more than 20 documents and a repeated id', async () => {
    const ids = Array.from({ length: 21 }, (_, n) => n + 1);
    expect(errorsOf(await post(sellerAuth, { title: 'Too many papers', attachment_ids: ids }))).toEqual([
      { field: 'attachment_ids', message: 'must have at most 20 items' },
    ]);
    const paper = await upload(sellerAuth, PDF);
    expect(
      errorsOf(await post(sellerAuth, { title: 'Twice the paper', attachment_ids: [paper.id, paper.id] })).map((error) => error.field),
    ).toEqual(['attachment_ids']);
  });
});
