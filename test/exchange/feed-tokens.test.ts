import { createHash, randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newAgent, newListing, newSignedInUser, newUser } from '../helpers/factories.js';

/**
 * Portal feed tokens (docs/data-exchange.md, "Over HTTP"): administrators make, list and revoke secret feed
 * URLs; a portal pulls the published listings from one without signing in.
 */
const API = '/realty-api/v1';
const ORIGIN = 'https://realty.example';

interface Created {
  id: number;
  token: string;
  url: string;
}

describeEachDialect('portal feed tokens (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  const published: number[] = [];

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL: ORIGIN });
    db = t.database.db;
    admin = (await newSignedInUser(t, { role: 'administrator' })).auth;
    published.push(await newListing(db, { title: 'On the market' }), await newListing(db, { title: 'Also on the market' }));
    for (const status of ['draft', 'pending', 'on_hold', 'disapproved', 'expired', 'sold'] as const) {
      await newListing(db, { title: `Not for portals (${status})`, status });
    }
  });
  afterAll(() => t.close());

  const create = async (payload: object, headers: Auth = admin) =>
    t.app.inject({ method: 'POST', url: `${API}/exports/tokens`, headers, payload });

  async function newToken(format: 'csv' | 'reso' | 'kyero', name = 'A portal'): Promise<Created> {
    const res = await create({ name, format });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Created;
  }

  /** Pulls a feed by its URL, as a portal does: no Authorization header. */
  const pull = (url: string) => t.app.inject({ method: 'GET', url: url.slice(ORIGIN.length) });

  const lastUsedAt = async (id: number) =>
    (await db.selectFrom('feed_tokens').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at;

  it('makes a token shown once, with the feed URL, and keeps only its hash', async () => {
    const res = await create({ name: '  <b>Kyero</b> ', format: 'kyero' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Copy the token now: it is not shown again.');
    const { token } = body.data;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.data).toEqual({
      id: expect.any(Number),
      name: 'Kyero',
      format: 'kyero',
      hint: token.slice(-4),
      created_by: expect.any(Number),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      last_used_at: null,
      token,
      url: `${ORIGIN}${API}/feeds/${token}`,
    });
    const row = await db.selectFrom('feed_tokens').selectAll().where('id', '=', body.data.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('lists the tokens newest first without the secret', async () => {
    const first = await newToken('csv', 'idealista');
    const second = await newToken('reso', 'Zillow');
    const res = await t.app.inject({ method: 'GET', url: `${API}/exports/tokens`, headers: admin });
    expect(res.statusCode).toBe(200);
    const { feed_tokens: tokens, total_feed_tokens: total } = res.json().data;
    expect(total).toBe(tokens.length);
    expect(tokens.map((token: { id: number }) => token.id).slice(0, 2)).toEqual([second.id, first.id]);
    expect(tokens[0]).toEqual({
      id: second.id,
      name: 'Zillow',
      format: 'reso',
      hint: second.token.slice(-4),
      created_by: expect.any(Number),
      created_at: expect.any(String),
      last_used_at: null,
    });
    expect(res.body).not.toContain(first.token);
    expect(res.body).not.toContain(second.token);
  });

  it('serves the published listings only, in the token’s format, without signing in', async () => {
    const csv = await pull((await newToken('csv')).url);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="listings.csv"');
    const rows = parse(csv.body, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.map((row) => Number(row.key))).toEqual(published);
    expect(rows.every((row) => row.status === 'publish')).toBe(true);

    const reso = await pull((await newToken('reso')).url);
    expect(reso.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reso.json().Property.map((property: { ListingKey: string }) => Number(property.ListingKey))).toEqual(published);

    const kyero = await pull((await newToken('kyero')).url);
    expect(kyero.headers['content-disposition']).toBe('attachment; filename="listings.xml"');
    expect(kyero.body.match(/<property>/g)).toHaveLength(published.length);
    expect(kyero.body).not.toContain('Not for portals');
  });

  it('leaves hidden agents out of a portal’s feed, from the members and from the listings naming them', async () => {
    const shown = await newAgent(db, { name: 'Shown Agent', email: 'shown@agents.example' });
    const hidden = await newAgent(db, { name: 'Hidden Agent', email: 'hidden@agents.example', visible: 0 });
    const listing = await newListing(db, { title: 'With two agents' });
    await db
      .insertInto('listing_agents')
      .values([
        { listing_id: listing, agent_id: hidden, position: 0 },
        { listing_id: listing, agent_id: shown, position: 1 },
      ])
      .execute();
    try {
      const feed = (await pull((await newToken('reso')).url)).json();
      expect(feed.Member.map((member: { MemberKey: string }) => member.MemberKey)).toEqual(['shown@agents.example']);
      const property = feed.Property.find((item: { ListingKey: string }) => item.ListingKey === String(listing));
      expect([property.ListAgentKey, property.CoListAgentKey ?? null]).toEqual(['shown@agents.example', null]);
      expect(JSON.stringify(feed)).not.toContain('hidden@agents.example');
    } finally {
      await db.deleteFrom('listings').where('id', '=', listing).execute();
    }
  });

  it('records the last pull, at most once a minute', async () => {
    const { id, url } = await newToken('csv');
    await pull(url);
    const first = await lastUsedAt(id);
    expect(first).not.toBeNull();
    await pull(url);
    expect(await lastUsedAt(id)).toBe(first);
    // A minute later the next pull is recorded.
    const earlier = new Date(Date.now() - 61_000).toISOString();
    await db.updateTable('feed_tokens').set({ last_used_at: earlier }).where('id', '=', id).execute();
    await pull(url);
    const latest = await lastUsedAt(id);
    expect(latest! > earlier).toBe(true);
    const listed = (await t.app.inject({ method: 'GET', url: `${API}/exports/tokens`, headers: admin })).json().data.feed_tokens;
    expect(listed.find((token: { id: number }) => token.id === id).last_used_at).toBe(`${latest!.slice(0, 19)}Z`);
  });

  it('revokes a token: its URL answers 404 from then on', async () => {
    const { id, url } = await newToken('kyero');
    expect((await pull(url)).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'DELETE', url: `${API}/exports/tokens/${id}`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: { id, deleted: true },
      message: 'The feed token was revoked: its URL no longer answers.',
    });
    const gone = await pull(url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('not_found');
    expect((await t.app.inject({ method: 'DELETE', url: `${API}/exports/tokens/${id}`, headers: admin })).statusCode).toBe(404);
    const listed = (await t.app.inject({ method: 'GET', url: `${API}/exports/tokens`, headers: admin })).json().data.feed_tokens;
    expect(listed.map((token: { id: number }) => token.id)).not.toContain(id);
  });

  it('answers 404 to a random token and to one of any other shape', async () => {
    for (const token of [randomBytes(32).toString('base64url'), 'x', 'a'.repeat(90), 'a'.repeat(500), '%C3%A9t%C3%A9']) {
      const res = await t.app.inject({ method: 'GET', url: `${API}/feeds/${token}` });
      expect(res.statusCode, token).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
  });

  it('keeps a token working when the administrator who made it is deleted', async () => {
    const maker = await newUser(db, { role: 'administrator' });
    const created = await t.services.feedTokens.create(
      { id: maker.id, role: 'administrator', sessionId: 'test', tokenExpiresAt: new Date(Date.now() + 60_000) },
      { name: 'Portal', format: 'csv' },
    );
    await db.deleteFrom('users').where('id', '=', maker.id).execute();
    expect((await pull(created.url)).statusCode).toBe(200);
    const row = await db.selectFrom('feed_tokens').select('created_by').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.created_by).toBeNull();
  });

  it('lets only administrators make, list and revoke tokens', async () => {
    const { id } = await newToken('csv');
    for (const role of ['manager', 'agency', 'agent', 'buyer'] as const) {
      const { auth } = await newSignedInUser(t, { role });
      expect((await create({ name: 'Mine', format: 'csv' }, auth)).statusCode, role).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: `${API}/exports/tokens`, headers: auth })).statusCode, role).toBe(403);
      const revoke = await t.app.inject({ method: 'DELETE', url: `${API}/exports/tokens/${id}`, headers: auth });
      expect(revoke.statusCode, role).toBe(403);
      expect(revoke.json().code).toBe('forbidden');
    }
    expect((await t.app.inject({ method: 'POST', url: `${API}/exports/tokens`, payload: { name: 'x', format: 'csv' } })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ method: 'GET', url: `${API}/exports/tokens` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `${API}/exports/tokens/${id}` })).statusCode).toBe(401);
    expect(await db.selectFrom('feed_tokens').select('id').where('id', '=', id).executeTakeFirst()).toBeDefined();
  });

  it('checks the body: name 1–100 with text, a known format, no other field', async () => {
    const cases: [object, string][] = [
      [{ name: '', format: 'csv' }, 'name'],
      [{ name: 'x'.repeat(101), format: 'csv' }, 'name'],
      [{ name: '<i></i> ', format: 'csv' }, 'name'],
      [{ name: 'Portal', format: 'wxr' }, 'format'],
      [{ name: 'Portal' }, 'format'],
      [{ name: 'Portal', format: 'csv', token: 'chosen' }, 'token'],
    ];
    for (const [payload, field] of cases) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors.map((error: { field: string }) => error.field)).toContain(field);
    }
  });

  it('documents every route with its schemas in OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    const tokens = doc.paths[`${API}/exports/tokens`];
    expect(Object.keys(tokens.post.responses).sort()).toEqual(['201', '400', '401', '403', '413', '415', '429']);
    expect(tokens.post.responses['201'].content['application/json'].schema.properties.data.required).toEqual(
      expect.arrayContaining(['token', 'url', 'hint', 'last_used_at']),
    );
    expect(tokens.get.responses['200']).toBeDefined();
    expect(doc.paths[`${API}/exports/tokens/{id}`].delete.responses['404']).toBeDefined();
    const feed = doc.paths[`${API}/feeds/{token}`].get;
    expect(feed.security).toBeUndefined();
    expect(Object.keys(feed.responses['200'].content).sort()).toEqual(['application/json', 'application/xml', 'text/csv']);
    expect(doc.components.schemas).toHaveProperty('FeedToken');
  });
});
