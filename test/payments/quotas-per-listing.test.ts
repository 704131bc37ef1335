import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newAgencyWithAgent, newListing, tokenFor } from '../helpers/factories.js';
import { type FilePart, image, multipart, tempUploadDir } from '../media/media-fixtures.js';
import {
  API,
  type Auth,
  creditsOf,
  expectError,
  listingCount,
  listingRow,
  MESSAGES,
  newInvoice,
  newMembership,
  signedIn,
} from './quotas-fixtures.js';

/** Requests shared by the modes below. */
function requests(t: () => TestApp) {
  return {
    create: (auth: Auth, payload: object = { title: 'A paid listing' }) =>
      t().app.inject({ method: 'POST', url: `${API}/properties`, headers: auth, payload }),
    put: (auth: Auth, id: number, payload: object, query = '') =>
      t().app.inject({ method: 'PUT', url: `${API}/properties/${id}${query}`, headers: auth, payload }),
    act: (auth: Auth, id: number, action: string) =>
      t().app.inject({ method: 'POST', url: `${API}/users/property-actions`, headers: auth, payload: { property_id: id, action } }),
  };
}

describeEachDialect('quotas in PAYMENT_MODE=per_listing with a listing fee (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;
  let db: Kysely<DB>;
  let adminAuth: Auth;
  let managerAuth: Auth;
  const { create, put, act } = requests(() => t);

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PAYMENT_MODE: 'per_listing', LISTING_PRICE: '10', FEATURED_PRICE: '5', UPLOAD_DIR: uploads.dir });
    db = t.database.db;
    adminAuth = (await signedIn(t, 'administrator')).auth;
    managerAuth = (await signedIn(t, 'manager')).auth;
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  const draftOf = async (author: { auth: Auth }) => {
    const res = await create(author.auth, { title: 'Awaiting its fee' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  const listing = (author: UserRow, status: ListingState, featured = 0) => newListing(db, { status, author_id: author.id, featured });

  describe('creating', () => {
    it('a non-moderator’s new listing is a draft awaiting its fee, whatever `draft` says', async () => {
      const seller = await signedIn(t, 'seller');
      for (const draft of [false, true, undefined]) {
        const res = await create(seller.auth, { title: 'Paid per listing', ...(draft === undefined ? {} : { draft }) });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toMatchObject({ success: true, data: { status: 'draft', published_at: null, author: { id: seller.user.id } } });
      }
    });

    it('needs no membership, and spends nothing of one', async () => {
      const seller = await signedIn(t, 'owner');
      await newMembership(db, seller.user.id, { remaining_listings: 1, remaining_featured: 1 });
      expect((await create(seller.auth)).statusCode).toBe(201);
      expect(await creditsOf(db, seller.user.id)).toEqual({ remaining_listings: 1, remaining_featured: 1 });
    });

    it('POST /properties/with-media creates a draft too', async () => {
      const seller = await signedIn(t, 'seller');
      const body = await multipart([
        ['data', JSON.stringify({ title: 'Draft with photos', draft: false })],
        ['images', { data: await image('png', 80, 60), type: 'image/png', filename: 'p.png' } satisfies FilePart],
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/properties/with-media`,
        headers: { ...seller.auth, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ status: 'draft', gallery: [{ mime_type: 'image/png' }] });
    });

    it('administrators’ and managers’ listings are published at once, as in free mode', async () => {
      for (const auth of [adminAuth, managerAuth]) {
        const res = await create(auth);
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().data.status).toBe('publish');
      }
    });
  });

  describe('submitting the draft', () => {
    it('without a paid listing invoice → 402 (property-actions and PUT), and nothing changes', async () => {
      const seller = await signedIn(t, 'seller');
      const id = await draftOf(seller);
      expectError(await act(seller.auth, id, 'submit_listing'), 402, 'quota_exceeded', MESSAGES.feeUnpaid);
      expectError(await put(seller.auth, id, { draft: false, title: 'Renamed meanwhile' }), 402, 'quota_exceeded', MESSAGES.feeUnpaid);
      expectError(
        await put(seller.auth, id, { draft: false }, '?lang=es'),
        402,
        'quota_exceeded',
        'La tarifa de este anuncio aún no está pagada. Págala en el proceso de pago (artículo «listing») y luego envía el anuncio.',
      );
      expect(await listingRow(db, id)).toMatchObject({ status: 'draft', title: 'Awaiting its fee' });
      // Editing the draft without submitting it is free.
      const edited = await put(seller.auth, id, { title: 'Still a draft' });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().data.status).toBe('draft');
    });

    it('invoices that do not pay for this listing do not count: pending, cancelled, refunded, archived, another listing’s, a featured one', async () => {
      const seller = await signedIn(t, 'seller');
      const id = await draftOf(seller);
      const other = await draftOf(seller);
      await newInvoice(db, seller.user, id, { status: 'pending', paid_at: null });
      await newInvoice(db, seller.user, id, { status: 'cancelled', paid_at: null });
      await newInvoice(db, seller.user, id, { status: 'refunded' });
      await newInvoice(db, seller.user, id, { archived_at: new Date().toISOString() });
      await newInvoice(db, seller.user, id, { item_type: 'featured' });
      await newInvoice(db, seller.user, other);
      expectError(await act(seller.auth, id, 'submit_listing'), 402, 'quota_exceeded');
      expect((await listingRow(db, id)).status).toBe('draft');
    });

    it('with its paid listing invoice it is submitted as in free mode (property-actions)', async () => {
      const seller = await signedIn(t, 'seller');
      const id = await draftOf(seller);
      await newInvoice(db, seller.user, id);
      const res = await act(seller.auth, id, 'submit_listing');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { property_id: id, status: 'pending', featured: false } });
    });

    it('with its paid listing invoice it is submitted as in free mode (PUT draft: false)', async () => {
      const seller = await signedIn(t, 'seller');
      const id = await draftOf(seller);
      await newInvoice(db, seller.user, id);
      const res = await put(seller.auth, id, { draft: false, title: 'Paid and submitted' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ status: 'pending', title: 'Paid and submitted' });
    });

    it('whoever paid, the fee belongs to the listing: the agency’s payment submits its agent’s draft', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      const agentAuth = bearer(await tokenFor(t.app, agentUser));
      const id = await draftOf({ auth: agentAuth });
      await newInvoice(db, agencyUser, id);
      expect((await act(agentAuth, id, 'submit_listing')).statusCode).toBe(200);
    });

    it('moderators submit a draft without its fee', async () => {
      const seller = await signedIn(t, 'seller');
      const id = await draftOf(seller);
      const res = await act(adminAuth, id, 'submit_listing');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.status).toBe('publish');
      const other = await draftOf(seller);
      expect((await put(managerAuth, other, { draft: false })).json().data.status).toBe('publish');
    });

    it('someone else’s draft → 404 for the submitter, whatever was paid', async () => {
      const owner = await signedIn(t, 'seller');
      const intruder = await signedIn(t, 'seller');
      const id = await draftOf(owner);
      await newInvoice(db, intruder.user, id);
      expectError(await act(intruder.auth, id, 'submit_listing'), 404, 'not_found');
      expectError(await put(intruder.auth, id, { draft: false }), 404, 'not_found');
    });

    it('re-listing an expired listing is not charged again', async () => {
      const seller = await signedIn(t, 'seller');
      const res = await act(seller.auth, await listing(seller.user, 'expired'), 'live');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.status).toBe('pending');
    });
  });

  describe('featuring', () => {
    it('owners buy featuring through checkout: set_featured → 403 naming checkout; removing is allowed', async () => {
      const seller = await signedIn(t, 'seller');
      await newMembership(db, seller.user.id, { remaining_featured: 2 });
      const id = await listing(seller.user, 'publish');
      expectError(await act(seller.auth, id, 'set_featured'), 403, 'forbidden', MESSAGES.featuredByCheckout);
      expect((await listingRow(db, id)).featured).toBe(0);
      expect((await creditsOf(db, seller.user.id)).remaining_featured).toBe(2);
      const paid = await listing(seller.user, 'publish', 1);
      const removed = await act(seller.auth, paid, 'remove_featured');
      expect(removed.json()).toEqual({ success: true, data: { property_id: paid, status: 'publish', featured: false } });
    });

    it('administrators feature as before; managers and other users may not', async () => {
      const seller = await signedIn(t, 'seller');
      const id = await listing(seller.user, 'publish');
      expect((await act(adminAuth, id, 'set_featured')).json().data.featured).toBe(true);
      expectError(await act(managerAuth, id, 'remove_featured'), 403, 'forbidden');
      const intruder = await signedIn(t, 'seller');
      expectError(await act(intruder.auth, id, 'remove_featured'), 403, 'forbidden');
      expect((await listingRow(db, id)).featured).toBe(1);
    });
  });
});

describeEachDialect('quotas when nothing is charged (%s)', (dialect) => {
  let free: TestApp;
  let zeroPrice: TestApp;

  beforeAll(async () => {
    [free, zeroPrice] = await Promise.all([
      buildTestApp(dialect),
      buildTestApp(dialect, { PAYMENT_MODE: 'per_listing', LISTING_PRICE: '0' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([free.close(), zeroPrice.close()]);
  });

  it('free mode: no membership needed, none spent; owners still may not feature (403)', async () => {
    const { create, act } = requests(() => free);
    const seller = await signedIn(free, 'seller');
    await newMembership(free.database.db, seller.user.id, { remaining_listings: 0, remaining_featured: 1 });
    const res = await create(seller.auth);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.status).toBe('pending');
    const expired = await newListing(free.database.db, { status: 'expired', author_id: seller.user.id });
    expect((await act(seller.auth, expired, 'live')).statusCode).toBe(200);
    expectError(await act(seller.auth, res.json().data.id, 'set_featured'), 403, 'forbidden', 'You are not allowed to do this.');
    expectError(await act(seller.auth, res.json().data.id, 'remove_featured'), 403, 'forbidden');
    expect(await creditsOf(free.database.db, seller.user.id)).toEqual({ remaining_listings: 0, remaining_featured: 1 });
  });

  it('per_listing with LISTING_PRICE 0: listings are created and submitted as in free mode', async () => {
    const { create, act } = requests(() => zeroPrice);
    const seller = await signedIn(zeroPrice, 'seller');
    const res = await create(seller.auth);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.status).toBe('pending');
    const draft = await create(seller.auth, { title: 'A chosen draft', draft: true });
    expect(draft.json().data.status).toBe('draft');
    const submitted = await act(seller.auth, draft.json().data.id, 'submit_listing');
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data.status).toBe('pending');
    expect(await listingCount(zeroPrice.database.db, seller.user.id)).toBe(2);
  });
});
