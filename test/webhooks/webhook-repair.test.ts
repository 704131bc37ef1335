import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServices } from '../../src/app.js';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, TEST_JWT_SECRET, testConfig, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newSignedInUser } from '../helpers/factories.js';
import { HOUR_MS, webhookHarness } from './webhook-harness.js';
import { hasValidSignature, webhookReceiver } from './webhook-receiver.js';

const METRICS_TOKEN = 'metrics-token-of-the-webhook-tests';

/** Slice 2 of issue 43: see deliveries, retry one, replay from a sequence number, pause, metrics, pruning. */
describeEachDialect('webhook deliveries: see and repair (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  let adminId: number;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  const { call, newEndpoint, removeEndpoints, follow, deliverAt, newListing } = webhookHarness(
    () => t,
    () => admin,
    () => receiver.base,
  );

  beforeAll(async () => {
    receiver = await webhookReceiver();
    t = await buildTestApp(dialect, { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', METRICS_TOKEN });
    db = t.database.db;
    const signedIn = await newSignedInUser(t, { role: 'administrator' });
    admin = signedIn.auth;
    adminId = signedIn.user.id;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** A listing created, edited and put on hold, each change seen by the follower on its own. */
  async function listingWithThreeEvents(title: string) {
    const id = await newListing(title);
    await follow();
    expect((await call('PUT', `/properties/${id}`, { title: `${title}, renovated` })).statusCode).toBe(200);
    await follow();
    expect((await call('POST', `/users/hold-property/${id}`)).statusCode).toBe(200);
    await follow();
    return id;
  }

  it('lists an endpoint’s deliveries, newest first, paged and by status; unknown endpoint 404, other roles 403', async () => {
    await follow();
    const endpoint = await newEndpoint('/fail');
    await follow();
    await listingWithThreeEvents('Listed house');
    await deliverAt(new Date());
    const all = await call('GET', `/webhooks/${endpoint.id}/deliveries`);
    expect(all.statusCode, all.body).toBe(200);
    const { deliveries, pagination } = all.json().data;
    expect(pagination).toMatchObject({ total_records: 3, current_page: 1, per_page: 10, has_next_page: false });
    expect(deliveries.map((d: { event: { type: string } }) => d.event.type)).toEqual([
      'listing.state_changed',
      'listing.updated',
      'listing.created',
    ]);
    const [, , created] = deliveries;
    expect(created).toMatchObject({ status: 'pending', attempts: 1, response_status: 503, response_body: 'down', error: null });
    expect(created.latency_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(created.next_attempt_at)).toBeGreaterThan(Date.now());
    expect(created.event.id).toMatch(/^evt_\d+_1$/);
    // The others wait behind it: never attempted.
    expect(deliveries[0]).toMatchObject({ attempts: 0, response_status: null, last_attempt_at: null });
    const page = (await call('GET', `/webhooks/${endpoint.id}/deliveries?per_page=1&page=2`)).json().data;
    expect(page.deliveries.map((d: { id: number }) => d.id)).toEqual([deliveries[1].id]);
    expect(page.pagination).toMatchObject({ total_records: 3, total_pages: 3, has_next_page: true, has_previous_page: true });
    const none = (await call('GET', `/webhooks/${endpoint.id}/deliveries?status=delivered`)).json().data;
    expect(none.deliveries).toEqual([]);
    expect((await call('GET', `/webhooks/${endpoint.id}/deliveries?per_page=101`)).statusCode).toBe(400);
    expect((await call('GET', `/webhooks/${endpoint.id}/deliveries?status=lost`)).statusCode).toBe(400);
    expect((await call('GET', '/webhooks/999999/deliveries')).statusCode).toBe(404);
    const agent = (await newSignedInUser(t, { role: 'agent' })).auth;
    expect((await call('GET', `/webhooks/${endpoint.id}/deliveries`, undefined, agent)).statusCode).toBe(403);
    await removeEndpoints();
  });

  it('retries a given-up delivery now, with three more days; a delivered one → 409; another endpoint’s → 404', async () => {
    await follow();
    const endpoint = await newEndpoint('/fail');
    const other = await newEndpoint('/ok', { events: ['listing.deleted'] });
    await follow();
    await newListing('Retried house');
    await follow();
    const [delivery] = (await db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).execute()).map(
      (d) => d.id,
    );
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', finished_at: new Date().toISOString() })
      .where('id', '=', delivery!)
      .execute();
    expect((await call('POST', `/webhooks/${other.id}/deliveries/${delivery}/retry`)).statusCode).toBe(404);
    expect((await call('POST', `/webhooks/${endpoint.id}/deliveries/999999/retry`)).statusCode).toBe(404);

    await call('PATCH', `/webhooks/${endpoint.id}`, { url: `${receiver.base}/ok` });
    const retried = await call('POST', `/webhooks/${endpoint.id}/deliveries/${delivery}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data).toMatchObject({ id: delivery, status: 'pending', finished_at: null });
    expect(Date.parse(retried.json().data.give_up_at) - Date.now()).toBeGreaterThan(71 * HOUR_MS);
    await deliverAt(new Date());
    const after = (await call('GET', `/webhooks/${endpoint.id}/deliveries`)).json().data.deliveries[0];
    expect(after).toMatchObject({ id: delivery, status: 'delivered', response_status: 200 });
    const again = await call('POST', `/webhooks/${endpoint.id}/deliveries/${delivery}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invalid_transition');
    await removeEndpoints();
  });

  it('replays exactly the matching events since a sequence number, in order, with their ids', async () => {
    await follow();
    const endpoint = await newEndpoint('/ok?all');
    const updates = await newEndpoint('/ok?updates', { events: ['listing.updated'] });
    await follow();
    const first = await listingWithThreeEvents('Replayed house');
    const second = await listingWithThreeEvents('Another replayed house');
    await deliverAt(new Date());
    // Arrived interleaved (the two listings go concurrently): in sequence order, the first listing's three come first.
    const firstRound = receiver.bodiesAt('/ok?all').sort((a, b) => a.sequence - b.sequence);
    expect(firstRound.map((b) => b.data.id)).toEqual([first, first, first, second, second, second]);
    const from = firstRound[1]!.sequence; // the first listing's update
    const before = receiver.received.length;

    const replay = await call('POST', `/webhooks/${endpoint.id}/replay`, { from_sequence: from });
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().data).toMatchObject({ queued: 5, from_sequence: from });
    expect(replay.json().data.first_kept_sequence).toBeLessThanOrEqual(firstRound[0]!.sequence);
    const onlyUpdates = await call('POST', `/webhooks/${updates.id}/replay`, { from_sequence: from });
    expect(onlyUpdates.json().data.queued).toBe(2);
    await deliverAt(new Date());
    const replayed = receiver.received.slice(before);
    const all = replayed.filter((r) => r.path === '/ok?all').map((r) => JSON.parse(r.body));
    expect(all.map((b) => b.id).sort()).toEqual(
      firstRound
        .slice(1)
        .map((b) => b.id)
        .sort(),
    );
    for (const listing of [first, second]) {
      const sequences = all.filter((b) => b.data.id === listing).map((b) => b.sequence as number);
      expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    }
    expect(replayed.filter((r) => r.path === '/ok?updates').map((r) => JSON.parse(r.body).type)).toEqual([
      'listing.updated',
      'listing.updated',
    ]);
    expect(replayed.every((r) => r.path !== '/ok?all' || hasValidSignature(r, endpoint.secret))).toBe(true);

    const past = await call('POST', `/webhooks/${endpoint.id}/replay`, { from_sequence: Number.MAX_SAFE_INTEGER });
    expect(past.json().data.queued).toBe(0);
    for (const body of [{}, { from_sequence: -1 }, { from_sequence: 1.5 }, { from_sequence: 1, extra: true }]) {
      expect((await call('POST', `/webhooks/${endpoint.id}/replay`, body)).statusCode).toBe(400);
    }
    expect((await call('POST', '/webhooks/999999/replay', { from_sequence: 0 })).statusCode).toBe(404);
    await removeEndpoints();
  });

  it('sends nothing while WEBHOOK_DELIVERIES_PAUSED, and everything once it is off', async () => {
    await follow();
    await newEndpoint('/ok?paused');
    await follow();
    await newListing('Paused house');
    await follow();
    const paused = createServices({
      config: testConfig({ WEBHOOK_DELIVERIES_PAUSED: 'true' }),
      database: t.database,
      jwtSecret: TEST_JWT_SECRET,
    });
    expect(await paused.webhookDeliverer.runOnce(new Date())).toEqual({ attempted: 0, more: false });
    await paused.shutdown();
    expect(receiver.bodiesAt('/ok?paused')).toHaveLength(0);
    await deliverAt(new Date());
    expect(receiver.bodiesAt('/ok?paused').map((b) => b.type)).toEqual(['listing.created']);
    await removeEndpoints();
  });

  it('PUT /webhooks/settings pauses every process’s deliveries without a restart; events keep queuing and go in order on resume', async () => {
    await follow();
    const endpoint = await newEndpoint('/ok?switch');
    await follow();
    // Another process on the same database: it reads the switch at each run, as this one does.
    const other = createServices({
      config: testConfig({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
      database: t.database,
      jwtSecret: TEST_JWT_SECRET,
    });
    try {
      const initial = await call('GET', '/webhooks/settings');
      expect(initial.statusCode, initial.body).toBe(200);
      expect(initial.json().data).toEqual({
        deliveries_paused: false,
        paused_by_switch: false,
        paused_by_environment: false,
        updated_at: null,
        updated_by: null,
      });
      const paused = await call('PUT', '/webhooks/settings', { deliveries_paused: true });
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json().data).toMatchObject({ deliveries_paused: true, paused_by_switch: true, updated_by: adminId });
      const id = await newListing('Switched house');
      await follow();
      expect((await call('PUT', `/properties/${id}`, { title: 'Switched house, repainted' })).statusCode).toBe(200);
      await follow();
      expect((await call('POST', `/users/hold-property/${id}`)).statusCode).toBe(200);
      await follow();
      expect(await t.services.webhookDeliverer.runOnce(new Date())).toEqual({ attempted: 0, more: false });
      expect(await other.webhookDeliverer.runOnce(new Date())).toEqual({ attempted: 0, more: false });
      expect(receiver.bodiesAt('/ok?switch')).toHaveLength(0);
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.body).toContain('realty_webhook_paused 1');
      const waiting = await db
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('endpoint_id', '=', endpoint.id)
        .where('status', '=', 'pending')
        .execute();
      expect(waiting).toHaveLength(3); // recorded while paused

      expect((await call('PUT', '/webhooks/settings', { deliveries_paused: false })).json().data.deliveries_paused).toBe(false);
      for (let run = 0; run < 10; run++) if ((await other.webhookDeliverer.runOnce(new Date())).attempted === 0) break;
      const bodies = receiver.bodiesAt('/ok?switch');
      expect(bodies.map((b) => b.type)).toEqual(['listing.created', 'listing.updated', 'listing.state_changed']);
      expect(bodies.map((b) => b.sequence)).toEqual([...bodies.map((b) => b.sequence)].sort((a, b) => a - b));
    } finally {
      await other.shutdown();
    }
    const buyer = await newSignedInUser(t, { role: 'buyer' });
    expect((await call('PUT', '/webhooks/settings', { deliveries_paused: true }, buyer.auth)).statusCode).toBe(403);
    expect((await call('GET', '/webhooks/settings', undefined, buyer.auth)).statusCode).toBe(403);
    expect((await call('PUT', '/webhooks/settings', { deliveries_paused: 'yes' })).statusCode).toBe(400);
    expect((await call('PUT', '/webhooks/settings', { deliveries_paused: true, extra: 1 })).statusCode).toBe(400);
    await removeEndpoints();
  });

  it('reports deliveries by status, queue depth per endpoint, lag and the events backlog on GET /metrics', async () => {
    await follow();
    const failing = await newEndpoint('/fail?metrics');
    await follow();
    await listingWithThreeEvents('Measured house');
    await deliverAt(new Date());
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    const pending = (await db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').execute()).length;
    expect(res.body).toContain(`realty_webhook_deliveries{status="pending"} ${pending}`);
    expect(res.body).toContain(`realty_webhook_queue_depth{endpoint_id="${failing.id}"} 3`);
    expect(res.body).toMatch(/realty_webhook_lag_seconds \d/);
    expect(res.body).toContain('realty_webhook_events_backlog 0');
    expect(res.body).toContain('realty_webhook_paused 0');
    await removeEndpoints();
  });

  it('prunes events older than 7 days that no delivery waits for, with their deliveries', async () => {
    await follow();
    const endpoint = await newEndpoint('/ok?prune');
    const waiting = await newEndpoint('/fail?prune');
    await follow();
    await newListing('Pruned house');
    await follow();
    await deliverAt(new Date());
    const events = await db.selectFrom('webhook_events').select('id').execute();
    expect(await t.services.webhookEvents.prune(new Date(Date.now() + 8 * 24 * HOUR_MS))).toBe(events.length - 1);
    // The one event the failing endpoint still waits for is kept, with both its deliveries.
    expect(await db.selectFrom('webhook_deliveries').select('endpoint_id').orderBy('endpoint_id').execute()).toEqual([
      { endpoint_id: endpoint.id },
      { endpoint_id: waiting.id },
    ]);
    expect(await t.services.webhookEvents.prune(new Date())).toBe(0);
    await removeEndpoints();
  });
});
