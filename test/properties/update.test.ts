import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newAgencyWithAgent, newListing, newMedia, newTerm, newUser, signIn, tokenFor } from '../helpers/factories.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

const ref = (term: TermRecord) => ({ id: term.id, name: term.name, slug: term.slug });
const idsOf = (items: { id: number }[]) => items.map((item) => item.id);

function errorFields(res: LightMyRequestResponse): string[] {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ success: false, code: 'validation_failed' });
  return (res.json().errors as { field: string }[]).map((e) => e.field).sort();
}

describeEachDialect('PUT /properties/{id} (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;
  let sellerAuth: Auth;
  let otherSellerAuth: Auth;
  let buyerAuth: Auth;
  let admin: UserRow;
  let adminAuth: Auth;
  let managerAuth: Auth;
  let villa: TermRecord;
  let flat: TermRecord;
  let pool: TermRecord;
  let garden: TermRecord;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    seller = await newUser(db, { role: 'seller' });
    admin = await newUser(db, { role: 'administrator' });
    [sellerAuth, otherSellerAuth, buyerAuth, adminAuth, managerAuth] = await Promise.all([
      signIn(t.app, seller),
      signIn(t.app, await newUser(db, { role: 'seller' })),
      signIn(t.app, await newUser(db, { role: 'buyer' })),
      signIn(t.app, admin),
      signIn(t.app, await newUser(db, { role: 'manager' })),
    ]);
    villa = await newTerm(t.services.taxonomies, 'property_type');
    flat = await newTerm(t.services.taxonomies, 'property_type');
    pool = await newTerm(t.services.taxonomies, 'property_feature');
    garden = await newTerm(t.services.taxonomies, 'property_feature');
  });
  afterAll(() => t.close());

  const put = (auth: Auth | undefined, id: number, payload: object) =>
    t.app.inject({ method: 'PUT', url: `${API}/properties/${id}`, headers: auth ?? {}, payload });
  const update = async (auth: Auth, id: number, payload: object) => {
    const res = await put(auth, id, payload);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().success).toBe(true);
    return res.json().data;
  };
  const create = async (auth: Auth, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url: `${API}/properties`, headers: auth, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  const read = async (auth: Auth, id: number) =>
    (await t.app.inject({ method: 'GET', url: `${API}/properties/${id}`, headers: auth })).json().data;
  const stateOf = async (id: number) =>
    (await db.selectFrom('listings').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const history = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `${API}/properties/${id}/history`, headers: adminAuth })).json().data.history as {
      from: ListingState | null;
      to: ListingState;
      actor: { id: number };
    }[];

  describe('partial updates', () => {
    it('changes only the fields sent; the rest stay as they were', async () => {
      const image = await newMedia(db, seller.id);
      const before = await create(sellerAuth, {
        title: 'Original title',
        description: '<p>Original</p>',
        price: 1000,
        bedrooms: 2,
        type_ids: [villa.id],
        feature_ids: [pool.id],
        country: 'Italy',
        city: 'Rome',
        media_ids: [image.id],
        video_url: 'https://video.example/a',
        additional_features: [{ title: 'Deposit', value: '1 month' }],
      });
      const after = await update(sellerAuth, before.id, { title: '  New <em>title</em> ', bathrooms: 1 });
      expect(after).toEqual({
        ...before,
        title: 'New title',
        bathrooms: 1,
        updated_at: expect.stringMatching(/Z$/),
      });
      expect(after.slug).toBe(before.slug); // the address of the listing does not move
      expect(await read(sellerAuth, before.id)).toEqual(after);
    });

    it('clears optional values sent as null', async () => {
      const before = await create(sellerAuth, {
        title: 'To clear',
        price: 500,
        bedrooms: 3,
        year_built: 1990,
        latitude: 10,
        country: 'France',
      });
      const after = await update(sellerAuth, before.id, { price: null, bedrooms: null, year_built: null, latitude: null, country: null });
      expect(after).toMatchObject({ price: null, formatted_price: '', bedrooms: null, year_built: null });
      expect(after.address).toMatchObject({ latitude: null, country: null });
    });

    it('replaces arrays as sent, in the new order', async () => {
      const before = await create(sellerAuth, {
        title: 'Arrays',
        type_ids: [villa.id],
        feature_ids: [pool.id, garden.id],
        floor_plans: [{ title: 'One' }, { title: 'Two' }],
        additional_features: [{ title: 'A', value: '1' }],
      });
      const after = await update(sellerAuth, before.id, {
        type_ids: [flat.id],
        feature_ids: [garden.id, pool.id],
        floor_plans: [{ title: 'Only' }],
        additional_features: [],
      });
      expect(after.property_type).toEqual([ref(flat)]);
      expect(after.features).toEqual([ref(garden), ref(pool)]);
      expect(after.floor_plans.map((plan: { title: string }) => plan.title)).toEqual(['Only']);
      expect(after.additional_features).toEqual([]);
      expect((await update(sellerAuth, before.id, { feature_ids: [] })).features).toEqual([]);
    });

    it('moves term counts with the links of a published listing', async () => {
      const counted = await newTerm(t.services.taxonomies, 'property_type');
      const next = await newTerm(t.services.taxonomies, 'property_type');
      const listing = await create(adminAuth, { title: 'Counts', type_ids: [counted.id] });
      await update(adminAuth, listing.id, { type_ids: [next.id] });
      const res = await t.app.inject({ method: 'GET', url: `${API}/property-types?include=${counted.id},${next.id}&orderby=id` });
      expect(res.json().data.property_types.map((term: TermRecord) => term.count)).toEqual([0, 1]);
    });

    it('creates a location name under the listing’s current parent when the parent is not sent', async () => {
      const before = await create(sellerAuth, { title: 'Places', country: 'Greece', state: 'Attica' });
      const after = await update(sellerAuth, before.id, { city: 'Athens' });
      expect(after.address.state).toEqual(before.address.state);
      const city = await db
        .selectFrom('terms')
        .select('location_parent_id')
        .where('id', '=', after.address.city.id)
        .executeTakeFirstOrThrow();
      expect(city.location_parent_id).toBe(before.address.state.id);
    });

    it('applies the same rules as create', async () => {
      const listing = await create(sellerAuth, { title: 'Rules' });
      expect(errorFields(await put(sellerAuth, listing.id, { title: 'ab', price: -1, latitude: 91, video_url: 'javascript:x' }))).toEqual([
        'latitude',
        'price',
        'title',
        'video_url',
      ]);
      expect(errorFields(await put(sellerAuth, listing.id, { colour: 'red' }))).toEqual(['colour']);
      expect(errorFields(await put(sellerAuth, listing.id, { type_ids: [pool.id], city: 999_999 }))).toEqual(['city', 'type_ids.0']);
      expect(errorFields(await put(sellerAuth, listing.id, { year_built: new Date().getUTCFullYear() + 6 }))).toEqual(['year_built']);
      expect(errorFields(await put(sellerAuth, listing.id, { title: null }))).toEqual(['title']);
      // Nothing of a refused update was written.
      expect((await read(sellerAuth, listing.id)).title).toBe('Rules');
    });
  });

  describe('gallery', () => {
    it('reorders the gallery and keeps the chosen featured image', async () => {
      const [a, b, c] = [await newMedia(db, seller.id), await newMedia(db, seller.id), await newMedia(db, seller.id)];
      const listing = await create(sellerAuth, { title: 'Gallery', media_ids: [a.id, b.id, c.id], featured_image_id: b.id });
      const after = await update(sellerAuth, listing.id, { media_ids: [c.id, a.id, b.id] });
      expect(idsOf(after.gallery)).toEqual([c.id, a.id, b.id]);
      expect(after.featured_image.id).toBe(b.id);
      const gallery = await t.app.inject({ method: 'GET', url: `${API}/properties/${listing.id}/media`, headers: sellerAuth });
      expect(idsOf(gallery.json().data.media)).toEqual([c.id, a.id, b.id]);
    });

    it('drops the featured image with its gallery entry; the dropped image is a free upload again', async () => {
      const [a, b] = [await newMedia(db, seller.id), await newMedia(db, seller.id)];
      const listing = await create(sellerAuth, { title: 'Dropping', media_ids: [a.id, b.id], featured_image_id: b.id });
      const after = await update(sellerAuth, listing.id, { media_ids: [a.id] });
      expect(idsOf(after.gallery)).toEqual([a.id]);
      expect(after.featured_image.id).toBe(a.id); // the first image stands in
      const row = await db.selectFrom('listings').select('featured_image_id').where('id', '=', listing.id).executeTakeFirstOrThrow();
      expect(row.featured_image_id).toBeNull();
      // b was detached, not deleted: it may go into another listing.
      expect(idsOf((await create(sellerAuth, { title: 'Reuse', media_ids: [b.id] })).gallery)).toEqual([b.id]);

      const emptied = await update(sellerAuth, listing.id, { media_ids: [] });
      expect(emptied.gallery).toEqual([]);
      expect(emptied.featured_image).toBeNull();
    });

    it('sets and clears the featured image on its own, checked against the current gallery', async () => {
      const [a, b, outside] = [await newMedia(db, seller.id), await newMedia(db, seller.id), await newMedia(db, seller.id)];
      const listing = await create(sellerAuth, { title: 'Featured', media_ids: [a.id, b.id] });
      expect((await update(sellerAuth, listing.id, { featured_image_id: b.id })).featured_image.id).toBe(b.id);
      expect((await update(sellerAuth, listing.id, { featured_image_id: null })).featured_image.id).toBe(a.id);
      expect(errorFields(await put(sellerAuth, listing.id, { featured_image_id: outside.id }))).toEqual(['featured_image_id']);
      // A new gallery with a featured image of it, in one request.
      const both = await update(sellerAuth, listing.id, { media_ids: [outside.id, a.id], featured_image_id: a.id });
      expect([idsOf(both.gallery), both.featured_image.id]).toEqual([[outside.id, a.id], a.id]);
    });

    it('refuses others’ uploads and images of other listings; a moderator may use the author’s uploads', async () => {
      const other = await newUser(db, { role: 'seller' });
      const listing = await create(sellerAuth, { title: 'Borrowing' });
      const othersImage = await newMedia(db, other.id);
      const elsewhere = await newMedia(db, seller.id, { listing_id: await newListing(db, { author_id: seller.id }) });
      expect(errorFields(await put(sellerAuth, listing.id, { media_ids: [othersImage.id, elsewhere.id] }))).toEqual([
        'media_ids.0',
        'media_ids.1',
      ]);

      const authorsImage = await newMedia(db, seller.id);
      expect(idsOf((await update(adminAuth, listing.id, { media_ids: [authorsImage.id] })).gallery)).toEqual([authorsImage.id]);
      expect(errorFields(await put(adminAuth, listing.id, { media_ids: [othersImage.id] }))).toEqual(['media_ids.0']);
    });
  });

  describe('moderator fields', () => {
    it('refuses status, featured, author_id, views and expires_at from the owner', async () => {
      const listing = await create(sellerAuth, { title: 'Mass assignment' });
      const res = await put(sellerAuth, listing.id, { status: 'publish', featured: true, author_id: admin.id, views: 9, expires_at: null });
      expect(errorFields(res)).toEqual(['author_id', 'expires_at', 'featured', 'status', 'views']);
      expect(await stateOf(listing.id)).toBe('pending');
    });

    it('lets a moderator set them, recording a state change in the history', async () => {
      const listing = await create(sellerAuth, { title: 'Moderated' });
      const after = await update(managerAuth, listing.id, {
        status: 'publish',
        featured: true,
        views: 7,
        expires_at: '2031-05-01T00:00:00Z',
      });
      expect(after).toMatchObject({ status: 'publish', featured: true, views: 7, expires_at: '2031-05-01T00:00:00Z' });
      expect(after.published_at).toMatch(/Z$/);
      expect((await history(listing.id)).map((h) => [h.from, h.to])).toEqual([
        [null, 'pending'],
        ['pending', 'publish'],
      ]);
      expect((await update(adminAuth, listing.id, { expires_at: null, featured: false })).expires_at).toBeNull();
    });
  });

  describe('draft', () => {
    it('`draft: false` submits a draft (pending while approval is required), recorded in the history', async () => {
      const draft = await create(sellerAuth, { title: 'Draft', draft: true });
      const after = await update(sellerAuth, draft.id, { draft: false, price: 10 });
      expect(after).toMatchObject({ status: 'pending', price: 10, published_at: null });
      expect((await history(draft.id)).map((h) => [h.from, h.to])).toEqual([
        [null, 'draft'],
        ['draft', 'pending'],
      ]);
    });

    it('a moderator’s `draft: false` publishes the draft', async () => {
      const draft = await create(sellerAuth, { title: 'Draft for admin', draft: true });
      const after = await update(adminAuth, draft.id, { draft: false });
      expect(after.status).toBe('publish');
      expect(after.published_at).toMatch(/Z$/);
    });

    it('`draft: true` keeps a draft a draft, and is a conflict on any other state', async () => {
      const draft = await create(sellerAuth, { title: 'Kept draft', draft: true });
      expect((await update(sellerAuth, draft.id, { draft: true, title: 'Still drafting' })).status).toBe('draft');
      const pending = await create(sellerAuth, { title: 'Pending' });
      const res = await put(sellerAuth, pending.id, { draft: true, title: 'Back to draft?' });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ success: false, code: 'invalid_transition' });
      expect((await read(sellerAuth, pending.id)).title).toBe('Pending');
    });

    it('`draft: false` on a listing that is not a draft changes nothing', async () => {
      const listing = await create(adminAuth, { title: 'Published' });
      expect((await update(adminAuth, listing.id, { draft: false })).status).toBe('publish');
    });
  });

  describe('EDIT_REQUIRES_APPROVAL', () => {
    it('is off by default: an owner’s edit of a published listing stays published', async () => {
      const id = await newListing(db, { author_id: seller.id, status: 'publish' });
      expect((await update(sellerAuth, id, { title: 'Edited live' })).status).toBe('publish');
      expect(await history(id)).toEqual([]);
    });

    describe('when on', () => {
      let strict: TestApp;
      let owner: UserRow;
      let ownerAuth: Auth;
      let strictAdminAuth: Auth;
      beforeAll(async () => {
        strict = await buildTestApp(dialect, { EDIT_REQUIRES_APPROVAL: 'true' });
        owner = await newUser(strict.database.db, { role: 'owner' });
        ownerAuth = bearer(await tokenFor(strict.app, owner));
        strictAdminAuth = bearer(await tokenFor(strict.app, await newUser(strict.database.db, { role: 'administrator' })));
      });
      afterAll(() => strict.close());

      const edit = (auth: Auth, id: number, payload: object) =>
        strict.app.inject({ method: 'PUT', url: `${API}/properties/${id}`, headers: auth, payload });

      it('sends an owner’s edit of a published listing back to pending, with a history entry', async () => {
        const id = await newListing(strict.database.db, { author_id: owner.id, status: 'publish' });
        const res = await edit(ownerAuth, id, { price: 99 });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data).toMatchObject({ status: 'pending', price: 99 });
        const log = await strict.app.inject({ method: 'GET', url: `${API}/properties/${id}/history`, headers: ownerAuth });
        expect(log.json().data.history).toEqual([
          {
            from: 'publish',
            to: 'pending',
            actor: { id: owner.id, display_name: owner.display_name },
            reason: '',
            at: res.json().data.updated_at,
          },
        ]);
        // Now only the owner and moderators see it.
        expect((await strict.app.inject({ method: 'GET', url: `${API}/properties/${id}` })).statusCode).toBe(404);
      });

      it('leaves a published listing alone when a PUT changes nothing', async () => {
        const id = await newListing(strict.database.db, { author_id: owner.id, status: 'publish' });
        const before = (await edit(strictAdminAuth, id, {})).json().data;
        const res = await edit(ownerAuth, id, {});
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data).toMatchObject({ status: 'publish', updated_at: before.updated_at });
      });

      it('leaves other states alone, and a moderator’s edit keeps a listing published', async () => {
        const pending = await newListing(strict.database.db, { author_id: owner.id, status: 'pending' });
        expect((await edit(ownerAuth, pending, { price: 1 })).json().data.status).toBe('pending');
        const onHold = await newListing(strict.database.db, { author_id: owner.id, status: 'on_hold' });
        expect((await edit(ownerAuth, onHold, { price: 1 })).json().data.status).toBe('on_hold');
        const published = await newListing(strict.database.db, { author_id: owner.id, status: 'publish' });
        const res = await edit(strictAdminAuth, published, { price: 2 });
        expect(res.json().data).toMatchObject({ status: 'publish', price: 2 });
      });
    });
  });

  describe('permissions', () => {
    it('lets the agency edit its agent’s listing, and the agent too', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      const id = await newListing(db, { author_id: agentUser.id, status: 'pending' });
      expect((await update(bearer(await tokenFor(t.app, agencyUser)), id, { title: 'By the agency' })).title).toBe('By the agency');
      expect((await update(bearer(await tokenFor(t.app, agentUser)), id, { title: 'By the agent' })).title).toBe('By the agent');
    });

    it('lets administrators and managers edit any listing', async () => {
      const id = await newListing(db, { author_id: seller.id, status: 'disapproved' });
      expect((await update(adminAuth, id, { title: 'Admin edit' })).title).toBe('Admin edit');
      expect((await update(managerAuth, id, { title: 'Manager edit' })).title).toBe('Manager edit');
      expect(await stateOf(id)).toBe('disapproved');
    });

    it('answers 403 to others on a listing they can see, 404 on one they cannot', async () => {
      for (const status of ['publish', 'sold'] as const) {
        const id = await newListing(db, { author_id: seller.id, status, title: 'Untouched' });
        for (const auth of [otherSellerAuth, buyerAuth]) {
          const res = await put(auth, id, { title: 'Hijacked' });
          expect(res.statusCode, res.body).toBe(403);
          expect(res.json()).toMatchObject({ success: false, code: 'forbidden' });
        }
        expect((await read(adminAuth, id)).title).toBe('Untouched');
      }
      for (const status of ['pending', 'draft', 'disapproved', 'on_hold', 'expired'] as const) {
        const id = await newListing(db, { author_id: seller.id, status });
        const res = await put(otherSellerAuth, id, { title: 'Hijacked' });
        expect(res.statusCode, `${status}: ${res.body}`).toBe(404);
        expect(res.json()).toMatchObject({ success: false, code: 'not_found' });
      }
    });

    it('checks permissions before the body: a stranger learns nothing from validation errors', async () => {
      const id = await newListing(db, { author_id: seller.id, status: 'pending' });
      expect((await put(otherSellerAuth, id, { type_ids: [999_999] })).statusCode).toBe(404);
      const published = await newListing(db, { author_id: seller.id, status: 'publish' });
      expect((await put(otherSellerAuth, published, { type_ids: [999_999] })).statusCode).toBe(403);
    });

    it('answers 401 without a token, 404 for an unknown id and 400 for a malformed one', async () => {
      const id = await newListing(db, { author_id: seller.id });
      expect((await put(undefined, id, { title: 'Anonymous' })).statusCode).toBe(401);
      expect((await put(sellerAuth, 999_999, { title: 'Nothing' })).statusCode).toBe(404);
      expect((await put(sellerAuth, 0, { title: 'Zero' })).statusCode).toBe(400);
    });
  });
});
