import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import type { DB, Role, UserRow } from '../../src/db/schema/index.js';
import type { AuthUser } from '../../src/lib/signed-in-user.js';
import { FEED_FORMATS, type FeedFormat, type ImportOptions, type ImportSummary } from '../../src/modules/exchange/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { type DIALECTS, describeEachDialect } from '../helpers/database.js';
import { newUser, signIn } from '../helpers/factories.js';
import { API, csvPart, drainImports, importRunOf, postUpload, tempDataDir } from './import-runs-helpers.js';

/** Own exports read back in place (docs/data-exchange.md): export → edit a few rows → import updates just those. */

function callerOf(user: UserRow): AuthUser {
  return { id: user.id, role: user.role, sessionId: 'test', tokenExpiresAt: new Date(Date.now() + 3_600_000) };
}

interface Site {
  t: TestApp;
  db: Kysely<DB>;
  admin: UserRow;
}

async function newSite(dialect: (typeof DIALECTS)[number], env: Record<string, string> = {}): Promise<Site> {
  const t = await buildTestApp(dialect, { PUBLIC_URL: 'https://realty.example', DEFAULT_CURRENCY: 'EUR', ...env });
  // Test databases are copies of one migrated image, so they share its site key: each site here gets its own,
  // as each real database does when it is migrated.
  await t.database.db
    .updateTable('site_identity')
    .set({ site_key: randomBytes(8).toString('hex') })
    .execute();
  return { t, db: t.database.db, admin: await newUser(t.database.db, { role: 'administrator' }) };
}

async function importText(site: Site, format: FeedFormat, text: string, options: Partial<ImportOptions> = {}): Promise<ImportSummary> {
  return site.t.services.feedImporter.run(FEED_FORMATS[format].read(Readable.from([Buffer.from(text)])), {
    source: 'edited-export',
    actorId: site.admin.id,
    directoryIds: FEED_FORMATS[format].directoryIds,
    format,
    ...options,
  });
}

async function exportText(site: Site, format: FeedFormat): Promise<string> {
  let text = '';
  for await (const piece of FEED_FORMATS[format].write(site.t.services.feedExporter.content())) text += piece;
  return text;
}

/** Five published listings made through the API, of `author` (default: the administrator), with whole prices. */
async function createListings(site: Site, author: UserRow = site.admin): Promise<number[]> {
  const { properties, taxonomies } = site.t.services;
  const villa = await taxonomies.createTerm('property_type', { name: `Villa ${randomBytes(3).toString('hex')}` });
  const forSale = (await taxonomies.createTerm('property_status', { name: `For Sale ${randomBytes(3).toString('hex')}` })).id;
  const ids: number[] = [];
  for (let n = 1; n <= 5; n++) {
    const record = await properties.create(callerOf(site.admin), {
      title: `House ${n}`,
      description: `<p>House number ${n}.</p>`,
      price: 100000 * n,
      currency: 'EUR',
      bedrooms: n,
      size: 50 * n,
      size_unit: 'm2',
      type_ids: [villa.id],
      status_ids: [forSale],
      city: 'Málaga',
      country: 'Spain',
      status: 'publish',
    });
    ids.push(record.id);
  }
  await site.db.updateTable('listings').set({ author_id: author.id }).where('id', 'in', ids).execute();
  return ids;
}

async function rows(db: Kysely<DB>) {
  return db.selectFrom('listings').select(['id', 'title', 'price', 'bedrooms', 'author_id']).orderBy('id').execute();
}

/** The file with the price of its first `count` listings raised by 1. */
function edited(format: FeedFormat, text: string, count: number): string {
  if (format === 'csv') {
    const records = parse(text, { columns: true }) as Record<string, string>[];
    records.slice(0, count).forEach((record) => (record.price = String(Number(record.price) + 1)));
    return stringify(records, { header: true });
  }
  if (format === 'reso') {
    const document = JSON.parse(text) as { Property: { ListPrice: number }[] };
    document.Property.slice(0, count).forEach((property) => (property.ListPrice += 1));
    return JSON.stringify(document);
  }
  let left = count;
  return text.replace(/<price>(\d+)<\/price>/g, (whole, price: string) => (left-- > 0 ? `<price>${Number(price) + 1}</price>` : whole));
}

describeEachDialect('own exports read back in place (%s)', (dialect) => {
  let site: Site;
  let other: Site | undefined;
  afterEach(async () => {
    await site?.t.close();
    await other?.t.close();
    other = undefined;
  });

  it.each(['csv', 'reso', 'kyero'] as const)(
    '%s: export, edit three rows, import under any source name: 3 updated, 2 unchanged, 0 created',
    async (format) => {
      site = await newSite(dialect);
      const ids = await createListings(site);
      const before = await rows(site.db);
      const text = await exportText(site, format);
      expect(text).toContain(`realty:`);

      const summary = await importText(site, format, edited(format, text, 3), { source: `any-name-${format}` });
      expect(summary).toMatchObject({ created: 0, updated: 3, unchanged: 2, rejected: 0 });
      const after = await rows(site.db);
      expect(after.map((row) => row.id)).toEqual(ids);
      expect(after.map((row) => row.price)).toEqual([100001, 200001, 300001, 400000, 500000]);
      // Only the edited field was written: titles (which Kyero does not carry) and the rest stay as they were.
      expect(after.map(({ price: _p, ...row }) => row)).toEqual(before.map(({ price: _p, ...row }) => row));
      // No source row is made: the listing is still one made here, and the next export gives it the same key.
      expect(await site.db.selectFrom('listing_sources').selectAll().execute()).toEqual([]);

      // The same file again, under yet another name: nothing left to change.
      expect(await importText(site, format, edited(format, text, 3), { source: 'third-name' })).toMatchObject({
        created: 0,
        updated: 0,
        unchanged: 5,
      });
    },
  );

  it.each(['csv', 'reso', 'kyero'] as const)('%s: another site reading the export creates its listings', async (format) => {
    site = await newSite(dialect);
    await createListings(site);
    other = await newSite(dialect);
    // The other site has listings of the same ids, which the keys must not name.
    await createListings(other);
    const summary = await importText(other, format, await exportText(site, format));
    expect(summary).toMatchObject({ created: 5, updated: 0, unchanged: 0, rejected: 0 });
    expect(await rows(other.db)).toHaveLength(10);
  });

  it('a forged own key of a listing someone else owns does not let an owner’s import overwrite it', async () => {
    site = await newSite(dialect);
    const newAccount = (role: Role) => newUser(site.db, { role });
    const [alice, bob] = [await newAccount('owner'), await newAccount('owner')];
    const [alicesId] = await createListings(site, alice);
    const [bobsId] = await createListings(site, bob);
    const siteKey = await site.t.services.feedExporter.ownSiteKey();
    const feed = `key,title,price\nrealty:${siteKey}:${alicesId},Taken over,1\nrealty:${siteKey}:${bobsId},Bob's own,2`;

    const summary = await importText(site, 'csv', feed, { ownerId: bob.id });
    // Alice's listing is not Bob's to change: its key is read as any unknown key, a new listing of Bob's.
    expect(summary).toMatchObject({ created: 1, updated: 1, rejected: 0 });
    const after = await rows(site.db);
    expect(after.find((row) => row.id === alicesId)).toMatchObject({ title: 'House 1', price: 100000, author_id: alice.id });
    expect(after.find((row) => row.id === bobsId)).toMatchObject({ title: "Bob's own", price: 2, author_id: bob.id });
    expect(after.filter((row) => row.title === 'Taken over')).toEqual([expect.objectContaining({ author_id: bob.id })]);

    // An import that acts for the administrator (no owner) may change any listing, as an administrator may.
    expect(await importText(site, 'csv', `key,price\nrealty:${siteKey}:${alicesId},3`, { source: 'admin-run' })).toMatchObject({
      updated: 1,
    });
    expect((await rows(site.db)).find((row) => row.id === alicesId)).toMatchObject({ price: 3, author_id: alice.id });
  });

  it('the key of a deleted listing creates a new one; a portal’s feed keeps the bare ids portals know', async () => {
    site = await newSite(dialect);
    const [first] = await createListings(site);
    let portal = '';
    const file = site.t.services.feedDownloads.file('csv', { states: ['publish'], publicOnly: true });
    for await (const piece of file.body) portal += String(piece);
    expect(portal).not.toContain('realty:');
    expect(portal).toContain(`\n${first},House 1,`);

    const text = await exportText(site, 'csv');
    await site.t.services.properties.delete(callerOf(site.admin), first!);
    expect(await importText(site, 'csv', text)).toMatchObject({ created: 1, unchanged: 4, updated: 0 });
  });

  it('over HTTP too: GET /exports/csv, three rows edited, POST /imports under a new source name updates them in place', async () => {
    const data = tempDataDir();
    try {
      site = await newSite(dialect, { DATA_DIR: data.dir });
      await createListings(site);
      const admin = await signIn(site.t.app, site.admin);
      const exported = await site.t.app.inject({ method: 'GET', url: `${API}/exports/csv`, headers: admin });
      expect(exported.statusCode).toBe(200);
      const queued = await postUpload(site.t, admin, [
        ['format', 'csv'],
        ['file', csvPart(edited('csv', exported.body, 3), 'listings-edited.csv')],
      ]);
      expect(queued.statusCode, queued.body).toBe(202);
      await drainImports(site.t);
      const run = await importRunOf(site.t, admin, queued.json().data.id);
      expect(run).toMatchObject({
        state: 'done',
        source: 'listings-edited',
        counts: { created: 0, updated: 3, unchanged: 2, rejected: 0 },
      });
      expect((await rows(site.db)).map((row) => row.price)).toEqual([100001, 200001, 300001, 400000, 500000]);
    } finally {
      data.remove();
    }
  });
});
