import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { type ListingDraft, ListingBulkWriter } from '../../src/modules/properties/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newAgency, newAgencyWithAgent, newAgent, newListing, newSignedInUser, newUser, signIn } from '../helpers/factories.js';

/**
 * GET /exports/{format} (docs/data-exchange.md, "Over HTTP"): the feed file streamed to whoever may have it,
 * narrowed to an agency's or an agent's own listings.
 */
const API = '/realty-api/v1';

/** The rows of a CSV feed, as objects keyed by column. */
function csvRows(text: string): Record<string, string>[] {
  return parse(text, { columns: true, bom: true }) as Record<string, string>[];
}

async function nameAgent(db: Kysely<DB>, listingId: number, agentId: number): Promise<void> {
  await db.insertInto('listing_agents').values({ listing_id: listingId, agent_id: agentId, position: 0 }).execute();
}

describeEachDialect('GET /exports/{format} (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  const auth: Record<'admin' | 'manager' | 'agency' | 'agent' | 'buyer', Auth> = {} as never;
  /** Listing ids by what they are. */
  const ids: Record<'agencyHouse' | 'agencyDraft' | 'otherHouse' | 'agentSolo' | 'plainFlat', number> = {} as never;
  let agencyId: number;
  let otherAgencyId: number;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL: 'https://realty.example' });
    db = t.database.db;
    auth.admin = (await newSignedInUser(t, { role: 'administrator' })).auth;
    auth.manager = (await newSignedInUser(t, { role: 'manager' })).auth;
    auth.buyer = (await newSignedInUser(t, { role: 'buyer' })).auth;
    const directory = await newAgencyWithAgent(db);
    agencyId = directory.agencyId;
    auth.agency = await signIn(t.app, directory.agencyUser);
    auth.agent = await signIn(t.app, directory.agentUser);
    otherAgencyId = await newAgency(db, { name: 'Other Realty', email: 'office@other.example' });
    const otherAgentId = await newAgent(db, { name: 'Olga Other', email: 'olga@other.example', agency_id: otherAgencyId });

    ids.agencyHouse = await newListing(db, { title: 'Agency house', agency_id: agencyId });
    await nameAgent(db, ids.agencyHouse, directory.agentId);
    ids.agencyDraft = await newListing(db, { title: 'Agency draft', status: 'draft', agency_id: agencyId });
    ids.otherHouse = await newListing(db, { title: 'Other house', agency_id: otherAgencyId });
    await nameAgent(db, ids.otherHouse, otherAgentId);
    ids.agentSolo = await newListing(db, { title: 'Agent solo', price: 1250 });
    await nameAgent(db, ids.agentSolo, directory.agentId);
    ids.plainFlat = await newListing(db, { title: 'Ático en Málaga, 東京 view' });
  });
  afterAll(() => t.close());

  const download = (format: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `${API}/exports/${format}`, headers });

  it('streams every listing as CSV to an administrator, as an attachment', async () => {
    const res = await download('csv', auth.admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="listings.csv"');
    expect(res.headers['cache-control']).toBe('private, no-store');
    // Streamed: no length is known before the last row.
    expect(res.headers['content-length']).toBeUndefined();
    const rows = csvRows(res.body);
    // Listings made here are named by this site's own key for them (docs/data-exchange.md), ending in their id.
    const siteKey = await t.services.feedExporter.ownSiteKey();
    expect(rows.map((row) => row.key)).toEqual(
      Object.values(ids)
        .sort((a, b) => a - b)
        .map((id) => `realty:${siteKey}:${id}`),
    );
    const solo = rows.find((row) => row.title === 'Agent solo')!;
    expect(solo).toMatchObject({ key: `realty:${siteKey}:${ids.agentSolo}`, status: 'publish', price: '1250' });
    expect(rows.find((row) => row.title === 'Agency draft')!.status).toBe('draft');
    // UTF-8 throughout, whatever piece a character falls in.
    expect(rows.find((row) => row.key?.endsWith(`:${ids.plainFlat}`))!.title).toBe('Ático en Málaga, 東京 view');
  });

  it('gives a manager everything too', async () => {
    const rows = csvRows((await download('csv', auth.manager)).body);
    expect(rows).toHaveLength(Object.keys(ids).length);
  });

  it('writes RESO JSON with the offices and members, and Kyero XML, each with its media type and file name', async () => {
    const reso = await download('reso', auth.admin);
    expect(reso.statusCode).toBe(200);
    expect(reso.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reso.headers['content-disposition']).toBe('attachment; filename="listings.json"');
    const document = reso.json();
    expect(document.Office.map((office: { OfficeName: string }) => office.OfficeName)).toContain('Other Realty');
    expect(document.Member.map((member: { MemberEmail: string }) => member.MemberEmail)).toContain('olga@other.example');
    // RESO has no state for a draft: the writer leaves it out.
    expect(document.Property.map((property: { ListingKey: string }) => property.ListingKey)).not.toContain(String(ids.agencyDraft));
    expect(document.Property).toHaveLength(Object.keys(ids).length - 1);

    const kyero = await download('kyero', auth.admin);
    expect(kyero.statusCode).toBe(200);
    expect(kyero.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(kyero.headers['content-disposition']).toBe('attachment; filename="listings.xml"');
    expect(kyero.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<root>/);
    expect(kyero.body.match(/<property>/g)).toHaveLength(Object.keys(ids).length - 1);
  });

  it('gives an agency user the listings of their agency, every state, with their agency and its agents only', async () => {
    const rows = csvRows((await download('csv', auth.agency)).body);
    expect(rows.map((row) => row.title).sort()).toEqual(['Agency draft', 'Agency house']);
    const document = (await download('reso', auth.agency)).json();
    expect(document.Office).toHaveLength(1);
    expect(document.Office[0].OfficeKey).toBe(String(agencyId));
    expect(document.Member).toHaveLength(1);
    expect(JSON.stringify(document)).not.toContain('Other');
  });

  it('gives an agent user the listings naming them, and no agency records', async () => {
    const rows = csvRows((await download('csv', auth.agent)).body);
    expect(rows.map((row) => row.title).sort()).toEqual(['Agency house', 'Agent solo']);
    const document = (await download('reso', auth.agent)).json();
    expect(document.Office).toEqual([]);
    expect(document.Member).toHaveLength(1);
  });

  it('compresses the stream for a client that accepts gzip', async () => {
    const res = await download('csv', { ...auth.admin, 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(csvRows(gunzipSync(res.rawPayload).toString('utf8'))).toHaveLength(Object.keys(ids).length);
  });

  it('refuses other roles (403), anonymous callers (401), a bad token (401) and an unknown format (400)', async () => {
    const buyer = await download('csv', auth.buyer);
    expect(buyer.statusCode).toBe(403);
    expect(buyer.json()).toMatchObject({ success: false, code: 'forbidden' });
    expect(buyer.headers['content-disposition']).toBeUndefined();
    for (const role of ['owner', 'seller'] as const) {
      expect((await download('kyero', (await newSignedInUser(t, { role })).auth)).statusCode, role).toBe(403);
    }
    const anonymous = await download('csv');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('unauthorized');
    expect((await download('csv', { authorization: 'Bearer not-a-token' })).json().code).toBe('invalid_token');
    const unknown = await download('wxr', auth.admin);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'format' }] });
  });

  it('refuses an agency or agent user who has no directory record (an empty scope would be every listing)', async () => {
    for (const [role, message] of [
      ['agency', 'Your account has no agency record, so there are no agency listings to export.'],
      ['agent', 'Your account has no agent record, so no listing names you and there is nothing to export.'],
    ] as const) {
      const res = await download('csv', (await newSignedInUser(t, { role })).auth);
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', message });
    }
  });

  it('documents the file response in OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    const operation = doc.paths[`${API}/exports/{format}`].get;
    expect(operation.tags).toEqual(['exchange']);
    expect(Object.keys(operation.responses['200'].content).sort()).toEqual(['application/json', 'application/xml', 'text/csv']);
    expect(operation.responses['200'].content['text/csv'].schema).toEqual({ type: 'string' });
    expect(operation.responses['200'].headers['content-disposition']).toBeDefined();
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '403', '429']);
    expect(operation.parameters.find((p: { name: string }) => p.name === 'format').schema.enum).toEqual(['csv', 'reso', 'kyero']);
  });
});

describeEachDialect('GET /exports/{format} of a few thousand listings (%s)', (dialect) => {
  const COUNT = 3_000;
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    const author = await newUser(t.database.db, { role: 'administrator' });
    const now = new Date().toISOString();
    const drafts = Array.from({ length: COUNT }, (_, i): ListingDraft => ({
      row: {
        slug: `bulk-${i}`,
        title: `Bulk listing ${i}`,
        status: 'publish',
        author_id: author.id,
        price: 1000 + i,
        currency: 'EUR',
        created_at: now,
        updated_at: now,
        published_at: now,
      },
      terms: [],
      agentIds: [],
      gallery: [],
      reviews: [],
    }));
    await new ListingBulkWriter(t.database.db).write([drafts]);
  });
  afterAll(() => t.close());

  it('streams all of them, page after page, in id order', async () => {
    const { auth } = await newSignedInUser(t, { role: 'administrator' });
    const res = await t.app.inject({ method: 'GET', url: `${API}/exports/csv`, headers: auth });
    expect(res.statusCode).toBe(200);
    const rows = csvRows(res.body);
    expect(rows).toHaveLength(COUNT);
    expect(new Set(rows.map((row) => row.title)).size).toBe(COUNT);
    const keys = rows.map((row) => Number(row.key));
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect(rows.at(-1)).toMatchObject({ title: `Bulk listing ${COUNT - 1}`, price: String(1000 + COUNT - 1) });
  });
});
