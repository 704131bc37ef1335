import type { Kysely } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import { ListingExpiryJob } from '../../src/modules/properties/moderation/listing-expiry.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, links, newListing, newTerm, newUser, tokenFor } from '../helpers/factories.js';

const API = '/realty-api/v1';
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

// Each test gets its own database: the job acts on every due listing, and the tests count what it moved.
describeEachDialect('listing expiry (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let owner: UserRow;

  beforeEach(async () => {
    t = await buildTestApp(dialect, { LISTING_TTL_DAYS: '30' });
    db = t.database.db;
    owner = await newUser(db, { role: 'seller' });
  });
  afterEach(() => t.close());

  const listing = (status: ListingState, expiresAt: string | null, extra: Parameters<typeof newListing>[1] = {}) =>
    newListing(db, { status, author_id: owner.id, expires_at: expiresAt, ...extra });
  const act = async (auth: Record<string, string>, id: number, action: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/users/property-actions`,
      headers: auth,
      payload: { property_id: id, action },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.status as ListingState;
  };
  const row = (id: number) => db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const statusOf = async (id: number) => (await row(id)).status;

  it('publication starts a LISTING_TTL_DAYS period; hold and live keep it; publication after expiry starts a new one', async () => {
    const ownerAuth = bearer(await tokenFor(t.app, owner));
    const adminAuth = bearer(await tokenFor(t.app, await newUser(db, { role: 'administrator' })));
    const id = await listing('pending', null);
    expect(await act(adminAuth, id, 'approve')).toBe('publish');
    const approved = await row(id);
    expect(approved.expires_at).toBe(iso(Date.parse(approved.updated_at) + 30 * DAY_MS));
    expect(approved.published_at).toBe(approved.updated_at);

    expect(await act(ownerAuth, id, 'hold')).toBe('on_hold');
    expect(await act(ownerAuth, id, 'live')).toBe('publish');
    expect((await row(id)).expires_at).toBe(approved.expires_at);

    const expiry = Date.parse(approved.expires_at ?? '');
    expect(await t.services.listingExpiry.runOnce(new Date(expiry - 1))).toBe(0);
    expect(await t.services.listingExpiry.runOnce(new Date(expiry))).toBe(1);
    expect(await statusOf(id)).toBe('expired');

    // With approval on, the owner's renewal waits in the queue, keeping the old date until approved.
    expect(await act(ownerAuth, id, 'live')).toBe('pending');
    expect((await row(id)).expires_at).toBe(approved.expires_at);
    expect(await act(adminAuth, id, 'approve')).toBe('publish');
    const renewed = await row(id);
    expect(renewed.expires_at).toBe(iso(Date.parse(renewed.updated_at) + 30 * DAY_MS));
    expect(renewed.published_at).toBe(approved.published_at);
  });

  it('moves due publish and on_hold listings only, with a history entry without actor, and term counts follow', async () => {
    const now = new Date();
    const past = iso(now.getTime() - DAY_MS);
    const later = iso(now.getTime() + DAY_MS);
    const term = await newTerm(t.services.taxonomies, 'property_feature');
    const published = await listing('publish', past, { terms: links('property_feature', term) });
    const held = await listing('on_hold', iso(now.getTime()));
    const notDue = await listing('publish', later);
    const untouched = {
      sold: await listing('sold', past),
      pending: await listing('pending', past),
      draft: await listing('draft', past),
      disapproved: await listing('disapproved', past),
      publish: await listing('publish', null),
    };
    const termCount = async () => (await db.selectFrom('terms').select('count').where('id', '=', term.id).executeTakeFirstOrThrow()).count;
    expect(await termCount()).toBe(1);

    expect(await t.services.listingExpiry.runOnce(now)).toBe(2);
    expect([await statusOf(published), await statusOf(held), await statusOf(notDue)]).toEqual(['expired', 'expired', 'publish']);
    for (const [state, id] of Object.entries(untouched)) expect(await statusOf(id)).toBe(state);
    expect(await termCount()).toBe(0);
    expect((await row(published)).updated_at).toBe(now.toISOString());

    const res = await t.app.inject({
      method: 'GET',
      url: `${API}/properties/${held}/history`,
      headers: bearer(await tokenFor(t.app, owner)),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.history).toEqual([
      { from: 'on_hold', to: 'expired', actor: null, reason: 'expired', at: `${now.toISOString().slice(0, 19)}Z` },
    ]);

    expect(await t.services.listingExpiry.runOnce(now)).toBe(0);
    expect(await t.services.listingExpiry.runOnce(new Date(later))).toBe(1);
    expect(await statusOf(notDue)).toBe('expired');
  });

  it('works through batches, and concurrent runs expire each listing once', async () => {
    const past = iso(Date.now() - DAY_MS);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await listing(i % 2 === 0 ? 'publish' : 'on_hold', past));
    const jobs = [0, 1].map(() => new ListingExpiryJob(db, { batchSize: 2 }));
    const moved = await Promise.all(jobs.map((job) => job.runOnce()));
    expect(moved.reduce((sum, n) => sum + n, 0)).toBe(7);
    for (const id of ids) expect(await statusOf(id)).toBe('expired');
    const recorded = await db
      .selectFrom('listing_transitions')
      .select(['listing_id', 'to_state', 'actor_id', 'reason'])
      .where('listing_id', 'in', ids)
      .orderBy('listing_id')
      .execute();
    expect(recorded).toEqual(ids.map((id) => ({ listing_id: id, to_state: 'expired', actor_id: null, reason: 'expired' })));
  });
});
