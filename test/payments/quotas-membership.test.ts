import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newAgencyWithAgent, newListing, tokenFor, unique } from '../helpers/factories.js';
import { type FilePart, image, multipart, tempUploadDir } from '../media/media-fixtures.js';
import {
  API,
  type Auth,
  creditsOf,
  expectError,
  inDays,
  listingCount,
  listingRow,
  MESSAGES,
  newMembership,
  signedIn,
} from './quotas-fixtures.js';

describeEachDialect('quotas in PAYMENT_MODE=membership (%s)', (dialect) => {
  const uploads = tempUploadDir();
  let t: TestApp;
  let db: Kysely<DB>;
  let adminAuth: Auth;
  let managerAuth: Auth;
  let buyerAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PAYMENT_MODE: 'membership', UPLOAD_DIR: uploads.dir });
    db = t.database.db;
    adminAuth = (await signedIn(t, 'administrator')).auth;
    managerAuth = (await signedIn(t, 'manager')).auth;
    buyerAuth = (await signedIn(t, 'buyer')).auth;
  });
  afterAll(async () => {
    await t.close();
    uploads.remove();
  });

  /** A seller with a membership of the given credits (no membership when `credits` is undefined). */
  const seller = async (credits?: { listings: number | null; featured?: number }) => {
    const s = await signedIn(t, 'seller');
    if (credits) await newMembership(db, s.user.id, { remaining_listings: credits.listings, remaining_featured: credits.featured ?? 0 });
    return s;
  };
  const create = (auth: Auth, payload: object = { title: 'A quota listing' }, query = '') =>
    t.app.inject({ method: 'POST', url: `${API}/properties${query}`, headers: auth, payload });
  const act = (auth: Auth, id: number, action: string, extra: object = {}) =>
    t.app.inject({ method: 'POST', url: `${API}/users/property-actions`, headers: auth, payload: { property_id: id, action, ...extra } });
  const transitionsOf = async (id: number) =>
    (await db.selectFrom('listing_transitions').select('to_state').where('listing_id', '=', id).orderBy('id').execute()).map(
      (r) => r.to_state,
    );
  const listing = (author: UserRow, status: ListingState, featured = 0) => newListing(db, { status, author_id: author.id, featured });

  describe('creating a listing', () => {
    it('spends one listing credit of the author’s membership and answers 201 with the record', async () => {
      const { user, auth } = await seller({ listings: 2, featured: 1 });
      const res = await create(auth, { title: 'Paid by credit', price: 100 });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        success: true,
        data: { title: 'Paid by credit', price: 100, status: 'pending', featured: false, author: { id: user.id } },
      });
      expect(await creditsOf(db, user.id)).toEqual({ remaining_listings: 1, remaining_featured: 1 });
    });

    it('a draft is a listing too: it spends a credit when created, and submitting it later spends none', async () => {
      const { user, auth } = await seller({ listings: 1 });
      const res = await create(auth, { title: 'Draft first', draft: true });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.status).toBe('draft');
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(0);
      const submitted = await act(auth, res.json().data.id, 'submit_listing');
      expect(submitted.statusCode, submitted.body).toBe(200);
      expect(submitted.json().data.status).toBe('pending');
    });

    it('no listing credit left → 402 quota_exceeded, localized, and nothing is written', async () => {
      const { user, auth } = await seller({ listings: 0, featured: 3 });
      const before = await db
        .selectFrom('listing_transitions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expectError(await create(auth), 402, 'quota_exceeded', MESSAGES.noListingCredits);
      expectError(
        await create(auth, { title: 'Encore' }, '?lang=fr'),
        402,
        'quota_exceeded',
        'Votre formule d’abonnement n’a plus de crédits d’annonces. Renouvelez-la ou choisissez une formule supérieure pour publier d’autres biens.',
      );
      // A new location name would create a term: rolled back with the rest.
      expectError(await create(auth, { title: 'With a new city', city: 'Quotaville' }), 402, 'quota_exceeded');
      expect(await listingCount(db, user.id)).toBe(0);
      expect(await db.selectFrom('terms').select('id').where('name', '=', 'Quotaville').execute()).toEqual([]);
      const after = await db
        .selectFrom('listing_transitions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      expect(await creditsOf(db, user.id)).toEqual({ remaining_listings: 0, remaining_featured: 3 });
    });

    it('no usable membership → 402 naming the membership: none, past expires_at, expired, cancelled', async () => {
      const none = await seller();
      expectError(await create(none.auth), 402, 'quota_exceeded', MESSAGES.noMembership);
      for (const overrides of [
        { expires_at: inDays(-1) },
        { status: 'expired' as const, expires_at: inDays(-1) },
        { status: 'cancelled' as const },
      ]) {
        const { user, auth } = await signedIn(t, 'seller');
        await newMembership(db, user.id, { remaining_listings: 5, ...overrides });
        expectError(await create(auth), 402, 'quota_exceeded', MESSAGES.noMembership);
        expect((await creditsOf(db, user.id)).remaining_listings).toBe(5);
        expect(await listingCount(db, user.id)).toBe(0);
      }
      expect(await listingCount(db, none.user.id)).toBe(0);
    });

    it('a Stripe subscription awaiting its renewal keeps its credits for the grace day, not after', async () => {
      const renewing = { auto_renew: 1, stripe_subscription_id: unique('sub_'), remaining_listings: 2 };
      const inGrace = await signedIn(t, 'owner');
      await newMembership(db, inGrace.user.id, { ...renewing, expires_at: inDays(-2 / 24) });
      expect((await create(inGrace.auth)).statusCode).toBe(201);
      expect((await creditsOf(db, inGrace.user.id)).remaining_listings).toBe(1);

      const lapsed = await signedIn(t, 'owner');
      await newMembership(db, lapsed.user.id, { ...renewing, stripe_subscription_id: unique('sub_'), expires_at: inDays(-25 / 24) });
      expectError(await create(lapsed.auth), 402, 'quota_exceeded', MESSAGES.noMembership);
      // Without a subscription that renews it, the membership ends at expires_at itself.
      const notRenewing = await signedIn(t, 'owner');
      await newMembership(db, notRenewing.user.id, {
        ...renewing,
        auto_renew: 0,
        stripe_subscription_id: unique('sub_'),
        expires_at: inDays(-2 / 24),
      });
      expectError(await create(notRenewing.auth), 402, 'quota_exceeded', MESSAGES.noMembership);
    });

    it('a membership without an end date (one-time package) is usable', async () => {
      const { user, auth } = await signedIn(t, 'owner');
      await newMembership(db, user.id, { remaining_listings: 1, expires_at: null });
      expect((await create(auth)).statusCode).toBe(201);
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(0);
    });

    it('unlimited listing credits (null) never run out', async () => {
      const { user, auth } = await seller({ listings: null });
      for (let i = 0; i < 3; i++) expect((await create(auth, { title: `Unlimited ${i}` })).statusCode).toBe(201);
      expect((await creditsOf(db, user.id)).remaining_listings).toBeNull();
      expect(await listingCount(db, user.id)).toBe(3);
    });

    it('administrators and managers create without a membership, and spend nothing from one they have', async () => {
      for (const auth of [adminAuth, managerAuth]) {
        const res = await create(auth, { title: 'Moderator’s listing' });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().data.status).toBe('publish');
      }
      const admin = await signedIn(t, 'administrator');
      await newMembership(db, admin.user.id, { remaining_listings: 1 });
      expect((await create(admin.auth)).statusCode).toBe(201);
      expect((await creditsOf(db, admin.user.id)).remaining_listings).toBe(1);
    });

    it('a moderator creating for another author spends nothing of that author’s membership', async () => {
      const { user } = await seller({ listings: 1 });
      const res = await create(adminAuth, { title: 'For someone', author_id: user.id });
      expect(res.statusCode, res.body).toBe(201);
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(1);
    });

    it('an invalid body is a 400 before any credit is looked at, and spends nothing', async () => {
      const { user, auth } = await seller({ listings: 1 });
      const invalid = await create(auth, { title: 'x', price: -1 });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().code).toBe('validation_failed');
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(1);
      const broke = await seller({ listings: 0 });
      expect((await create(broke.auth, { title: 'Unknown field', colour: 'red' })).statusCode).toBe(400);
    });

    it('mass assignment is refused (400) and spends nothing: featured, status, author_id', async () => {
      const { user, auth } = await seller({ listings: 1, featured: 1 });
      const other = await seller({ listings: 1 });
      for (const extra of [{ featured: true }, { status: 'publish' }, { author_id: other.user.id }]) {
        expect((await create(auth, { title: 'Sneaky', ...extra })).statusCode).toBe(400);
      }
      expect(await creditsOf(db, user.id)).toEqual({ remaining_listings: 1, remaining_featured: 1 });
      expect((await creditsOf(db, other.user.id)).remaining_listings).toBe(1);
    });

    it('buyers cannot create listings at all (403), credits or not', async () => {
      const { user, auth } = await signedIn(t, 'buyer');
      await newMembership(db, user.id, { remaining_listings: 3 });
      expectError(await create(auth), 403, 'forbidden');
      expectError(await create(buyerAuth), 403, 'forbidden');
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(3);
    });

    it('an agent spends the agent’s own membership, not its agency’s', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      const agentAuth = bearer(await tokenFor(t.app, agentUser));
      await newMembership(db, agencyUser.id, { remaining_listings: 5 });
      expectError(await create(agentAuth), 402, 'quota_exceeded', MESSAGES.noMembership);
      await newMembership(db, agentUser.id, { remaining_listings: 1 });
      expect((await create(agentAuth)).statusCode).toBe(201);
      expect((await creditsOf(db, agentUser.id)).remaining_listings).toBe(0);
      expect((await creditsOf(db, agencyUser.id)).remaining_listings).toBe(5);
    });

    it('POST /properties/with-media spends a credit too; refused, it keeps neither listing nor images', async () => {
      const { user, auth } = await seller({ listings: 1 });
      const jpeg = await image('jpeg', 120, 90);
      const send = async () => {
        const body = await multipart([
          ['data', JSON.stringify({ title: 'With photos' })],
          ['images', { data: jpeg, type: 'image/jpeg', filename: 'photo.jpg' } satisfies FilePart],
        ]);
        return t.app.inject({
          method: 'POST',
          url: `${API}/properties/with-media`,
          headers: { ...auth, ...body.headers },
          payload: body.payload,
        });
      };
      const created = await send();
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.gallery).toHaveLength(1);
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(0);

      const files = uploads.files();
      const media = await db.selectFrom('media').select('id').where('owner_id', '=', user.id).execute();
      expectError(await send(), 402, 'quota_exceeded', MESSAGES.noListingCredits);
      expect(await db.selectFrom('media').select('id').where('owner_id', '=', user.id).execute()).toEqual(media);
      expect(uploads.files()).toEqual(files);
      expect(await listingCount(db, user.id)).toBe(1);
    });
  });

  describe('the race for the last credit', () => {
    it('two concurrent creations with one credit left: exactly one 201 and one 402', async () => {
      const { user, auth } = await seller({ listings: 1 });
      const answers = await Promise.all([create(auth, { title: 'Racer' }), create(auth, { title: 'Racer' })]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 402]);
      expect(answers.find((r) => r.statusCode === 402)!.json().code).toBe('quota_exceeded');
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(0);
      expect(await listingCount(db, user.id)).toBe(1);
    });

    it('many concurrent creations spend exactly the credits there are', async () => {
      const { user, auth } = await seller({ listings: 3 });
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(auth, { title: `Crowd ${i % 2}` })));
      const codes = answers.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(3);
      expect(codes.filter((c) => c === 402)).toHaveLength(5);
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(0);
      expect(await listingCount(db, user.id)).toBe(3);
    });

    it('two concurrent featurings with one featured credit left: exactly one 200 and one 402', async () => {
      const { user, auth } = await seller({ listings: 0, featured: 1 });
      const [a, b] = [await listing(user, 'publish'), await listing(user, 'publish')];
      const answers = await Promise.all([act(auth, a, 'set_featured'), act(auth, b, 'set_featured')]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 402]);
      expect((await creditsOf(db, user.id)).remaining_featured).toBe(0);
      expect([(await listingRow(db, a)).featured, (await listingRow(db, b)).featured].sort()).toEqual([0, 1]);
    });

    it('featuring one listing twice at once spends one credit', async () => {
      const { user, auth } = await seller({ listings: 0, featured: 2 });
      const id = await listing(user, 'publish');
      const answers = await Promise.all([act(auth, id, 'set_featured'), act(auth, id, 'set_featured')]);
      for (const res of answers)
        expect(res.json()).toEqual({ success: true, data: { property_id: id, status: 'publish', featured: true } });
      expect((await creditsOf(db, user.id)).remaining_featured).toBe(1);
    });
  });

  describe('re-listing (live)', () => {
    it('live from expired spends a listing credit (property-actions and /users/live-property)', async () => {
      const { user, auth } = await seller({ listings: 2 });
      const a = await listing(user, 'expired');
      const res = await act(auth, a, 'live');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { property_id: a, status: 'pending', featured: false } });
      const b = await listing(user, 'expired');
      const single = await t.app.inject({ method: 'POST', url: `${API}/users/live-property/${b}`, headers: auth });
      expect(single.statusCode, single.body).toBe(200);
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(0);
    });

    it('without a credit → 402, and the listing stays expired with no history entry', async () => {
      const { user, auth } = await seller({ listings: 0 });
      const id = await listing(user, 'expired');
      expectError(await act(auth, id, 'live'), 402, 'quota_exceeded', MESSAGES.noListingCredits);
      expectError(await t.app.inject({ method: 'POST', url: `${API}/users/live-property/${id}`, headers: auth }), 402, 'quota_exceeded');
      expect((await listingRow(db, id)).status).toBe('expired');
      expect(await transitionsOf(id)).toEqual([]);
      const none = await seller();
      expectError(await act(none.auth, await listing(none.user, 'expired'), 'live'), 402, 'quota_exceeded', MESSAGES.noMembership);
    });

    it('live from on_hold or sold costs nothing, even without a membership', async () => {
      const { user, auth } = await seller();
      for (const from of ['on_hold', 'sold'] as const) {
        const res = await act(auth, await listing(user, from), 'live');
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.status).toBe('publish');
      }
    });

    it('an impossible move is a 409 before anything is spent', async () => {
      const { user, auth } = await seller({ listings: 1 });
      expectError(await act(auth, await listing(user, 'pending'), 'live'), 409, 'invalid_transition');
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(1);
    });

    it('moderators re-list without credits', async () => {
      const { user } = await seller({ listings: 0 });
      for (const auth of [adminAuth, managerAuth]) {
        const res = await act(auth, await listing(user, 'expired'), 'live');
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.status).toBe('publish');
      }
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(0);
    });

    it('an agency re-listing its agent’s listing spends the agency’s own credits', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      await newMembership(db, agencyUser.id, { remaining_listings: 1 });
      await newMembership(db, agentUser.id, { remaining_listings: 1 });
      const res = await act(bearer(await tokenFor(t.app, agencyUser)), await listing(agentUser, 'expired'), 'live');
      expect(res.statusCode, res.body).toBe(200);
      expect((await creditsOf(db, agencyUser.id)).remaining_listings).toBe(0);
      expect((await creditsOf(db, agentUser.id)).remaining_listings).toBe(1);
    });

    it('someone else’s expired listing → 404, spending nothing of theirs or the caller’s', async () => {
      const owner = await seller({ listings: 1 });
      const intruder = await seller({ listings: 1 });
      expectError(await act(intruder.auth, await listing(owner.user, 'expired'), 'live'), 404, 'not_found');
      expect((await creditsOf(db, owner.user.id)).remaining_listings).toBe(1);
      expect((await creditsOf(db, intruder.user.id)).remaining_listings).toBe(1);
    });
  });

  describe('featuring', () => {
    it('the owner features with a featured credit; featuring again or removing spends nothing', async () => {
      const { user, auth } = await seller({ listings: 0, featured: 2 });
      const id = await listing(user, 'pending');
      const featured = { success: true, data: { property_id: id, status: 'pending', featured: true } };
      expect((await act(auth, id, 'set_featured')).json()).toEqual(featured);
      expect((await listingRow(db, id)).featured).toBe(1);
      expect((await act(auth, id, 'set_featured')).json()).toEqual(featured);
      expect((await creditsOf(db, user.id)).remaining_featured).toBe(1);
      const removed = await act(auth, id, 'remove_featured');
      expect(removed.json()).toEqual({ success: true, data: { property_id: id, status: 'pending', featured: false } });
      expect((await creditsOf(db, user.id)).remaining_featured).toBe(1);
      expect((await act(auth, id, 'set_featured')).statusCode).toBe(200);
      expect(await creditsOf(db, user.id)).toEqual({ remaining_listings: 0, remaining_featured: 0 });
      // Featuring is not a state move: no history.
      expect(await transitionsOf(id)).toEqual([]);
    });

    it('no featured credit, or no usable membership → 402, and the listing is not featured', async () => {
      const { user, auth } = await seller({ listings: 5, featured: 0 });
      const id = await listing(user, 'publish');
      expectError(await act(auth, id, 'set_featured'), 402, 'quota_exceeded', MESSAGES.noFeaturedCredits);
      expect((await listingRow(db, id)).featured).toBe(0);
      expect((await creditsOf(db, user.id)).remaining_listings).toBe(5);
      const lapsed = await signedIn(t, 'seller');
      await newMembership(db, lapsed.user.id, { remaining_featured: 3, expires_at: inDays(-1) });
      const other = await listing(lapsed.user, 'publish');
      expectError(await act(lapsed.auth, other, 'set_featured'), 402, 'quota_exceeded', MESSAGES.noMembership);
      expect((await listingRow(db, other)).featured).toBe(0);
      // Removing needs no credit.
      const unpaid = await listing(user, 'publish', 1);
      expect((await act(auth, unpaid, 'remove_featured')).json().data.featured).toBe(false);
    });

    it('administrators feature without credits; managers may not feature (403)', async () => {
      const { user } = await seller({ listings: 0, featured: 1 });
      const id = await listing(user, 'publish');
      expectError(await act(managerAuth, id, 'set_featured'), 403, 'forbidden');
      expect((await act(adminAuth, id, 'set_featured')).json().data.featured).toBe(true);
      expect((await act(adminAuth, id, 'remove_featured')).json().data.featured).toBe(false);
      expect((await creditsOf(db, user.id)).remaining_featured).toBe(1);
      const manager = await signedIn(t, 'manager');
      await newMembership(db, manager.user.id, { remaining_featured: 1 });
      expectError(await act(manager.auth, await listing(manager.user, 'publish'), 'set_featured'), 403, 'forbidden');
      expect((await creditsOf(db, manager.user.id)).remaining_featured).toBe(1);
    });

    it('others’ listings: visible → 403, hidden → 404; nobody’s credits move', async () => {
      const owner = await seller({ listings: 0, featured: 1 });
      const intruder = await seller({ listings: 0, featured: 1 });
      expectError(await act(intruder.auth, await listing(owner.user, 'publish'), 'set_featured'), 403, 'forbidden');
      expectError(await act(intruder.auth, await listing(owner.user, 'draft'), 'set_featured'), 404, 'not_found');
      expectError(await act(buyerAuth, await listing(owner.user, 'publish'), 'set_featured'), 403, 'forbidden');
      expectError(await act(intruder.auth, 2_000_000_000, 'set_featured'), 404, 'not_found');
      expect((await creditsOf(db, owner.user.id)).remaining_featured).toBe(1);
      expect((await creditsOf(db, intruder.user.id)).remaining_featured).toBe(1);
    });

    it('an agency features its agent’s listing with the agency’s featured credit', async () => {
      const { agencyUser, agentUser } = await newAgencyWithAgent(db);
      await newMembership(db, agencyUser.id, { remaining_featured: 1 });
      const id = await listing(agentUser, 'publish');
      const res = await act(bearer(await tokenFor(t.app, agencyUser)), id, 'set_featured');
      expect(res.statusCode, res.body).toBe(200);
      expect((await creditsOf(db, agencyUser.id)).remaining_featured).toBe(0);
    });

    it('a reason or an unknown field → 400, spending nothing', async () => {
      const { user, auth } = await seller({ listings: 0, featured: 1 });
      const id = await listing(user, 'publish');
      expect((await act(auth, id, 'set_featured', { reason: 'Promo' })).statusCode).toBe(400);
      expect((await act(auth, id, 'set_featured', { user_id: user.id })).statusCode).toBe(400);
      expect((await creditsOf(db, user.id)).remaining_featured).toBe(1);
      expect((await listingRow(db, id)).featured).toBe(0);
    });
  });

  it('the OpenAPI document lists 402 where credits are spent', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    const responses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);
    expect(responses('/realty-api/v1/properties', 'post')).toContain('402');
    expect(responses('/realty-api/v1/properties/with-media', 'post')).toContain('402');
    expect(responses('/realty-api/v1/properties/{id}', 'put')).toContain('402');
    expect(responses('/realty-api/v1/users/live-property/{id}', 'post')).toContain('402');
    expect(responses('/realty-api/v1/users/property-actions', 'post')).toContain('402');
    expect(responses('/realty-api/v1/users/hold-property/{id}', 'post')).not.toContain('402');
  });
});
