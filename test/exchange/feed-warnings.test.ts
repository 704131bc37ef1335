import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema/index.js';
import { FEED_FORMATS, type FeedFormat } from '../../src/modules/exchange/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newSignedInUser, newUser } from '../helpers/factories.js';
import { csvPart, drainImports, importRunOf, postUpload, tempDataDir } from './import-runs-helpers.js';

/** Each format's feed of two listings: the first with optional numbers that cannot be read, the second good. */
const FEEDS: Record<FeedFormat, { text: string; at: string; warnings: { field: string; reason: string }[] }> = {
  csv: {
    text: [
      'key,title,price,bedrooms,size,size_unit',
      'W1,House with odd numbers,abc,two,n/a,m2',
      'W2,A good house,1 200 000,3,120,m2',
    ].join('\n'),
    at: 'line 2',
    warnings: [
      { field: 'price', reason: 'must be of type number' },
      { field: 'bedrooms', reason: 'must be of type number' },
      { field: 'size', reason: 'must be of type number' },
    ],
  },
  reso: {
    text: JSON.stringify({
      Property: [
        { ListingKey: 'W1', X_Realty_Title: 'House with odd numbers', ListPrice: 'call us', BedroomsTotal: 2.5 },
        { ListingKey: 'W2', X_Realty_Title: 'A good house', ListPrice: 1_200_000, BedroomsTotal: 3 },
      ],
    }),
    at: 'Property[0]',
    warnings: [
      { field: 'price', reason: 'must be of type number' },
      { field: 'bedrooms', reason: 'must be of type integer' },
    ],
  },
  kyero: {
    text: [
      '<root>',
      '<property><id>W1</id><type>House</type><price>abc</price><beds>two</beds></property>',
      '<property><id>W2</id><type>House</type><price>1200000</price><beds>3</beds></property>',
      '</root>',
    ].join('\n'),
    at: 'line 2',
    warnings: [
      { field: 'price', reason: 'must be of type number' },
      { field: 'bedrooms', reason: 'must be of type number' },
    ],
  },
};

describeEachDialect('an optional number a CSV, RESO or Kyero feed cannot read (%s)', (dialect) => {
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

  const importText = (format: FeedFormat, source: string, text: string, strict = false) =>
    t.services.feedImporter.run(FEED_FORMATS[format].read(Readable.from([text])), { source, actorId: admin.id, strict });
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

  it.each(['csv', 'reso', 'kyero'] as const)(
    '%s: imports the listing without the values, each a warning with its place',
    async (format) => {
      const feed = FEEDS[format];
      const summary = await importText(format, `warned-${format}`, feed.text);
      expect(summary).toMatchObject({ created: 2, rejected: 0, warnings: feed.warnings.length });
      expect(summary.reportedWarnings).toEqual(feed.warnings.map((warning) => ({ at: feed.at, key: 'W1', ...warning })));
      expect(await listingOf(`warned-${format}`, 'W1')).toMatchObject({ price: null, bedrooms: null });
      expect(await listingOf(`warned-${format}`, 'W2')).toMatchObject({ price: 1_200_000, bedrooms: 3 });
    },
  );

  it.each(['csv', 'reso', 'kyero'] as const)('%s: a strict import rejects the record instead, and stops there', async (format) => {
    const feed = FEEDS[format];
    const summary = await importText(format, `strict-${format}`, feed.text, true);
    expect(summary).toMatchObject({ created: 0, rejected: 1, warnings: 0, stopped: true });
    expect(summary.rejections).toEqual([{ at: feed.at, key: 'W1', errors: feed.warnings }]);
    expect(await listingOf(`strict-${format}`, 'W1')).toBeUndefined();
  });

  it('leaves the listing’s own value where an update’s cell cannot be read, rather than clearing it', async () => {
    await importText('csv', 'kept', 'key,title,price,bedrooms\nK1,House that keeps its price,250000,4');
    const summary = await importText('csv', 'kept', 'key,title,price,bedrooms\nK1,House that keeps its price,abc,5');
    expect(summary).toMatchObject({ updated: 1, rejected: 0, warnings: 1 });
    expect(await listingOf('kept', 'K1')).toMatchObject({ price: 250000, bedrooms: 5 });
  });

  it('still rejects a record that cannot make a listing: no key, no title, a state it does not know', async () => {
    const csv = ['key,title,price,status', ',No key,abc,publish', 'N2,,abc,publish', 'N3,Unknown state,abc,sold-out'].join('\n');
    const summary = await importText('csv', 'no-listing', csv);
    expect(summary).toMatchObject({ created: 0, rejected: 3 });
    expect(summary.rejections.map((rejection) => rejection.errors[0]!.field)).toEqual(['key', 'title', 'status']);
  });

  it('shows the warnings in GET /imports/{id}; `strict` over HTTP rejects instead', async () => {
    const upload = (fields: [string, string][]) => postUpload(t, auth, [['format', 'csv'], ...fields, ['file', csvPart(FEEDS.csv.text)]]);
    const lenient = await upload([['source', 'http-csv-warned']]);
    const strict = await upload([
      ['source', 'http-csv-strict'],
      ['strict', 'true'],
    ]);
    expect(lenient.statusCode, lenient.body).toBe(202);
    expect(strict.statusCode, strict.body).toBe(202);
    await drainImports(t);
    const run = await importRunOf(t, auth, lenient.json().data.id);
    expect(run).toMatchObject({ state: 'done', strict: false, counts: { created: 2, rejected: 0, warnings: 3 } });
    expect(run.warnings).toEqual(FEEDS.csv.warnings.map((warning) => ({ at: 'line 2', key: 'W1', ...warning })));
    const strictRun = await importRunOf(t, auth, strict.json().data.id);
    expect(strictRun).toMatchObject({ state: 'done', strict: true, counts: { created: 0, rejected: 1, warnings: 0 }, warnings: [] });
    expect(strictRun.rejections).toEqual([{ at: 'line 2', key: 'W1', errors: FEEDS.csv.warnings }]);
  });
});
