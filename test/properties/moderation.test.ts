import type { LightMyRequestResponse } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DB, LISTING_STATES, type ListingState, type UserRow } from '../../src/db/schema/index.js';
import { STATE_ACTIONS, type StateAction } from '../../src/modules/properties/moderation/listing-states.js';
import { moveListingState } from '../../src/modules/properties/moderation/moderation.repository.js';
import { PROPERTY_ACTIONS, type PropertyAction } from '../../src/modules/properties/moderation/moderation.schemas.js';
import { recordTransition } from '../../src/modules/properties/properties.repository.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, links, newAgencyWithAgent, newListing, newTerm, newUser, signIn, tokenFor } from '../helpers/factories.js';
import { errorBody } from '../helpers/expectations.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

/** The single-action routes (docs/api.md 3.3) and the action each one takes. */
const ROUTE_OF: Partial<Record<StateAction, string>> = {
  approve: 'approve-property',
  disapprove: 'disapprove-property',
  hold: 'hold-property',
  live: 'live-property',
  sold: 'mark-sold-property',
};

/** docs/api.md 3.3 with REQUIRE_APPROVAL on, for an owner (a moderator for approve, disapprove and expire). */
const MOVES: Record<StateAction, Partial<Record<ListingState, ListingState>>> = {
  approve: { pending: 'publish', disapproved: 'publish' },
  disapprove: { pending: 'disapproved', publish: 'disapproved' },
  hold: { publish: 'on_hold' },
  live: { on_hold: 'publish', sold: 'publish', expired: 'pending' },
  sold: { publish: 'sold', on_hold: 'sold' },
  expire: { publish: 'expired', on_hold: 'expired' },
  submit_listing: { draft: 'pending' },
};
const BY_MODERATORS_ONLY: StateAction[] = ['approve', 'disapprove', 'expire'];
const API_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const invalidTransition = (state: ListingState) => ({
  success: false,
  code: 'invalid_transition',
  message: `This action is not possible while the listing is ${state}.`,
  request_id: expect.any(String),
});

describeEachDialect('listing moderation (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let owner: UserRow;
  let ownerAuth: Auth;
  let otherSellerAuth: Auth;
  let buyerAuth: Auth;
  let manager: UserRow;
  let managerAuth: Auth;
  let admin: UserRow;
  let adminAuth: Auth;
  let agentUser: UserRow;
  let agencyAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    owner = await newUser(db, { role: 'seller' });
    manager = await newUser(db, { role: 'manager' });
    admin = await newUser(db, { role: 'administrator' });
    const agency = await newAgencyWithAgent(db);
    agentUser = agency.agentUser;
    [ownerAuth, otherSellerAuth, buyerAuth, managerAuth, adminAuth, agencyAuth] = await Promise.all([
      signIn(t.app, owner),
      signIn(t.app, await newUser(db, { role: 'seller' })),
      signIn(t.app, await newUser(db, { role: 'buyer' })),
      signIn(t.app, manager),
      signIn(t.app, admin),
      signIn(t.app, agency.agencyUser),
    ]);
  });
  afterAll(() => t.close());

  const listing = (status: ListingState, authorId = owner.id) => newListing(db, { status, author_id: authorId });
  const actOn = (auth: Auth, id: number, action: PropertyAction, reason?: string) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/users/property-actions`,
      headers: auth,
      payload: { property_id: id, action, ...(reason === undefined ? {} : { reason }) },
    });
  const post = (auth: Auth, path: string, payload?: object) =>
    t.app.inject({ method: 'POST', url: `${API}${path}`, headers: auth, ...(payload ? { payload } : {}) });
  const history = (auth: Auth, id: number) => t.app.inject({ method: 'GET', url: `${API}/properties/${id}/history`, headers: auth });
  const row = (id: number) => db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const transitions = (id: number) =>
    db
      .selectFrom('listing_transitions')
      .select(['from_state', 'to_state', 'actor_id', 'reason'])
      .where('listing_id', '=', id)
      .orderBy('id')
      .execute();
  const expectMoved = (res: LightMyRequestResponse, id: number, status: ListingState, featured = false) => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { property_id: id, status, featured } });
  };
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    const { errors, ...body } = res.json();
    expect(body).toEqual(errorBody(code));
    if (status !== 400) expect(errors).toBeUndefined();
  };

  describe('every action from every state (REQUIRE_APPROVAL on)', () => {
    const viaActions = STATE_ACTIONS.flatMap((action) => LISTING_STATES.map((from) => ({ action, from, via: 'property-actions' })));
    const viaRoutes = STATE_ACTIONS.flatMap((action) =>
      ROUTE_OF[action] ? LISTING_STATES.map((from) => ({ action, from, via: `/users/${ROUTE_OF[action]}` })) : [],
    );

    it.each([...viaActions, ...viaRoutes])('$action from $from through $via', async ({ action, from, via }) => {
      const id = await listing(from);
      const auth = BY_MODERATORS_ONLY.includes(action) ? adminAuth : ownerAuth;
      const res = via === 'property-actions' ? await actOn(auth, id, action) : await post(auth, `${via}/${id}`);
      const to = MOVES[action][from];
      if (to === undefined) {
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toEqual(invalidTransition(from));
        expect((await row(id)).status).toBe(from);
        expect(await transitions(id)).toEqual([]);
      } else {
        expectMoved(res, id, to);
        expect((await row(id)).status).toBe(to);
        expect(await transitions(id)).toEqual([{ from_state: from, to_state: to, actor_id: expect.any(Number), reason: '' }]);
      }
    });

    it('localizes the 409 and names the state', async () => {
      const res = await post(ownerAuth, `/users/hold-property/${await listing('draft')}?lang=fr`);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('Cette action est impossible tant que l’annonce est à l’état draft.');
    });

    it('sets published_at on the first publication only, and keeps it through later moves', async () => {
      const id = await listing('pending');
      expect((await row(id)).published_at).toBeNull();
      expectMoved(await actOn(adminAuth, id, 'approve'), id, 'publish');
      const first = (await row(id)).published_at;
      expect(first).not.toBeNull();
      expect((await row(id)).updated_at).toBe(first);
      expectMoved(await actOn(ownerAuth, id, 'hold'), id, 'on_hold');
      expectMoved(await actOn(ownerAuth, id, 'live'), id, 'publish');
      const after = await row(id);
      expect(after.published_at).toBe(first);
      expect(after.updated_at >= (first ?? '')).toBe(true);
    });

    it('without LISTING_TTL_DAYS leaves expires_at as it is', async () => {
      const id = await newListing(db, { status: 'pending', author_id: owner.id, expires_at: '2030-01-01T00:00:00.000Z' });
      expectMoved(await actOn(adminAuth, id, 'approve'), id, 'publish');
      expect((await row(id)).expires_at).toBe('2030-01-01T00:00:00.000Z');
    });
  });

  describe('who may act', () => {
    it('owners (the author) take the owner actions on their own listings, and moderators’ actions → 403', async () => {
      const id = await listing('publish');
      for (const action of ['approve', 'disapprove', 'expire', 'set_featured', 'remove_featured'] as const) {
        expectError(await actOn(ownerAuth, id, action), 403, 'forbidden');
      }
      // Refused for the role before the state is looked at: approve from publish is a 403, not a 409.
      expectError(await post(ownerAuth, `/users/approve-property/${id}`), 403, 'forbidden');
      expectError(await actOn(ownerAuth, await listing('pending'), 'approve'), 403, 'forbidden');
      expectMoved(await actOn(ownerAuth, id, 'hold'), id, 'on_hold');
      expectMoved(await actOn(ownerAuth, id, 'sold'), id, 'sold');
      expectMoved(await actOn(ownerAuth, id, 'live'), id, 'publish');
      expect((await row(id)).status).toBe('publish');
    });

    it('the agency of an agent author is an owner too, the agent as well', async () => {
      const id = await listing('draft', agentUser.id);
      expectMoved(await actOn(agencyAuth, id, 'submit_listing'), id, 'pending');
      expectError(await actOn(agencyAuth, id, 'approve'), 403, 'forbidden');
      expectMoved(await actOn(adminAuth, id, 'approve'), id, 'publish');
      expectMoved(await post(agencyAuth, `/users/hold-property/${id}`), id, 'on_hold');
      expectMoved(await post(bearer(await tokenFor(t.app, agentUser)), `/users/live-property/${id}`), id, 'publish');
      expect((await history(agencyAuth, id)).statusCode).toBe(200);
      // An agency owns only its own agents' listings.
      expectError(await actOn(agencyAuth, await listing('publish'), 'hold'), 403, 'forbidden');
      expectError(await actOn(agencyAuth, await listing('pending'), 'hold'), 404, 'not_found');
    });

    it('another seller: 403 on a published listing they can see, 404 on one they cannot', async () => {
      const published = await listing('publish');
      const sold = await listing('sold');
      for (const action of PROPERTY_ACTIONS) {
        expectError(await actOn(otherSellerAuth, published, action), 403, 'forbidden');
        expectError(await actOn(otherSellerAuth, sold, action), 403, 'forbidden');
      }
      for (const state of ['draft', 'pending', 'on_hold', 'disapproved', 'expired'] as const) {
        const hidden = await listing(state);
        for (const action of PROPERTY_ACTIONS) expectError(await actOn(otherSellerAuth, hidden, action), 404, 'not_found');
        expectError(await post(otherSellerAuth, `/users/live-property/${hidden}`), 404, 'not_found');
        expect((await row(hidden)).status).toBe(state);
      }
      expect((await row(published)).status).toBe('publish');
    });

    it('buyers: every route → 403 on a listing they can see, 404 on one they cannot', async () => {
      const published = await listing('publish');
      const pending = await listing('pending');
      for (const action of PROPERTY_ACTIONS) {
        expectError(await actOn(buyerAuth, published, action), 403, 'forbidden');
        expectError(await actOn(buyerAuth, pending, action), 404, 'not_found');
      }
      for (const path of Object.values(ROUTE_OF)) {
        expectError(await post(buyerAuth, `/users/${path}/${published}`), 403, 'forbidden');
        expectError(await post(buyerAuth, `/users/${path}/${pending}`), 404, 'not_found');
      }
      expect((await row(published)).status).toBe('publish');
      expect((await row(pending)).status).toBe('pending');
    });

    it('managers take every state action on anyone’s listing; a moderator’s submission skips the queue', async () => {
      const id = await listing('draft');
      expectMoved(await actOn(managerAuth, id, 'submit_listing'), id, 'publish');
      expectMoved(await actOn(managerAuth, id, 'hold'), id, 'on_hold');
      expectMoved(await actOn(managerAuth, id, 'expire'), id, 'expired');
      expectMoved(await actOn(managerAuth, id, 'live'), id, 'publish');
      expectMoved(await actOn(managerAuth, id, 'disapprove'), id, 'disapproved');
      expectMoved(await actOn(managerAuth, id, 'approve'), id, 'publish');
      expectMoved(await actOn(managerAuth, id, 'sold'), id, 'sold');
    });

    it('only administrators feature a listing, in any state; it is not a state move and leaves no history', async () => {
      const id = await listing('pending');
      expectError(await actOn(managerAuth, id, 'set_featured'), 403, 'forbidden');
      expectMoved(await actOn(adminAuth, id, 'set_featured'), id, 'pending', true);
      expect((await row(id)).featured).toBe(1);
      expectMoved(await actOn(adminAuth, id, 'set_featured'), id, 'pending', true);
      // The flag shows in the answers of later moves.
      expectMoved(await actOn(adminAuth, id, 'approve'), id, 'publish', true);
      expectError(await actOn(ownerAuth, id, 'remove_featured'), 403, 'forbidden');
      expectMoved(await actOn(adminAuth, id, 'remove_featured'), id, 'publish', false);
      expect((await row(id)).featured).toBe(0);
      expect((await transitions(id)).map((x) => x.to_state)).toEqual(['publish']);
    });

    it('an unknown listing → 404 for everyone; no token → 401', async () => {
      for (const auth of [adminAuth, managerAuth, ownerAuth]) {
        expectError(await actOn(auth, 2_000_000_000, 'approve'), 404, 'not_found');
        expectError(await actOn(auth, 2_000_000_000, 'set_featured'), 404, 'not_found');
        expectError(await post(auth, '/users/hold-property/2000000000'), 404, 'not_found');
      }
      const id = await listing('pending');
      expectError(await actOn({}, id, 'approve'), 401, 'unauthorized');
      expectError(await post({}, `/users/approve-property/${id}`), 401, 'unauthorized');
      expect((await row(id)).status).toBe('pending');
    });
  });

  describe('request bodies', () => {
    it('keeps the reason as plain text; none is ""', async () => {
      const id = await listing('pending');
      expectMoved(await post(adminAuth, `/users/disapprove-property/${id}`, { reason: '  <b>Blurry</b> photos  ' }), id, 'disapproved');
      expectMoved(await post(adminAuth, `/users/approve-property/${id}`, {}), id, 'publish');
      expect((await transitions(id)).map((x) => x.reason)).toEqual(['Blurry photos', '']);
    });

    it('takes a reason of 2000 characters, refuses 2001', async () => {
      const id = await listing('pending');
      const res = await post(adminAuth, `/users/disapprove-property/${id}`, { reason: 'x'.repeat(2001) });
      expectError(res, 400, 'validation_failed');
      expect(res.json().errors).toEqual([{ field: 'reason', message: expect.any(String) }]);
      expect((await row(id)).status).toBe('pending');
      expectMoved(await actOn(adminAuth, id, 'disapprove', 'y'.repeat(2000)), id, 'disapproved');
    });

    it('refuses unknown fields, unknown actions, a missing or invalid property_id and a non-numeric id', async () => {
      const id = await listing('pending');
      const refused = [
        await post(adminAuth, `/users/approve-property/${id}`, { status: 'publish' }),
        await post(adminAuth, '/users/property-actions', { property_id: id, action: 'approve', status: 'draft' }),
        await post(adminAuth, '/users/property-actions', { property_id: id, action: 'publish' }),
        await post(adminAuth, '/users/property-actions', { action: 'approve' }),
        await post(adminAuth, '/users/property-actions', { property_id: 0, action: 'approve' }),
        await post(adminAuth, '/users/property-actions', { property_id: String(id), action: 'approve' }),
        await post(adminAuth, '/users/approve-property/abc'),
        await post(adminAuth, '/users/approve-property/0'),
      ];
      for (const res of refused) expectError(res, 400, 'validation_failed');
      expect((await row(id)).status).toBe('pending');
    });

    it('refuses a reason with a featured action (400 on `reason`)', async () => {
      const id = await listing('publish');
      const res = await actOn(adminAuth, id, 'set_featured', 'Promoted');
      expectError(res, 400, 'validation_failed');
      expect(res.json().errors).toEqual([{ field: 'reason', message: 'is not an accepted field' }]);
      expect((await row(id)).featured).toBe(0);
    });
  });

  describe('GET /properties/{id}/history', () => {
    it('lists every transition oldest first, with the actor, the reason and the time', async () => {
      const id = await listing('pending');
      await recordTransition(db, { listingId: id, from: null, to: 'pending', actorId: owner.id, at: new Date().toISOString() });
      expectMoved(await actOn(adminAuth, id, 'approve', 'Looks good'), id, 'publish');
      expectMoved(await actOn(ownerAuth, id, 'hold'), id, 'on_hold');
      expectMoved(await actOn(ownerAuth, id, 'live'), id, 'publish');
      expectMoved(await actOn(managerAuth, id, 'disapprove'), id, 'disapproved');

      const res = await history(ownerAuth, id);
      expect(res.statusCode, res.body).toBe(200);
      const entry = (from: ListingState | null, to: ListingState, actor: unknown, reason = '') => ({
        from,
        to,
        actor,
        reason,
        at: expect.stringMatching(API_TIMESTAMP),
      });
      const ownerActor = { id: owner.id, display_name: owner.display_name };
      const managerActor = { id: manager.id, display_name: manager.display_name };
      const adminActor = { id: admin.id, display_name: admin.display_name };
      expect(res.json()).toEqual({
        success: true,
        data: {
          history: [
            entry(null, 'pending', ownerActor),
            entry('pending', 'publish', adminActor, 'Looks good'),
            entry('publish', 'on_hold', ownerActor),
            entry('on_hold', 'publish', ownerActor),
            entry('publish', 'disapproved', managerActor),
          ],
        },
      });
      const times = (res.json().data.history as { at: string }[]).map((x) => x.at);
      expect([...times].sort()).toEqual(times);
    });

    it('shows a deleted actor as null', async () => {
      const gone = await newUser(db, { role: 'manager' });
      const id = await listing('pending');
      expectMoved(await actOn(bearer(await tokenFor(t.app, gone)), id, 'approve'), id, 'publish');
      const del = await t.app.inject({ method: 'DELETE', url: `${API}/users/${gone.id}`, headers: adminAuth });
      expect(del.statusCode, del.body).toBe(200);
      const res = await history(managerAuth, id);
      expect(res.json().data.history).toEqual([
        { from: 'pending', to: 'publish', actor: null, reason: '', at: expect.stringMatching(API_TIMESTAMP) },
      ]);
    });

    it('is empty for a listing without transitions', async () => {
      const res = await history(adminAuth, await listing('draft'));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { history: [] } });
    });

    it('answers owners and moderators; others 403 when they can see the listing, else 404', async () => {
      const published = await listing('publish');
      const pending = await listing('pending');
      const agents = await listing('pending', agentUser.id);
      for (const id of [published, pending]) {
        for (const auth of [ownerAuth, managerAuth, adminAuth]) expect((await history(auth, id)).statusCode).toBe(200);
      }
      expect((await history(agencyAuth, agents)).statusCode).toBe(200);
      for (const auth of [otherSellerAuth, buyerAuth, agencyAuth]) {
        expectError(await history(auth, published), 403, 'forbidden');
        expectError(await history(auth, pending), 404, 'not_found');
      }
      expectError(await history(adminAuth, 2_000_000_000), 404, 'not_found');
      expectError(await history({}, published), 401, 'unauthorized');
    });
  });

  describe('term counts', () => {
    it('follow the publish state through moderation', async () => {
      const term = await newTerm(t.services.taxonomies, 'property_feature');
      const id = await newListing(db, { status: 'pending', author_id: owner.id, terms: links('property_feature', term) });
      const count = async () => (await db.selectFrom('terms').select('count').where('id', '=', term.id).executeTakeFirstOrThrow()).count;
      expect(await count()).toBe(0);
      expectMoved(await actOn(adminAuth, id, 'approve'), id, 'publish');
      expect(await count()).toBe(1);
      expectMoved(await actOn(ownerAuth, id, 'hold'), id, 'on_hold');
      expect(await count()).toBe(0);
      expectMoved(await actOn(ownerAuth, id, 'live'), id, 'publish');
      expect(await count()).toBe(1);
      expectMoved(await actOn(ownerAuth, id, 'sold'), id, 'sold');
      expect(await count()).toBe(0);
    });
  });

  describe('concurrent transitions', () => {
    it('of two approvals at once, one moves the listing and the other gets 409', async () => {
      const id = await listing('pending');
      const answers = await Promise.all([actOn(adminAuth, id, 'approve'), actOn(managerAuth, id, 'approve')]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
      const lost = answers.find((res) => res.statusCode === 409);
      expect(lost?.json()).toEqual(invalidTransition('publish'));
      expect(await transitions(id)).toEqual([{ from_state: 'pending', to_state: 'publish', actor_id: expect.any(Number), reason: '' }]);
    });

    it('an approval racing an uncommitted approval waits for it, moves nothing and answers 409', async () => {
      const id = await listing('pending');
      // Another process approves and holds its transaction open while the request runs: on PostgreSQL the
      // request reads `pending` and its conditional update waits on the row lock; SQLite runs them in turn.
      const other = await db.startTransaction().execute();
      expect(await moveListingState(other, { listingId: id, from: 'pending', to: 'publish', at: new Date().toISOString() })).toBe(true);
      const request = actOn(adminAuth, id, 'approve');
      if (dialect === 'postgres') {
        // Committed only once the request's update is seen waiting on the row lock: the race, not a guess of it.
        await vi.waitFor(async () => {
          const { rows } = await sql<{ waiting: number }>`
            select count(*)::int as waiting from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
          expect(rows[0]!.waiting).toBe(1);
        }, 10_000);
      }
      await other.commit().execute();
      const res = await request;
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual(invalidTransition('publish'));
      expect((await row(id)).status).toBe('publish');
      expect(await transitions(id)).toEqual([]);
    });

    it('the conditional move refuses a stale `from`', async () => {
      const id = await listing('publish');
      expect(await moveListingState(db, { listingId: id, from: 'pending', to: 'publish', at: new Date().toISOString() })).toBe(false);
      expect(await moveListingState(db, { listingId: id, from: 'publish', to: 'on_hold', at: new Date().toISOString() })).toBe(true);
      expect((await row(id)).status).toBe('on_hold');
    });
  });
});

describeEachDialect('listing moderation with REQUIRE_APPROVAL=false (%s)', (dialect) => {
  let t: TestApp;
  let owner: UserRow;
  let ownerAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { REQUIRE_APPROVAL: 'false' });
    owner = await newUser(t.database.db, { role: 'owner' });
    ownerAuth = bearer(await tokenFor(t.app, owner));
  });
  afterAll(() => t.close());

  const act = (id: number, action: StateAction) =>
    t.app.inject({ method: 'POST', url: `${API}/users/property-actions`, headers: ownerAuth, payload: { property_id: id, action } });

  it('an owner’s expired listing goes live again at once, and a submitted draft is published', async () => {
    const expired = await newListing(t.database.db, { status: 'expired', author_id: owner.id });
    const live = await t.app.inject({ method: 'POST', url: `${API}/users/live-property/${expired}`, headers: ownerAuth });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json().data).toEqual({ property_id: expired, status: 'publish', featured: false });

    const draft = await newListing(t.database.db, { status: 'draft', author_id: owner.id });
    const submitted = await act(draft, 'submit_listing');
    expect(submitted.json().data).toEqual({ property_id: draft, status: 'publish', featured: false });
    const stored = await t.database.db
      .selectFrom('listings')
      .select(['status', 'published_at'])
      .where('id', '=', draft)
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe('publish');
    expect(stored.published_at).not.toBeNull();
  });

  it('leaves the moderators’ actions to the moderators', async () => {
    const id = await newListing(t.database.db, { status: 'publish', author_id: owner.id });
    expect((await act(id, 'expire')).statusCode).toBe(403);
    expect((await act(id, 'disapprove')).statusCode).toBe(403);
  });
});
