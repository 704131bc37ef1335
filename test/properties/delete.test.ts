import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import type { MediaRecord } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import {
  addFavorite,
  bearer,
  links,
  newAgencyWithAgent,
  newListing,
  newMedia,
  newTerm,
  newUser,
  signIn,
  tokenFor,
} from '../helpers/factories.js';
import { API, image, keyOf, multipart, tempUploadDir } from '../media/media-fixtures.js';

type Auth = Record<string, string>;

describeEachDialect('DELETE /properties/{id} (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;
  let sellerAuth: Auth;
  let otherSellerAuth: Auth;
  let buyerAuth: Auth;
  let adminAuth: Auth;
  let managerAuth: Auth;
  let jpeg: Buffer;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { UPLOAD_DIR: uploads.dir });
    db = t.database.db;
    seller = await newUser(db, { role: 'seller' });
    [sellerAuth, otherSellerAuth, buyerAuth, adminAuth, managerAuth] = await Promise.all([
      signIn(t.app, seller),
      signIn(t.app, await newUser(db, { role: 'seller' })),
      signIn(t.app, await newUser(db, { role: 'buyer' })),
      signIn(t.app, await newUser(db, { role: 'administrator' })),
      signIn(t.app, await newUser(db, { role: 'manager' })),
    ]);
    jpeg = await image('jpeg', 800, 600);
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  const del = (auth: Auth | undefined, id: number) =>
    t.app.inject({ method: 'DELETE', url: `${API}/properties/${id}`, headers: auth ?? {} });
  const upload = async (auth: Auth): Promise<MediaRecord> => {
    const body = await multipart([['file', { data: jpeg, filename: 'house.jpg', type: 'image/jpeg' }]]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/media/upload`,
      headers: { ...auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  /** The files of a media record on disk: the original and each size. */
  const filesOf = (media: MediaRecord) =>
    [media.url, ...Object.values(media.sizes).map((size) => size.url)].map((url) => path.join(uploads.dir, keyOf(url, '/uploads/')));
  const listingWithGallery = async (auth: Auth, count: number, extra: object = {}) => {
    const gallery = [];
    for (let i = 0; i < count; i++) gallery.push(await upload(auth));
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/properties`,
      headers: auth,
      payload: { title: 'With gallery', media_ids: gallery.map((m) => m.id), ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().data.id as number, gallery };
  };
  const exists = async (id: number) => (await db.selectFrom('listings').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('deletes the listing with its gallery rows and files, answering 200', async () => {
    const { id, gallery } = await listingWithGallery(sellerAuth, 2);
    const files = gallery.flatMap(filesOf);
    expect(files).toHaveLength(8); // original, thumbnail, medium, large of each
    expect(files.every((file) => existsSync(file))).toBe(true);
    const unrelated = await upload(sellerAuth);

    const res = await del(sellerAuth, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { id, deleted: true }, message: 'The listing was deleted.' });

    expect(await exists(id)).toBe(false);
    expect(
      await db
        .selectFrom('media')
        .select('id')
        .where(
          'id',
          'in',
          gallery.map((m) => m.id),
        )
        .execute(),
    ).toEqual([]);
    expect(files.filter((file) => existsSync(file))).toEqual([]);
    // The caller's other uploads are untouched.
    expect(filesOf(unrelated).every((file) => existsSync(file))).toBe(true);

    expect((await t.app.inject({ method: 'GET', url: `${API}/properties/${id}`, headers: sellerAuth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${API}/properties/${id}/media`, headers: sellerAuth })).statusCode).toBe(404);
    expect((await del(sellerAuth, id)).statusCode).toBe(404);
  });

  it('keeps a file that another media row still uses', async () => {
    const { id, gallery } = await listingWithGallery(sellerAuth, 2);
    const [shared, own] = gallery as [MediaRecord, MediaRecord];
    const sharedRow = await db.selectFrom('media').selectAll().where('id', '=', shared.id).executeTakeFirstOrThrow();
    // Another user's media row on the same stored file (as demo data shares generated images).
    const other = await newUser(db, { role: 'seller' });
    const twin = await newMedia(db, other.id, { storage_key: sharedRow.storage_key, sizes: sharedRow.sizes });

    expect((await del(sellerAuth, id)).statusCode).toBe(200);
    expect(filesOf(shared).every((file) => existsSync(file))).toBe(true);
    expect(filesOf(own).filter((file) => existsSync(file))).toEqual([]);

    // Once the last row using it goes, so does the file.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${API}/media/${twin.id}`, headers: bearer(await tokenFor(t.app, other)) })).statusCode,
    ).toBe(200);
    expect(filesOf(shared).filter((file) => existsSync(file))).toEqual([]);
  });

  it('keeps a file shared with another listing’s gallery', async () => {
    const first = await listingWithGallery(sellerAuth, 1);
    const row = await db.selectFrom('media').selectAll().where('id', '=', first.gallery[0]!.id).executeTakeFirstOrThrow();
    const second = await newListing(db, { author_id: seller.id });
    await newMedia(db, seller.id, { storage_key: row.storage_key, sizes: row.sizes, listing_id: second });
    expect((await del(sellerAuth, first.id)).statusCode).toBe(200);
    expect(filesOf(first.gallery[0]!).every((file) => existsSync(file))).toBe(true);
    const gallery = await t.app.inject({ method: 'GET', url: `${API}/properties/${second}/media`, headers: sellerAuth });
    expect(gallery.json().data.media).toHaveLength(1);
  });

  it('removes the listing from term counts, favorites and its history', async () => {
    const type = await newTerm(t.services.taxonomies, 'property_type');
    const id = await newListing(db, { author_id: seller.id, status: 'publish', terms: links('property_type', type) });
    const fan = await newUser(db);
    await addFavorite(db, fan.id, id);
    const count = async () =>
      (await t.app.inject({ method: 'GET', url: `${API}/property-types?include=${type.id}` })).json().data.property_types[0].count;
    expect(await count()).toBe(1);
    // Two moves, so that the listing has a history to lose.
    expect((await t.app.inject({ method: 'POST', url: `${API}/users/hold-property/${id}`, headers: sellerAuth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `${API}/users/live-property/${id}`, headers: sellerAuth })).statusCode).toBe(200);
    expect(await db.selectFrom('listing_transitions').select('id').where('listing_id', '=', id).execute()).toHaveLength(2);

    expect((await del(sellerAuth, id)).statusCode).toBe(200);
    expect(await count()).toBe(0);
    expect(await db.selectFrom('favorites').select('user_id').where('listing_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('listing_transitions').select('id').where('listing_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('listing_terms').select('term_id').where('listing_id', '=', id).execute()).toEqual([]);
    const list = await t.app.inject({ method: 'GET', url: `${API}/properties?per_page=100` });
    expect(list.json().data.properties.map((p: { id: number }) => p.id)).not.toContain(id);
  });

  describe('permissions', () => {
    it('lets the agency delete its agent’s listing', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      const id = await newListing(db, { author_id: agentUser.id, status: 'pending' });
      expect((await del(bearer(await tokenFor(t.app, agencyUser)), id)).statusCode).toBe(200);
      expect(await exists(id)).toBe(false);
    });

    it('lets administrators and managers delete any listing, with its author’s gallery files', async () => {
      const { id, gallery } = await listingWithGallery(sellerAuth, 1);
      expect((await del(managerAuth, id)).statusCode).toBe(200);
      expect(filesOf(gallery[0]!).filter((file) => existsSync(file))).toEqual([]);
      const other = await newListing(db, { author_id: seller.id, status: 'draft' });
      expect((await del(adminAuth, other)).statusCode).toBe(200);
      expect(await exists(other)).toBe(false);
    });

    it('answers 403 to others on a public listing and 404 on a hidden one, deleting nothing', async () => {
      const states: ListingState[] = ['publish', 'sold', 'pending', 'draft', 'on_hold', 'disapproved', 'expired'];
      for (const status of states) {
        const { id, gallery } = await listingWithGallery(sellerAuth, 1);
        await db.updateTable('listings').set({ status }).where('id', '=', id).execute();
        const expected = status === 'publish' || status === 'sold' ? [403, 'forbidden'] : [404, 'not_found'];
        for (const auth of [otherSellerAuth, buyerAuth]) {
          const res = await del(auth, id);
          expect([res.statusCode, res.json().code], status).toEqual(expected);
        }
        expect(await exists(id)).toBe(true);
        expect(filesOf(gallery[0]!).every((file) => existsSync(file))).toBe(true);
      }
    });

    it('answers 401 without a token and 404 for an unknown listing', async () => {
      const id = await newListing(db, { author_id: seller.id });
      expect((await del(undefined, id)).statusCode).toBe(401);
      expect(await exists(id)).toBe(true);
      const res = await del(sellerAuth, 999_999);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, code: 'not_found' });
    });
  });
});
