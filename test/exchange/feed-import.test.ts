import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readCsvFeed } from '../../src/adapters/feeds/csv.js';
import { changeLogHead } from '../../src/db/change-log.js';
import type { DialectName } from '../../src/db/dialect/index.js';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import type { AuthUser } from '../../src/lib/signed-in-user.js';
import { FEED_FORMATS, type FeedFormat, type ImportOptions, type ImportSummary } from '../../src/modules/exchange/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgency, newAgent, newUser } from '../helpers/factories.js';

const HEADER = 'key,title,price,status,types,features,country,state,city,agents,agency,description';

function asAdmin(user: UserRow): AuthUser {
  return { id: user.id, role: 'administrator', sessionId: 'test', tokenExpiresAt: new Date(Date.now() + 3_600_000) };
}

/** The site a test imports into: an application, its administrator, and an agency with one agent. */
interface Site {
  t: TestApp;
  db: Kysely<DB>;
  admin: UserRow;
  agentId: number;
  agencyId: number;
}

async function newSite(dialect: DialectName): Promise<Site> {
  const t = await buildTestApp(dialect, { PUBLIC_URL: 'https://realty.example', DEFAULT_CURRENCY: 'EUR' });
  const db = t.database.db;
  const admin = await newUser(db, { role: 'administrator' });
  const agencyId = await newAgency(db, { name: 'Casa Realty', email: 'office@casa.example' });
  const agentId = await newAgent(db, { name: 'Ana Ruiz', email: 'ana@casa.example', agency_id: agencyId });
  return { t, db, admin, agentId, agencyId };
}

async function importText(site: Site, format: FeedFormat, text: string, options: Partial<ImportOptions> = {}): Promise<ImportSummary> {
  return site.t.services.feedImporter.run(FEED_FORMATS[format].read(Readable.from([Buffer.from(text)])), {
    source: 'agency-feed',
    actorId: site.admin.id,
    directoryIds: FEED_FORMATS[format].directoryIds,
    ...options,
  });
}

async function exportText(site: Site, format: FeedFormat): Promise<string> {
  let text = '';
  for await (const piece of FEED_FORMATS[format].write(site.t.services.feedExporter.content())) text += piece;
  return text;
}

async function listingRows(db: Kysely<DB>) {
  return db.selectFrom('listings').selectAll().orderBy('id').execute();
}

/** A few listings made through the API itself, with terms, places, an agent, an agency and structured fields. */
async function createThroughApi(site: Site): Promise<void> {
  const { properties, taxonomies } = site.t.services;
  const villa = await taxonomies.createTerm('property_type', { name: 'Villa' });
  const flat = await taxonomies.createTerm('property_type', { name: 'Flat' });
  const pool = await taxonomies.createTerm('property_feature', { name: 'Pool' });
  const forSale = await taxonomies.createTerm('property_status', { name: 'For Sale' });
  const admin = asAdmin(site.admin);
  await properties.create(admin, {
    title: 'Villa with a view, "quoted" & =formula',
    description: '<p>Sea view,\nnew roof.</p>',
    price: 450000.5,
    currency: 'EUR',
    bedrooms: 4,
    bathrooms: 3,
    size: 210,
    size_unit: 'm2',
    year_built: 1999,
    type_ids: [villa.id],
    status_ids: [forSale.id],
    feature_ids: [pool.id],
    country: 'Spain',
    state: 'Andalusia',
    city: 'Málaga',
    area: 'El Limonar',
    latitude: 36.72,
    longitude: -4.4,
    agent_ids: [site.agentId],
    agency_id: site.agencyId,
    additional_features: [{ title: 'Heating', value: 'Gas | underfloor' }],
    floor_plans: [{ title: 'Ground floor', rooms: 3, size: 120 }],
    featured: true,
  });
  await properties.create(admin, { title: 'Flat in the centre', price: null, type_ids: [flat.id], city: 'Málaga', status: 'sold' });
  await properties.create(admin, { title: '-3 Degrees Loft', reference: '+REF-7', status: 'on_hold' });
}

/** The CSV as rows of cells by column name. */
async function csvRows(text: string): Promise<Record<string, string>[]> {
  const { parse } = await import('csv-parse/sync');
  return parse(text, { columns: true }) as Record<string, string>[];
}

describeEachDialect('feed import (%s)', (dialect) => {
  let from: Site;
  let to: Site;

  beforeAll(async () => {
    from = await newSite(dialect);
    await createThroughApi(from);
  });
  afterAll(() => from.t.close());
  afterEach(() => to?.t.close());

  it('CSV: export, import into an empty site, export again gives the same file but the times the new site stamps', async () => {
    to = await newSite(dialect);
    const first = await exportText(from, 'csv');
    const summary = await importText(to, 'csv', first);
    expect(summary).toMatchObject({ created: 3, updated: 0, unchanged: 0, rejected: 0, withdrawn: 0 });
    const second = await exportText(to, 'csv');
    const strip = (rows: Record<string, string>[]) => rows.map(({ created_at: _c, updated_at: _u, ...row }) => row);
    expect(strip(await csvRows(second))).toEqual(strip(await csvRows(first)));
    // The formula-looking title is escaped in the file and comes back whole.
    expect(first).toContain(`,'-3 Degrees Loft,`);
    expect((await listingRows(to.db)).map((row) => row.title)).toContain('-3 Degrees Loft');
  });

  it('RESO: export, import into an empty site, export again gives the same document but the stamped times', async () => {
    to = await newSite(dialect);
    const first = await exportText(from, 'reso');
    const summary = await importText(to, 'reso', first);
    // Members and offices are read to resolve the listings' keys; the sold listing is exported as Closed.
    expect(summary).toMatchObject({ created: 3, rejected: 0 });
    const strip = (text: string) =>
      JSON.parse(text, (key, value: unknown) => (key === 'ModificationTimestamp' || key === 'OriginalEntryTimestamp' ? undefined : value));
    expect(strip(await exportText(to, 'reso'))).toEqual(strip(first));
  });

  it('Kyero: every field the format maps survives an export and import', async () => {
    to = await newSite(dialect);
    const summary = await importText(to, 'kyero', await exportText(from, 'kyero'));
    // Kyero lists what is on the market: the published villa only.
    expect(summary).toMatchObject({ created: 1, rejected: 0 });
    const [villa] = await listingRows(to.db);
    expect(villa).toMatchObject({
      status: 'publish',
      price: 450001,
      currency: 'EUR',
      bedrooms: 4,
      bathrooms: 3,
      size: 210,
      size_unit: 'm2',
      latitude: 36.72,
      longitude: -4.4,
      description: '<p>Sea view,\nnew roof.</p>',
    });
    const names = await to.db
      .selectFrom('listing_terms')
      .innerJoin('terms', 'terms.id', 'listing_terms.term_id')
      .select(['terms.taxonomy', 'terms.name'])
      .orderBy('terms.taxonomy')
      .orderBy('terms.name')
      .execute();
    expect(names).toEqual([
      { taxonomy: 'property_area', name: 'El Limonar' },
      { taxonomy: 'property_city', name: 'Málaga' },
      { taxonomy: 'property_country', name: 'Spain' },
      { taxonomy: 'property_feature', name: 'Pool' },
      { taxonomy: 'property_state', name: 'Andalusia' },
      { taxonomy: 'property_status', name: 'For Sale' },
      { taxonomy: 'property_type', name: 'Villa' },
    ]);
  });

  it('imports the same file again without writing anything, and updates only the fields a changed record carries', async () => {
    to = await newSite(dialect);
    const feed = [
      HEADER,
      'A1,Sunny flat,100000,publish,Flat,Lift|Balcony,Spain,Madrid,Madrid,ana@casa.example,office@casa.example,First',
    ].join('\n');
    expect(await importText(to, 'csv', feed)).toMatchObject({ created: 1 });
    const [before] = await listingRows(to.db);
    const head = await changeLogHead(to.db);
    expect(await importText(to, 'csv', feed)).toMatchObject({ created: 0, updated: 0, unchanged: 1, rejected: 0 });
    expect(await changeLogHead(to.db)).toBe(head);
    expect(await listingRows(to.db)).toEqual([before]);

    // A local edit of a field the next feed does not carry is kept; the fields it carries are the feed's.
    await to.t.services.properties.update(asAdmin(to.admin), before!.id, { description: 'Edited here', bedrooms: 2 });
    const changed = await importText(to, 'csv', 'key,title,price\nA1,Sunny flat,95000');
    expect(changed).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    const [after] = await listingRows(to.db);
    expect(after).toMatchObject({ id: before!.id, price: 95000, description: 'Edited here', bedrooms: 2, agency_id: to.agencyId });
  });

  it('names agents and agencies by their ids here in CSV, as its export names those without an e-mail', async () => {
    to = await newSite(dialect);
    const feed = `key,title,agents,agency\nI1,Named by ids,${to.agentId},${to.agencyId}\nI2,Unknown id,${to.agentId + 1000},`;
    const summary = await importText(to, 'csv', feed);
    expect(summary).toMatchObject({ created: 1, rejected: 1 });
    expect(summary.rejections[0]).toMatchObject({ key: 'I2', errors: [{ field: 'agents.0' }] });
    expect((await listingRows(to.db))[0]).toMatchObject({ title: 'Named by ids', agency_id: to.agencyId });
  });

  it('withdraws the listings of the source that the feed no longer lists, leaving sold ones and other sources alone', async () => {
    to = await newSite(dialect);
    const rows = ['B1,One,1,publish', 'B2,Two,2,publish', 'B3,Three,3,sold', 'B4,Four,4,on_hold'];
    await importText(to, 'csv', ['key,title,price,status', ...rows].join('\n'));
    await importText(to, 'csv', 'key,title,price\nB9,Other source,9', { source: 'portal' });
    const summary = await importText(to, 'csv', ['key,title,price,status', rows[0]].join('\n'), { withdrawMissing: true });
    expect(summary).toMatchObject({ unchanged: 1, withdrawn: 2 });
    const states = Object.fromEntries((await listingRows(to.db)).map((row) => [row.title, row.status]));
    expect(states).toEqual({ One: 'publish', Two: 'expired', Three: 'sold', Four: 'expired', 'Other source': 'publish' });
    const history = await to.db
      .selectFrom('listing_transitions')
      .select(['from_state', 'to_state', 'actor_id'])
      .where('to_state', '=', 'expired')
      .execute();
    expect(history).toHaveLength(2);
    expect(history.every((move) => move.actor_id === to.admin.id)).toBe(true);
  });

  it('reports each rejected record with its line, field and reason in the API’s words, and imports the rest (a bad price a warning)', async () => {
    to = await newSite(dialect);
    const feed = [
      HEADER,
      'C1,Good one,10,publish,,,,,,,,',
      'C2,Bad price,abc,publish,,,,,,,,',
      'C3,ab,10,publish,,,,,,,,',
      '"C4","Multi-line',
      'description",10,publish,,,,,,,,',
      'C5,Unknown agent,10,publish,,,,,,nobody@else.example,,',
      'C1,Repeated key,10,publish,,,,,,,,',
      'C6,Too few cells',
      'C7,Wrong state,10,sold-out,,,,,,,,',
      ',No key,10,publish,,,,,,,,',
      'C8,Also good,20,draft,Flat,,,,,,,',
    ].join('\n');
    const summary = await importText(to, 'csv', feed);
    expect(summary).toMatchObject({ created: 4, rejected: 6, warnings: 1 });
    expect(summary.reportedWarnings).toEqual([{ at: 'line 3', key: 'C2', field: 'price', reason: 'must be of type number' }]);
    expect(summary.rejections).toEqual([
      { at: 'line 4', key: 'C3', errors: [{ field: 'title', reason: 'must be at least 3 characters long' }] },
      {
        at: 'line 7',
        key: 'C5',
        errors: [{ field: 'agents.0', reason: 'does not name an agent here (by the feed’s key, e-mail or id)' }],
      },
      { at: 'line 8', key: 'C1', errors: [{ field: 'key', reason: 'is the key of an earlier listing in this feed' }] },
      { at: 'line 9', errors: [{ field: '(record)', reason: 'has 2 cells where the header names 12' }] },
      {
        at: 'line 10',
        key: 'C7',
        errors: [{ field: 'status', reason: 'must be one of: draft, pending, publish, on_hold, disapproved, expired, sold' }],
      },
      { at: 'line 11', errors: [{ field: 'key', reason: 'is required' }] },
    ]);
    expect((await listingRows(to.db)).map((row) => [row.title, row.status])).toEqual([
      ['Good one', 'publish'],
      ['Bad price', 'publish'],
      ['Multi-line\ndescription', 'publish'],
      ['Also good', 'draft'],
    ]);
  });

  it('--strict stops at the first rejection, keeping what came before it', async () => {
    to = await newSite(dialect);
    const feed = ['key,title,price', 'D1,First one,1', 'D2,x,2', 'D3,Third one,3'].join('\n');
    const summary = await importText(to, 'csv', feed, { strict: true });
    expect(summary).toMatchObject({ created: 1, rejected: 1, stopped: true });
    expect((await listingRows(to.db)).map((row) => row.title)).toEqual(['First one']);
  });

  it('--dry-run counts what would change and writes nothing, not even terms', async () => {
    to = await newSite(dialect);
    await importText(to, 'csv', 'key,title,price\nE1,Existing one,1');
    const head = await changeLogHead(to.db);
    const terms = await to.db.selectFrom('terms').select('id').execute();
    const feed = ['key,title,price,types', 'E1,Existing one,2,Castle', 'E2,New one,3,Castle', 'E3,x,3,'].join('\n');
    const summary = await importText(to, 'csv', feed, { dryRun: true, withdrawMissing: true });
    expect(summary).toMatchObject({ dryRun: true, created: 1, updated: 1, unchanged: 0, rejected: 1, withdrawn: 0 });
    expect(await changeLogHead(to.db)).toBe(head);
    expect(await to.db.selectFrom('terms').select('id').execute()).toEqual(terms);
    expect((await listingRows(to.db)).map((row) => row.price)).toEqual([1]);
  });

  it('refuses a file whose header names an unknown column before reading any row', async () => {
    to = await newSite(dialect);
    await expect(importText(to, 'csv', 'key,title,colour\nF1,Red house,red')).rejects.toThrow(/line 1: unknown column "colour"/);
    expect(await listingRows(to.db)).toEqual([]);
  });
});

describe('CSV reader', () => {
  it('reads a record’s start line when quoted cells span lines, and a BOM-prefixed header', async () => {
    const text = '\uFEFFkey,title\nK1,"two\nlines"\nK2,plain\n';
    const records = [];
    for await (const record of readCsvFeed(Readable.from([Buffer.from(text)]))) records.push(record);
    expect(records).toEqual([
      { kind: 'listing', at: 'line 2', listing: { key: 'K1', title: 'two\nlines' } },
      { kind: 'listing', at: 'line 4', listing: { key: 'K2', title: 'plain' } },
    ]);
  });
});
