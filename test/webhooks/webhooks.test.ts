import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app.js';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, TEST_JWT_SECRET, testConfig, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newSignedInUser } from '../helpers/factories.js';
import { API, HOUR_MS, webhookHarness } from './webhook-harness.js';
import { hasValidSignature, webhookReceiver } from './webhook-receiver.js';

describeEachDialect('webhooks (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  let adminId: number;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    receiver = await webhookReceiver({ failures: 3 });
    t = await buildTestApp(dialect, { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    db = t.database.db;
    const signedIn = await newSignedInUser(t, { role: 'administrator' });
    admin = signedIn.auth;
    adminId = signedIn.user.id;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const { call, newEndpoint, removeEndpoints, follow, deliverAt, newListing } = webhookHarness(
    () => t,
    () => admin,
    () => receiver.base,
  );

  describe('endpoints', () => {
    it('shows the secret once, lists, changes, rotates and deletes; unknown ids → 404', async () => {
      const created = await newEndpoint('/ok', { description: '<b>CRM</b> sync', filter: { states: ['publish'] } });
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
      expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
      const read = (await call('GET', `/webhooks/${created.id}`)).json().data;
      expect(read).toMatchObject({
        description: 'CRM sync',
        enabled: true,
        owner: { type: 'user', id: adminId },
        filter: { states: ['publish'] },
      });
      expect(read.secret).toBeUndefined();
      const list = (await call('GET', '/webhooks')).json().data;
      expect(list.webhooks.map((w: { id: number }) => w.id)).toContain(created.id);
      expect(JSON.stringify(list)).not.toContain(created.secret);

      const patched = await call('PATCH', `/webhooks/${created.id}`, { events: ['listing.deleted'], filter: null, enabled: false });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json().data).toMatchObject({ events: ['listing.deleted'], filter: null, enabled: false, disabled_reason: 'manual' });
      const enabled = (await call('PATCH', `/webhooks/${created.id}`, { enabled: true })).json().data;
      expect(enabled).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });

      const rotated = await call('POST', `/webhooks/${created.id}/rotate-secret`);
      expect(rotated.statusCode, rotated.body).toBe(200);
      expect(rotated.json().data.secret).not.toBe(created.secret);
      expect(Date.parse(rotated.json().data.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * HOUR_MS);

      expect((await call('DELETE', `/webhooks/${created.id}`)).json().data).toEqual({ id: created.id, deleted: true });
      for (const [method, url] of [
        ['GET', `/webhooks/${created.id}`],
        ['PATCH', `/webhooks/${created.id}`],
        ['DELETE', `/webhooks/${created.id}`],
        ['POST', `/webhooks/${created.id}/rotate-secret`],
        ['POST', `/webhooks/${created.id}/test`],
      ] as const) {
        const res = await call(method, url, method === 'PATCH' ? { description: 'x' } : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    });

    it('is for administrators only: others 403 (whatever the id), no token 401; any administrator manages every endpoint', async () => {
      const endpoint = await newEndpoint('/ok');
      for (const role of ['manager', 'agency', 'agent', 'buyer'] as const) {
        const other = (await newSignedInUser(t, { role })).auth;
        for (const [method, url] of [
          ['POST', '/webhooks'],
          ['GET', '/webhooks'],
          ['GET', `/webhooks/${endpoint.id}`],
          ['GET', '/webhooks/999999'],
          ['PATCH', `/webhooks/${endpoint.id}`],
          ['DELETE', `/webhooks/${endpoint.id}`],
          ['POST', `/webhooks/${endpoint.id}/rotate-secret`],
          ['POST', `/webhooks/${endpoint.id}/test`],
        ] as const) {
          const payload =
            method === 'POST' && url === '/webhooks' ? { url: `${receiver.base}/ok`, events: ['listing.created'] } : undefined;
          const res = await call(method, url, method === 'PATCH' ? { description: 'mine now' } : payload, other);
          expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
        }
      }
      expect((await t.app.inject({ method: 'GET', url: `${API}/webhooks` })).statusCode).toBe(401);
      const second = (await newSignedInUser(t, { role: 'administrator' })).auth;
      expect((await call('PATCH', `/webhooks/${endpoint.id}`, { description: 'second admin' }, second)).statusCode).toBe(200);
      expect((await call('GET', `/webhooks/${endpoint.id}`)).json().data.description).toBe('second admin');
      await removeEndpoints();
    });

    it('refuses bad URLs, unknown events, oversize and unknown fields (400), and the 101st endpoint (409)', async () => {
      const bad: [object, string][] = [
        [{ url: 'ftp://example.com/hook' }, 'url'],
        [{ url: 'not a url' }, 'url'],
        [{ url: 'https://user:secret@example.com/hook' }, 'url'],
        [{ url: 'javascript:alert(1)' }, 'url'],
        [{ url: `https://example.com/${'a'.repeat(2000)}` }, 'url'],
        [{ url: 'http://10.0.0.5/hook' }, 'url'],
        [{ url: 'http://[::1]:8080/hook' }, 'url'],
        [{ url: 'http://localhost:8080/hook' }, 'url'],
        [{ events: ['listing.exploded'] }, 'events.0'],
        [{ events: [] }, 'events'],
        [{ events: ['listing.created', 'listing.created'] }, 'events'],
        [{ description: 'x'.repeat(501) }, 'description'],
        [{ filter: { colour: ['red'] } }, 'filter'],
        [{ filter: { agent_ids: Array.from({ length: 51 }, (_, i) => i + 1) } }, 'filter.agent_ids'],
        [{ filter: { types: ['Not A Slug'] } }, 'filter.types.0'],
        [{ secret: 'whsec_mine' }, 'secret'],
      ];
      for (const [change, field] of bad) {
        const res = await call('POST', '/webhooks', { url: 'https://example.com/hook', events: ['listing.created'], ...change });
        expect(res.statusCode, JSON.stringify(change).slice(0, 80)).toBe(400);
        expect(
          res
            .json()
            .errors.map((e: { field: string }) => e.field)
            .join(' '),
          JSON.stringify(change).slice(0, 80),
        ).toContain(field.split('.')[0]);
      }
      const patch = await call('PATCH', '/webhooks/1', {});
      expect(patch.statusCode).toBe(400);

      await removeEndpoints();
      for (let i = 0; i < 100; i++) await newEndpoint(`/ok?n=${i}`);
      const extra = await call('POST', '/webhooks', { url: 'https://example.com/hook', events: ['listing.created'] });
      expect(extra.statusCode).toBe(409);
      await removeEndpoints();
    });

    it('refuses 127.0.0.1 without WEBHOOK_ALLOWED_HOSTS, at creation and at every attempt', async () => {
      const strict = await buildTestApp(dialect);
      try {
        const strictAdmin = (await newSignedInUser(strict, { role: 'administrator' })).auth;
        const res = await strict.app.inject({
          method: 'POST',
          url: `${API}/webhooks`,
          headers: strictAdmin,
          payload: { url: `${receiver.base}/ok`, events: ['listing.created'] },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[0].field).toBe('url');
      } finally {
        await strict.close();
      }

      // Made while allowed; then a process without the setting delivers on the same database: the guard refuses.
      await follow();
      const endpoint = await newEndpoint('/ok');
      await follow();
      const before = receiver.received.length;
      await newListing('Refused at the attempt');
      await follow();
      // The database is the test's own; the configuration is the defaults', without WEBHOOK_ALLOWED_HOSTS.
      const strictServices = createServices({ config: testConfig(), database: t.database, jwtSecret: TEST_JWT_SECRET });
      await strictServices.webhookDeliverer.runOnce(new Date());
      await strictServices.shutdown();
      expect(receiver.received.length).toBe(before);
      const [delivery] = await db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).execute();
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: null });
      expect(delivery!.last_error).toMatch(/private, loopback/);
      await removeEndpoints();
    });
  });

  describe('deliveries', () => {
    it('sends created → updated → state_changed → deleted in order, with increasing sequence numbers and valid signatures', async () => {
      await follow();
      const endpoint = await newEndpoint('/ok');
      await follow();
      const id = await newListing('Sea view house');
      await follow();
      expect((await call('PUT', `/properties/${id}`, { title: 'Sea view house, renovated', bedrooms: 3 })).statusCode).toBe(200);
      await follow();
      expect((await call('POST', `/users/hold-property/${id}`)).statusCode).toBe(200);
      await follow();
      expect((await call('DELETE', `/properties/${id}`)).statusCode).toBe(200);
      await follow();
      const before = receiver.received.length;
      await deliverAt(new Date());
      const got = receiver.received.slice(before).filter((r) => r.path === '/ok');
      const bodies = got.map((r) => JSON.parse(r.body));
      expect(bodies.map((b) => b.type)).toEqual(['listing.created', 'listing.updated', 'listing.state_changed', 'listing.deleted']);
      expect(bodies.every((b) => b.data.id === id)).toBe(true);
      const sequences = bodies.map((b) => b.sequence as number);
      expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
      expect(new Set(sequences).size).toBe(4);
      expect(bodies[0].data.record).toMatchObject({ id, title: 'Sea view house', status: 'publish' });
      expect(bodies[1].data.changed_fields).toEqual(expect.arrayContaining(['title', 'bedrooms']));
      expect(bodies[1].data.changed_fields).not.toContain('views');
      expect(bodies[1].data.record.title).toBe('Sea view house, renovated');
      expect(bodies[2].data).toMatchObject({ from: 'publish', to: 'on_hold' });
      expect(bodies[3].data).toEqual({ id, record: null });
      for (const request of got) {
        expect(hasValidSignature(request, endpoint.secret)).toBe(true);
        expect(request.headers['webhook-id']).toBe(JSON.parse(request.body).id);
        expect(request.headers['content-type']).toBe('application/json');
        expect(Number(request.headers['webhook-timestamp'])).toBeGreaterThan(0);
        expect(hasValidSignature(request, `whsec_${Buffer.alloc(32).toString('base64')}`)).toBe(false);
      }
      const deliveries = await db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).execute();
      expect(deliveries.every((d) => d.status === 'delivered' && d.attempts === 1 && d.response_status === 200)).toBe(true);
      expect(deliveries[0]!.response_body).toBe('thanks');
      await removeEndpoints();
    });

    it('retries a receiver that fails three times, each event once more per failure, and the order holds', async () => {
      await follow();
      const endpoint = await newEndpoint('/flaky');
      await follow();
      const id = await newListing('Flaky house');
      await follow();
      await call('PUT', `/properties/${id}`, { price: 260000 });
      await follow();
      const start = new Date();
      const flaky = () => receiver.bodiesAt('/flaky');
      await deliverAt(start);
      expect(flaky().map((b) => b.type)).toEqual(['listing.created']);
      // Not due yet a second later: nothing is sent; the update waits behind the failed creation.
      await deliverAt(new Date(start.getTime() + 1000));
      expect(flaky()).toHaveLength(1);
      let clock = start.getTime();
      for (let attempt = 2; attempt <= 4; attempt++) {
        const [row] = await db
          .selectFrom('webhook_deliveries')
          .select(['next_attempt_at', 'attempts'])
          .where('endpoint_id', '=', endpoint.id)
          .orderBy('id')
          .execute();
        expect(row!.attempts).toBe(attempt - 1);
        // Exponential back-off with jitter: 30 s, 60 s, 120 s (each ±20 %) after the failed attempt.
        const delay = Date.parse(row!.next_attempt_at) - clock;
        expect(delay).toBeGreaterThanOrEqual(0.8 * 30_000 * 2 ** (attempt - 2));
        expect(delay).toBeLessThanOrEqual(1.2 * 30_000 * 2 ** (attempt - 2));
        clock = Date.parse(row!.next_attempt_at);
        await deliverAt(new Date(clock));
      }
      const types = flaky().map((b) => b.type);
      expect(types).toEqual(['listing.created', 'listing.created', 'listing.created', 'listing.created', 'listing.updated']);
      expect(
        new Set(
          flaky()
            .slice(0, 4)
            .map((b) => b.id),
        ).size,
      ).toBe(1);
      const rows = await db
        .selectFrom('webhook_deliveries')
        .select(['status', 'attempts'])
        .where('endpoint_id', '=', endpoint.id)
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { status: 'delivered', attempts: 4 },
        { status: 'delivered', attempts: 1 },
      ]);
      expect((await call('GET', `/webhooks/${endpoint.id}`)).json().data.failing_since).toBeNull();
      await removeEndpoints();
    });

    it('keeps a receiver’s answer that holds NUL bytes without them (PostgreSQL text refuses NUL)', async () => {
      await follow();
      const endpoint = await newEndpoint('/nul');
      await follow();
      await newListing('Answered with NUL');
      await follow();
      await deliverAt(new Date());
      const [delivery] = await db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).execute();
      expect(delivery).toMatchObject({ status: 'delivered', response_status: 200, response_body: 'ok then more' });
      await removeEndpoints();
    });

    it('follows no redirect: a 302 is a failed attempt, retried', async () => {
      await follow();
      const endpoint = await newEndpoint('/redirect');
      await follow();
      await newListing('Redirected house');
      await follow();
      const okBefore = receiver.bodiesAt('/ok').length;
      await deliverAt(new Date());
      expect(receiver.bodiesAt('/redirect')).toHaveLength(1);
      expect(receiver.bodiesAt('/ok')).toHaveLength(okBefore);
      const [delivery] = await db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).execute();
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: 302 });
      await removeEndpoints();
    });

    it('a 410 disables the endpoint and tells its owner; its waiting deliveries wait and nothing more is queued', async () => {
      await follow();
      const endpoint = await newEndpoint('/gone');
      await follow();
      const id = await newListing('Gone house');
      await follow();
      const now = new Date();
      await deliverAt(now);
      const read = (await call('GET', `/webhooks/${endpoint.id}`)).json().data;
      expect(read).toMatchObject({ enabled: false, disabled_reason: 'gone' });
      const notes = await db.selectFrom('notifications').selectAll().where('user_id', '=', adminId).where('type', '=', 'system').execute();
      expect(notes.filter((n) => JSON.parse(n.data).webhook_id === endpoint.id)).toHaveLength(1);
      await call('PUT', `/properties/${id}`, { price: 1 });
      await follow();
      expect(await db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).execute()).toHaveLength(1);
      await deliverAt(new Date(now.getTime() + 24 * HOUR_MS));
      expect(receiver.bodiesAt('/gone')).toHaveLength(1);
      await removeEndpoints();
    });

    it('gives a delivery up after about three days, which lets the record’s next event go; five days of failures disable the endpoint', async () => {
      await follow();
      const endpoint = await newEndpoint('/fail');
      await follow();
      const start = new Date();
      const id = await newListing('Failing house');
      await follow(start);
      await call('PUT', `/properties/${id}`, { price: 1 });
      await follow(start);
      const rows = () => db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).orderBy('id').execute();
      let clock = start.getTime();
      for (let step = 0; step < 60 && (await rows())[0]!.status === 'pending'; step++) {
        await deliverAt(new Date(clock));
        clock = Date.parse((await rows())[0]!.next_attempt_at);
      }
      const [first, second] = await rows();
      expect(first!.status).toBe('failed');
      expect(first!.attempts).toBeGreaterThanOrEqual(10);
      expect(first!.attempts).toBeLessThanOrEqual(20);
      expect(Date.parse(first!.finished_at!) - start.getTime()).toBeLessThanOrEqual(72 * HOUR_MS);
      expect(Date.parse(first!.finished_at!) - start.getTime()).toBeGreaterThan(48 * HOUR_MS);
      // The update waited: its first attempt came after the creation was given up.
      const types = receiver.bodiesAt('/fail').map((b) => b.type);
      expect(types.indexOf('listing.updated')).toBe(first!.attempts);
      expect(second!.attempts).toBeGreaterThanOrEqual(1);
      expect((await call('GET', `/webhooks/${endpoint.id}`)).json().data).toMatchObject({
        enabled: true,
        failing_since: expect.any(String),
      });

      // Day 4: a new event, failing too; past day 5 of failures the endpoint is disabled and its owner told.
      await call('PUT', `/properties/${id}`, { price: 2 });
      await follow(new Date(start.getTime() + 96 * HOUR_MS));
      await deliverAt(new Date(start.getTime() + 96 * HOUR_MS));
      expect((await call('GET', `/webhooks/${endpoint.id}`)).json().data.enabled).toBe(true);
      await deliverAt(new Date(start.getTime() + 121 * HOUR_MS));
      expect((await call('GET', `/webhooks/${endpoint.id}`)).json().data).toMatchObject({ enabled: false, disabled_reason: 'failing' });
      const notes = await db.selectFrom('notifications').selectAll().where('user_id', '=', adminId).execute();
      expect(notes.some((n) => JSON.parse(n.data).webhook_id === endpoint.id && JSON.parse(n.data).reason === 'failing')).toBe(true);
      await removeEndpoints();
    });

    it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
      await removeEndpoints();
      await follow();
      const endpoint = await newEndpoint('/ok');
      await follow();
      const rotated = (await call('POST', `/webhooks/${endpoint.id}/rotate-secret`)).json().data as { secret: string };
      const id = await newListing('Rotated house');
      await follow();
      const before = receiver.received.length;
      await deliverAt(new Date());
      const [during] = receiver.received.slice(before);
      expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(hasValidSignature(during!, rotated.secret)).toBe(true);
      expect(hasValidSignature(during!, endpoint.secret)).toBe(true);

      await call('PUT', `/properties/${id}`, { price: 300000 });
      await follow();
      const later = receiver.received.length;
      await deliverAt(new Date(Date.now() + 25 * HOUR_MS));
      const [after] = receiver.received.slice(later);
      expect(String(after!.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(hasValidSignature(after!, rotated.secret)).toBe(true);
      expect(hasValidSignature(after!, endpoint.secret)).toBe(false);
      await removeEndpoints();
    });

    it('narrows events by the filter', async () => {
      await follow();
      const drafts = await newEndpoint('/ok?drafts', { filter: { states: ['draft'] } });
      const prices = await newEndpoint('/ok?prices', { events: ['listing.updated'], filter: { changed_fields: ['price'] } });
      await follow();
      const id = await newListing('Filtered house');
      await follow();
      await call('PUT', `/properties/${id}`, { title: 'Filtered house, renamed' });
      await follow();
      await call('PUT', `/properties/${id}`, { price: 1000 });
      await follow();
      const queued = async (endpointId: number) =>
        (await db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId).execute()).length;
      expect(await queued(drafts.id)).toBe(0);
      expect(await queued(prices.id)).toBe(1);
      await removeEndpoints();
    });

    it('POST /webhooks/{id}/test sends a signed test event now and tells the answer', async () => {
      const endpoint = await newEndpoint('/ok');
      const before = receiver.received.length;
      const res = await call('POST', `/webhooks/${endpoint.id}/test`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ delivered: true, response_status: 200, response_body: 'thanks', error: null });
      const [request] = receiver.received.slice(before);
      expect(JSON.parse(request!.body)).toMatchObject({ type: 'webhook.test', data: { webhook_id: endpoint.id } });
      expect(hasValidSignature(request!, endpoint.secret)).toBe(true);
      const redirect = await newEndpoint('/redirect');
      expect((await call('POST', `/webhooks/${redirect.id}/test`)).json().data).toMatchObject({ delivered: false, response_status: 302 });
      await removeEndpoints();
    });
  });
});
