import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { recordChange } from '../helpers/change-log-rows.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newAgencyWithAgent, newSignedInUser } from '../helpers/factories.js';
import { newInvoice, newPackage } from '../payments/invoices-fixtures.js';
import { webhookHarness } from './webhook-harness.js';
import { hasValidSignature, webhookReceiver } from './webhook-receiver.js';

const RECORD_EVENTS = ['lead.created', 'review.created', 'agent.updated', 'agency.updated', 'invoice.paid', 'membership.changed'];

interface Body {
  id: string;
  type: string;
  sequence: number;
  data: Record<string, unknown> & { id: number; record: Record<string, unknown> | null };
}

/**
 * The event types other than listings' (docs/webhooks.md, "Event types"): each comes from the change log (migration
 * 0038), carries the record as its module shows it to an administrator, is signed, numbered in commit order and
 * narrowed by the filter lists that apply to it.
 */
describeEachDialect('webhook events of leads, reviews, agents, agencies, invoices and memberships (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    receiver = await webhookReceiver();
    t = await buildTestApp(dialect, { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    db = t.database.db;
    admin = (await newSignedInUser(t, { role: 'administrator' })).auth;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const { call, newEndpoint, follow, deliverAt, newListing } = webhookHarness(
    () => t,
    () => admin,
    () => receiver.base,
  );

  it('sends each type once per change, signed, in commit order, with the record an administrator reads; filters narrow where they apply', async () => {
    const { agencyId, agentId } = await newAgencyWithAgent(db);
    const buyer = await newSignedInUser(t, { role: 'buyer' });
    const pkg = await newPackage(db);
    await follow();
    const all = await newEndpoint('/ok', { events: RECORD_EVENTS });
    const byAgency = await newEndpoint('/agency', { events: RECORD_EVENTS, filter: { agency_ids: [agencyId], states: ['publish'] } });
    const listingId = await newListing('Lead magnet');
    const invoice = await newInvoice(db, buyer.user, { item: { type: 'package', id: pkg.id, title: pkg.title }, method: 'bank_transfer' });
    await follow(); // the listing is no subscribed type; the pending invoice is seen, no event

    const steps: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      ['lead', () => call('POST', `/properties/${listingId}/contact`, { name: 'Ann', email: 'ann@example.com', message: 'Still free?' })],
      ['review', () => call('POST', `/agents/${agentId}/reviews`, { rating: 4, content: 'Helpful' }, buyer.auth)],
      ['agent', () => call('PUT', `/agents/${agentId}`, { position: 'Senior agent' })],
      ['agency', () => call('PUT', `/agencies/${agencyId}`, { description: 'Since 1990' })],
      ['agency again', () => call('PUT', `/agencies/${agencyId}`, { description: 'Since 1991' })],
      ['paid', () => call('POST', `/users/invoices/${invoice.id}/mark-paid`)],
    ];
    for (const [step, act] of steps) {
      const res = await act();
      expect(res.statusCode, `${step}: ${res.body}`).toBeLessThan(300);
      await follow(); // one run per step: coalescing would merge what the steps change
    }
    const before = receiver.received.length;
    await deliverAt(new Date());
    const got = receiver.received.slice(before);
    const atOk = got.filter((r) => r.path === '/ok');
    const bodies = atOk.map((r) => JSON.parse(r.body) as Body).sort((a, b) => a.sequence - b.sequence);
    expect(bodies.map((b) => b.type)).toEqual([
      'lead.created',
      'review.created',
      'agent.updated', // the review moved the agent's rating: the follower's first sight of it
      'agent.updated',
      'agency.updated', // first sight: changes unknown
      'agency.updated',
      'invoice.paid',
      'membership.changed',
    ]);
    const sequences = bodies.map((b) => b.sequence);
    expect(new Set(sequences).size).toBe(sequences.length);
    for (const request of atOk) expect(hasValidSignature(request, all.secret)).toBe(true);
    const [lead, review, agentFirst, agent, agencyFirst, agency, paid, membership] = bodies as [
      Body,
      Body,
      Body,
      Body,
      Body,
      Body,
      Body,
      Body,
    ];
    expect(lead.data.record).toMatchObject({ target_type: 'property', target_id: listingId, name: 'Ann', property: { id: listingId } });
    expect(review.data.record).toMatchObject({
      target_type: 'agent',
      target_id: agentId,
      rating: 4,
      content: 'Helpful',
      my_reaction: null,
    });
    expect(agentFirst.data).toMatchObject({ id: agentId, changed_fields: null, record: { reviews_count: 1 } });
    expect(agent.data).toMatchObject({ id: agentId, changed_fields: ['position'], record: { position: 'Senior agent' } });
    expect(agencyFirst.data.changed_fields).toBeNull();
    expect(agency.data).toMatchObject({ id: agencyId, changed_fields: ['description'] });
    expect(paid.data).toMatchObject({ id: invoice.id, record: { status: 'paid', number: invoice.number } });
    expect(membership.data).toMatchObject({
      user_id: buyer.user.id,
      changed_fields: null,
      record: { status: 'active', package: { id: pkg.id } },
    });

    // agency_ids applies to all but invoices and memberships (which have no agency); states to the lead's listing
    // only (published, but of no agency): the lead is the one event filtered out.
    const atAgency = got.filter((r) => r.path === '/agency').map((r) => (JSON.parse(r.body) as Body).type);
    expect(atAgency.sort()).toEqual(
      bodies
        .filter((b) => b.type !== 'lead.created')
        .map((b) => b.type)
        .sort(),
    );

    const deliveries = (await call('GET', `/webhooks/${all.id}/deliveries?per_page=20`)).json().data.deliveries as {
      event: { type: string };
      record: { type: string; id: number };
      status: string;
    }[];
    expect(deliveries.find((d) => d.event.type === 'invoice.paid')).toMatchObject({
      record: { type: 'invoice', id: invoice.id },
      status: 'delivered',
    });
    expect(deliveries.find((d) => d.event.type === 'lead.created')!.record.type).toBe('lead');
    await call('DELETE', `/webhooks/${all.id}`);
    await call('DELETE', `/webhooks/${byAgency.id}`);
  });

  it('POST /webhooks accepts the six types; the change log records what each type follows', async () => {
    const res = await call('POST', '/webhooks', { url: `${receiver.base}/ok`, events: RECORD_EVENTS });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.events).toEqual(RECORD_EVENTS);
    await call('DELETE', `/webhooks/${res.json().data.id}`);
    expect((await call('POST', '/webhooks', { url: `${receiver.base}/ok`, events: ['lead.updated'] })).statusCode).toBe(400);
  });

  it('skips change-log entities it does not follow (terms, and any a later migration adds)', async () => {
    await follow();
    const endpoint = await newEndpoint('/ok', { events: RECORD_EVENTS });
    await follow();
    const before = await db.selectFrom('webhook_follower').select('position').executeTakeFirstOrThrow();
    await recordChange(db, dialect, 'someday', 1);
    await follow();
    const after = await db.selectFrom('webhook_follower').select('position').executeTakeFirstOrThrow();
    expect(Number(after.position)).toBeGreaterThan(Number(before.position));
    await call('DELETE', `/webhooks/${endpoint.id}`);
  });
});
