import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readWxrSite } from '../../src/adapters/feeds/wxr/wxr-reader.js';
import type { UserRow } from '../../src/db/schema/index.js';
import { FEED_FORMATS } from '../../src/modules/exchange/index.js';
import { item, spoolFile, streamOf, wxr } from '../adapters/feeds/wxr/wxr-test-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newSignedInUser, newUser } from '../helpers/factories.js';
import { drainImports, importRunOf, postUpload, tempDataDir } from './import-runs-helpers.js';

/** A PHP-serialized array of rows, as WordPress writes Houzez's repeaters (lengths in UTF-8 bytes). */
const phpString = (text: string) => `s:${Buffer.byteLength(text, 'utf8')}:"${text}";`;
const rows = (list: readonly Record<string, string>[]) =>
  `a:${list.length}:{${list
    .map(
      (row, n) =>
        `i:${n};a:${Object.keys(row).length}:{${Object.entries(row)
          .map(([key, value]) => phpString(key) + phpString(value))
          .join('')}}`,
    )
    .join('')}}`;

/** A Houzez site of 30 properties, one in five with floor plans whose figures are text, as Houzez keeps them. */
function siteWithPlans(): string {
  const properties = Array.from({ length: 30 }, (_, n) => {
    const id = String(1000 + n);
    const meta: Record<string, string | string[]> = { fave_property_price: `€${(250 + n).toLocaleString('de-DE')}.000` };
    if (n % 5 === 0) {
      meta.floor_plans = rows([
        { fave_plan_title: 'Ground floor', fave_plan_size: '497 m²', fave_plan_price: '€250.000', fave_plan_bathrooms: '1.5' },
        { fave_plan_title: 'Attic', fave_plan_size: '1,200 Sq Ft', fave_plan_rooms: '2', fave_plan_price_postfix: '/month' },
      ]);
      meta.fave_energy_class = 'B';
      meta.fave_multi_units = rows([{ fave_mu_title: 'Unit 1', fave_mu_beds: '2', fave_mu_size: '85 m²', fave_mu_price: '310,000' }]);
      meta.fave_virtual_tour = '<iframe src="https://my.matterport.com/show/?m=abc&amp;play=1" width="100%"></iframe>';
    }
    return item(id, 'property', { title: `Property number ${n}`, meta });
  });
  return wxr(properties.join('\n'));
}

/** Three properties: one whose plan size and video address cannot be used (optional values), two good ones. */
function siteWithBadOptionalValues(): string {
  return wxr(
    [
      item('1', 'property', {
        title: 'Villa with a bad plan',
        meta: {
          fave_property_price: '450,000',
          fave_video_url: 'see the office',
          floor_plans: rows([{ fave_plan_title: 'Ground floor', fave_plan_size: 'ask us', fave_plan_rooms: '3' }]),
        },
      }),
      item('2', 'property', { title: 'A good flat', meta: { fave_property_price: '200,000' } }),
      item('3', 'property', { title: 'Another good flat', meta: { fave_property_price: '210,000' } }),
    ].join('\n'),
  );
}

/** A small site for the migration report: terms, an agency, agents, authors, listings in three states, pictures. */
function siteForReport(): string {
  const term = (taxonomy: string, slug: string, name: string) =>
    `<wp:term><wp:term_taxonomy>${taxonomy}</wp:term_taxonomy><wp:term_slug>${slug}</wp:term_slug><wp:term_name><![CDATA[${name}]]></wp:term_name></wp:term>`;
  const attachment = (id: string, url: string) =>
    item(id, 'attachment', { status: 'inherit', extra: `<wp:attachment_url>${url}</wp:attachment_url>` });
  const type = '<category domain="property_type" nicename="villa"><![CDATA[Villa]]></category>';
  return wxr(
    [
      '<wp:base_site_url>https://report-site.example</wp:base_site_url>',
      '<wp:author><wp:author_login>ana</wp:author_login><wp:author_email>ana@report-site.example</wp:author_email></wp:author>',
      term('property_type', 'villa', 'Villa'),
      term('property_type', 'report-chalet', 'Report chalet'),
      term('property_city', 'ronda', 'Ronda'),
      item('20', 'houzez_agency', {
        title: 'Report Homes',
        extra: '<link>https://report-site.example/agency/report-homes/</link>',
        meta: { fave_agency_email: 'office@report-site.example' },
      }),
      item('21', 'houzez_agent', {
        title: 'Rita Report',
        meta: { fave_agent_email: 'rita@report-site.example', fave_agent_agencies: '20' },
      }),
      item('22', 'houzez_agent', { title: 'No Mail', meta: {} }),
      item('30', 'property', {
        title: 'Villa in the report',
        creator: 'ana',
        extra: `${type}<link>https://report-site.example/property/villa-in-the-report/</link>`,
        meta: {
          fave_property_images: ['40', '41', '42'],
          fave_attachments: ['43'],
          fave_agents: '21',
          floor_plans: rows([
            { fave_plan_title: 'A', fave_plan_size: '90 m²' },
            { fave_plan_title: 'B', fave_plan_size: 'big' },
          ]),
        },
      }),
      item('31', 'property', { title: 'Draft in the report', status: 'draft', meta: { fave_property_images: '42' } }),
      item('32', 'property', { title: 'Sold in the report', status: 'houzez_sold' }),
      item('33', 'property', { title: 'x' }),
      attachment('40', 'https://report-site.example/wp-content/uploads/a.jpg'),
      attachment('41', 'https://report-site.example/wp-content/uploads/b.jpg'),
      attachment('42', 'https://cdn.elsewhere.example/c.jpg'),
      attachment('43', 'https://report-site.example/wp-content/uploads/brochure.pdf'),
    ].join('\n'),
  );
}

const BAD_PLAN = { at: 'line 4', key: '1', field: 'floor_plans', reason: 'must be of type number (in plan 1, fave_plan_size)' };
const BAD_VIDEO = { at: 'line 4', key: '1', field: 'video_url', reason: 'has an invalid format' };

describeEachDialect('a Houzez site whose floor plans have text sizes (%s)', (dialect) => {
  const data = tempDataDir();
  let t: TestApp;
  let admin: UserRow;
  let auth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { DATA_DIR: data.dir });
    admin = await newUser(t.database.db, { role: 'administrator' });
    auth = (await newSignedInUser(t, { role: 'administrator' })).auth;
  });
  afterAll(async () => {
    await t.close();
    data.remove();
  });
  const listingOf = async (source: string, key: string) => {
    const [row] = await t.database.db
      .selectFrom('listing_sources')
      .select('listing_id')
      .where('source', '=', source)
      .where('source_key', '=', key)
      .execute();
    if (!row) return undefined;
    return JSON.parse((await t.app.inject({ method: 'GET', url: `/realty-api/v1/properties/${row.listing_id}` })).body).data;
  };

  const importSite = (text: string, options: { dryRun?: boolean; strict?: boolean } = {}) =>
    t.services.wordpressSiteImporter.run(readWxrSite(streamOf(text, 4096), spoolFile()), {
      source: 'plans-site',
      actorId: admin.id,
      ...options,
    });
  const importAs = (source: string, text: string, options: { dryRun?: boolean; strict?: boolean } = {}) =>
    t.services.wordpressSiteImporter.run(readWxrSite(streamOf(text, 4096), spoolFile()), { source, actorId: admin.id, ...options });

  it('imports every listing, each with its plans, units as plans, energy class and tour', async () => {
    const summary = await importSite(siteWithPlans());
    expect(summary).toMatchObject({ created: 30, rejected: 0 });
    const [source] = await t.database.db.selectFrom('listing_sources').select('listing_id').where('source_key', '=', '1005').execute();
    const { body } = await t.app.inject({ method: 'GET', url: `/realty-api/v1/properties/${source!.listing_id}` });
    const listing = JSON.parse(body).data;
    expect(listing).toMatchObject({
      price: 255000,
      currency: 'EUR',
      virtual_tour: 'https://my.matterport.com/show/?m=abc&play=1',
      additional_features: [{ title: 'Energy class', value: 'B' }],
    });
    expect(listing.floor_plans).toEqual([
      {
        title: 'Ground floor',
        rooms: null,
        bathrooms: 1.5,
        price: 250000,
        price_postfix: '',
        size: 497,
        size_postfix: 'm²',
        description: '',
        image_url: '',
      },
      {
        title: 'Attic',
        rooms: 2,
        bathrooms: null,
        price: null,
        price_postfix: '/month',
        size: 1200,
        size_postfix: 'sq ft',
        description: '',
        image_url: '',
      },
      {
        title: 'Unit 1',
        rooms: 2,
        bathrooms: null,
        price: 310000,
        price_postfix: '',
        size: 85,
        size_postfix: 'm²',
        description: '',
        image_url: '',
      },
    ]);
  });

  it('imports a listing whose optional values cannot be used without them, each a warning with its place, field and reason', async () => {
    const summary = await importAs('warned-site', siteWithBadOptionalValues());
    expect(summary).toMatchObject({ created: 3, rejected: 0, warnings: 2 });
    expect(summary.reportedWarnings).toEqual([BAD_PLAN, BAD_VIDEO]);
    const villa = await listingOf('warned-site', '1');
    expect(villa).toMatchObject({ title: 'Villa with a bad plan', price: 450000, video_url: '' });
    expect(villa.floor_plans).toMatchObject([{ title: 'Ground floor', rooms: 3, size: null }]);
  });

  it('rejects such a listing in a strict run, with its warnings as the errors, and stops there', async () => {
    const summary = await importAs('strict-site', siteWithBadOptionalValues(), { strict: true });
    expect(summary).toMatchObject({ created: 0, rejected: 1, warnings: 0, stopped: true });
    expect(summary.rejections).toEqual([
      {
        at: 'line 4',
        key: '1',
        errors: [
          { field: BAD_PLAN.field, reason: BAD_PLAN.reason },
          { field: BAD_VIDEO.field, reason: BAD_VIDEO.reason },
        ],
      },
    ]);
    expect(await listingOf('strict-site', '1')).toBeUndefined();
  });

  it('leaves out one bad picture, or a bad value of a CSV record, keeping the rest of the record', async () => {
    const csv = [
      'key,title,video_url,images',
      'C1,House by the sea,javascript:alert(1),https://img.example/a.jpg|ftp://img.example/b.jpg',
    ].join('\n');
    const summary = await t.services.feedImporter.run(FEED_FORMATS.csv.read(Readable.from([csv])), {
      source: 'csv-warned',
      actorId: admin.id,
    });
    expect(summary).toMatchObject({ created: 1, rejected: 0, warnings: 2 });
    expect(summary.reportedWarnings.map((warning) => warning.field)).toEqual(['video_url', 'images.1']);
    const pictures = await t.database.db.selectFrom('feed_pictures').select('url').orderBy('position').execute();
    expect(pictures.map((picture) => picture.url)).toContain('https://img.example/a.jpg');
    expect(pictures.map((picture) => picture.url)).not.toContain('ftp://img.example/b.jpg');
  });

  it('shows the warnings in GET /imports/{id}, and `strict` over HTTP rejects instead', async () => {
    const upload = (fields: [string, string][]) =>
      postUpload(t, auth, [
        ['format', 'wxr'],
        ...fields,
        ['file', { data: Buffer.from(siteWithBadOptionalValues()), filename: 'site.xml', type: 'text/xml' }],
      ]);
    const lenient = await upload([['source', 'http-warned']]);
    const strict = await upload([
      ['source', 'http-strict'],
      ['strict', 'true'],
    ]);
    expect(lenient.statusCode, lenient.body).toBe(202);
    expect(strict.statusCode, strict.body).toBe(202);
    await drainImports(t);
    const run = await importRunOf(t, auth, lenient.json().data.id);
    expect(run).toMatchObject({
      state: 'done',
      strict: false,
      counts: { created: 3, rejected: 0, warnings: 2 },
      warnings_truncated: false,
    });
    expect(run.warnings).toEqual([BAD_PLAN, BAD_VIDEO]);
    const strictRun = await importRunOf(t, auth, strict.json().data.id);
    expect(strictRun).toMatchObject({ state: 'done', strict: true, counts: { created: 0, rejected: 1, warnings: 0 }, warnings: [] });
    expect(strictRun.rejections[0]).toMatchObject({ at: 'line 4', key: '1' });
  });

  it('reports what moved by kind, and a dry run reports the same without writing anything', async () => {
    const { db } = t.database;
    const TABLES = ['users', 'terms', 'listings', 'listing_sources', 'feed_pictures', 'agents', 'agencies'] as const;
    const snapshot = () => Promise.all(TABLES.map((table) => db.selectFrom(table).selectAll().execute()));
    const before = await snapshot();
    const dry = await importAs('report-site', siteForReport(), { dryRun: true });
    expect(await snapshot()).toEqual(before);

    const real = await importAs('report-site', siteForReport());
    const expected = {
      listings: { publish: 1, draft: 1, sold: 1 },
      agents: { read: 2, created: 1 },
      agencies: { read: 1, created: 1 },
      accounts: { created: 3 },
      terms: { read: 2, created: 2 },
      pictures: { fetched: 2, skipped: 2 },
      plans: 2,
      attachments: { carried: 1, notCarried: 0 },
      redirects: 2,
      warnings: 1,
      rejected: 2,
    };
    expect(real.report).toEqual(expected);
    expect(real).toMatchObject({ created: 3, rejected: 2, warnings: 1 });
    // A dry run makes no account: it cannot tell which of the authors' e-mails would be new.
    expect(dry.report).toEqual({ ...expected, accounts: { created: 0 } });
    expect(dry).toMatchObject({ dryRun: true, created: 3, rejected: 2, warnings: 1 });
    expect(await snapshot()).not.toEqual(before);
  });
});
