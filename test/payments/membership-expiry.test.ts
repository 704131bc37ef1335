import type { Kysely } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import { MembershipExpiryJob } from '../../src/modules/payments/memberships/membership-expiry.service.js';
import { Fulfilment } from '../../src/modules/payments/checkout/fulfilment.service.js';
import { ListingMoves } from '../../src/modules/properties/moderation/listing-moves.service.js';
import type { PackageRow } from '../../src/modules/payments/packages/packages.mapper.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newListing, newUser } from '../helpers/factories.js';
import { DAY_MS, eventsOf, membershipOf, newMembership, newPackage } from './memberships-fixtures.js';

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR_MS = 3_600_000;

// Each test gets its own database: the job acts on every due membership, and the tests count what it did.
describeEachDialect('membership expiry job (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let pkg: PackageRow;

  beforeEach(async () => {
    t = await buildTestApp(dialect, { PAYMENT_MODE: 'membership' });
    db = t.database.db;
    pkg = await newPackage(db, { billing_period: 'month' });
  });
  afterEach(() => t.close());

  const job = () => t.services.membershipExpiry;
  const member = async (expiresAt: string | null, overrides: Parameters<typeof newMembership>[3] = {}) => {
    const user = await newUser(db, { role: 'agent' });
    await newMembership(db, user, pkg, { expires_at: expiresAt, ...overrides });
    return user;
  };
  const listingsOf = async (user: UserRow, states: ListingState[]) => {
    const ids: Partial<Record<ListingState, number>> = {};
    for (const status of states) ids[status] = await newListing(db, { status, author_id: user.id });
    return ids;
  };
  const statusOf = async (id: number | undefined) =>
    (
      await db
        .selectFrom('listings')
        .select('status')
        .where('id', '=', id ?? 0)
        .executeTakeFirstOrThrow()
    ).status;
  const historyOf = (id: number | undefined) =>
    db
      .selectFrom('listing_transitions')
      .select(['from_state', 'to_state', 'actor_id', 'reason'])
      .where('listing_id', '=', id ?? 0)
      .execute();

  it('tells the owner once per period that the membership ends within three days', async () => {
    const now = Date.now();
    const soon = await member(iso(now + 2 * DAY_MS), { auto_renew: 1, stripe_subscription_id: 'sub_soon' });
    const later = await member(iso(now + 4 * DAY_MS));
    const unlimited = await member(null);
    const alreadyExpired = await member(iso(now + DAY_MS), { status: 'expired' });

    expect(await job().runOnce(new Date(now))).toEqual({ noticed: 1, expired: 0, listingsExpired: 0 });
    expect(await eventsOf(db, 'membership_expiring')).toEqual([
      expect.objectContaining({ user_id: soon.id, package_id: pkg.id, expires_at: iso(now + 2 * DAY_MS), auto_renew: true }),
    ]);
    expect((await membershipOf(db, soon.id))?.expiry_notice_at).toBe(iso(now));

    // Not again for the same period; the later one when its turn comes.
    expect(await job().runOnce(new Date(now + HOUR_MS))).toEqual({ noticed: 0, expired: 0, listingsExpired: 0 });
    expect(await job().runOnce(new Date(now + 1.5 * DAY_MS))).toMatchObject({ noticed: 1 });
    const notices = await eventsOf(db, 'membership_expiring');
    expect(notices.map((event) => event.user_id)).toEqual([soon.id, later.id]);
    for (const quiet of [unlimited, alreadyExpired]) expect((await membershipOf(db, quiet.id))?.expiry_notice_at).toBeNull();

    // A renewal starts a new period, which gets its own notice.
    await db.transaction().execute((trx) =>
      new Fulfilment(new ListingMoves({ requireApproval: true, ttlDays: undefined })).renew(trx, {
        stripeSubscriptionId: 'sub_soon',
        stripeInvoiceId: 'in_soon',
        totalMinor: pkg.price_minor,
        currency: pkg.currency,
        paidAt: new Date(now + 2 * HOUR_MS),
      }),
    );
    const renewed = await membershipOf(db, soon.id);
    expect(renewed?.expiry_notice_at).toBeNull();
    const nextEnd = Date.parse(renewed?.expires_at ?? '');
    expect(await job().runOnce(new Date(nextEnd - 3 * DAY_MS - HOUR_MS))).toMatchObject({ noticed: 0 });
    expect(await job().runOnce(new Date(nextEnd - 2 * DAY_MS))).toMatchObject({ noticed: 1 });
    expect((await eventsOf(db, 'membership_expiring')).filter((event) => event.user_id === soon.id)).toHaveLength(2);
  });

  it('expires a lapsed membership with its owner’s published and held listings, leaving everything else alone', async () => {
    const now = Date.now();
    const expiresAt = iso(now - HOUR_MS);
    const owner = await member(expiresAt);
    const neighbour = await member(iso(now + 10 * DAY_MS));
    const ownerListings = await listingsOf(owner, ['publish', 'on_hold', 'draft', 'pending', 'sold', 'disapproved', 'expired']);
    const neighbourListings = await listingsOf(neighbour, ['publish', 'on_hold']);

    expect(await job().runOnce(new Date(now))).toEqual({ noticed: 0, expired: 1, listingsExpired: 2 });
    expect(await membershipOf(db, owner.id)).toMatchObject({ status: 'expired', expires_at: expiresAt });
    expect(await membershipOf(db, neighbour.id)).toMatchObject({ status: 'active' });
    const expected: Record<ListingState, ListingState> = {
      publish: 'expired',
      on_hold: 'expired',
      draft: 'draft',
      pending: 'pending',
      sold: 'sold',
      disapproved: 'disapproved',
      expired: 'expired',
    };
    for (const [from, to] of Object.entries(expected)) expect(await statusOf(ownerListings[from as ListingState]), from).toBe(to);
    for (const from of ['publish', 'on_hold'] as const) {
      expect(await historyOf(ownerListings[from])).toEqual([
        { from_state: from, to_state: 'expired', actor_id: null, reason: 'membership_expired' },
      ]);
      expect(await statusOf(neighbourListings[from])).toBe(from);
      expect(await historyOf(neighbourListings[from])).toEqual([]);
    }
    expect(await historyOf(ownerListings.draft)).toEqual([]);
    expect(await eventsOf(db, 'membership_expired')).toEqual([
      expect.objectContaining({ user_id: owner.id, package_id: pkg.id, expires_at: expiresAt, listings_expired: 2 }),
    ]);

    // A second run finds nothing to do.
    expect(await job().runOnce(new Date(now + HOUR_MS))).toEqual({ noticed: 0, expired: 0, listingsExpired: 0 });
    expect(await eventsOf(db, 'membership_expired')).toHaveLength(1);
  });

  it('gives a membership that a subscription renews a day for the renewal to arrive', async () => {
    const now = Date.now();
    const renewing = await member(iso(now - HOUR_MS), { auto_renew: 1, stripe_subscription_id: 'sub_late' });
    const cancelled = await member(iso(now - HOUR_MS), { auto_renew: 0, stripe_subscription_id: 'sub_cancelled' });
    const listing = await newListing(db, { status: 'publish', author_id: renewing.id });

    expect(await job().runOnce(new Date(now))).toMatchObject({ expired: 1 });
    expect((await membershipOf(db, cancelled.id))?.status).toBe('expired');
    expect((await membershipOf(db, renewing.id))?.status).toBe('active');
    expect(await statusOf(listing)).toBe('publish');

    expect(await job().runOnce(new Date(now + DAY_MS))).toMatchObject({ expired: 1, listingsExpired: 1 });
    expect((await membershipOf(db, renewing.id))?.status).toBe('expired');
    expect(await statusOf(listing)).toBe('expired');
  });

  it('keeps the listings outside `membership` mode', async () => {
    const owner = await member(iso(Date.now() - HOUR_MS));
    const listing = await newListing(db, { status: 'publish', author_id: owner.id });
    const perListing = new MembershipExpiryJob(db, new ListingMoves({ requireApproval: false, ttlDays: undefined }), {
      mode: 'per_listing',
    });

    expect(await perListing.runOnce()).toEqual({ noticed: 0, expired: 1, listingsExpired: 0 });
    expect((await membershipOf(db, owner.id))?.status).toBe('expired');
    expect(await statusOf(listing)).toBe('publish');
    expect(await historyOf(listing)).toEqual([]);
    expect(await eventsOf(db, 'membership_expired')).toEqual([expect.objectContaining({ user_id: owner.id, listings_expired: 0 })]);
  });

  it('does each notice and expiry once when two jobs run at the same time', async () => {
    const now = Date.now();
    const expiring: UserRow[] = [];
    const lapsed: UserRow[] = [];
    for (let i = 0; i < 5; i++) expiring.push(await member(iso(now + DAY_MS + i * 1000)));
    for (let i = 0; i < 5; i++) {
      const user = await member(iso(now - HOUR_MS - i * 1000));
      await listingsOf(user, ['publish', 'on_hold']);
      lapsed.push(user);
    }
    const first = new MembershipExpiryJob(db, new ListingMoves({ requireApproval: false, ttlDays: undefined }), {
      mode: 'membership',
      batchSize: 2,
    });
    const second = new MembershipExpiryJob(db, new ListingMoves({ requireApproval: false, ttlDays: undefined }), {
      mode: 'membership',
      batchSize: 2,
    });

    const runs = await Promise.all([first.runOnce(new Date(now)), second.runOnce(new Date(now))]);
    expect(runs.reduce((sum, run) => sum + run.noticed, 0)).toBe(5);
    expect(runs.reduce((sum, run) => sum + run.expired, 0)).toBe(5);
    expect(runs.reduce((sum, run) => sum + run.listingsExpired, 0)).toBe(10);

    expect((await eventsOf(db, 'membership_expiring')).map((event) => event.user_id).sort()).toEqual(expiring.map((u) => u.id).sort());
    expect((await eventsOf(db, 'membership_expired')).map((event) => event.user_id).sort()).toEqual(lapsed.map((u) => u.id).sort());
    const history = await db.selectFrom('listing_transitions').select(['listing_id']).where('reason', '=', 'membership_expired').execute();
    expect(history).toHaveLength(10);
    expect(new Set(history.map((row) => row.listing_id)).size).toBe(10);
  });
});
