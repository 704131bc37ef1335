import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DiskStorage } from '../../src/adapters/storage/disk-storage.js';
import { changeLogHead, readChangesAfter } from '../../src/db/change-log.js';
import { fillGeoCells } from '../../src/db/dialect/ddl/geo-cell-triggers.js';
import { compactGeoCells } from '../../src/db/dialect/geo-cell-compaction.js';
import type { DB } from '../../src/db/schema/index.js';
import { BulkDraftError, type ListingDraft, ListingBulkWriter } from '../../src/modules/properties/index.js';
import { seedDemoListings } from '../../src/seed/demo-listings.js';
import { seedDemoTerms } from '../../src/seed/seed-demo.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newUser } from '../helpers/factories.js';

/**
 * The bulk write path (modules/properties/bulk/): fresh mode (triggers set aside, their work redone
 * set-wise) leaves exactly what live mode (every trigger in force, row by row) leaves for the same drafts,
 * and both agree with a recount; a bad draft is named and leaves whole listings only.
 */
const COUNT = 300;
const SEED = 11;
const NOW = new Date('2026-06-01T12:00:00.000Z');
const API = '/realty-api/v1';

/** Every table a bulk write fills or derives, as sorted JSON rows. */
async function snapshot(db: Kysely<DB>): Promise<Map<string, string[]>> {
  const tables = new Map<string, string[]>();
  const rows = async (name: string, query: ReturnType<typeof sql>) =>
    tables.set(name, (await query.execute(db)).rows.map((row) => JSON.stringify(row)).sort());
  for (const table of ['listings', 'listing_terms', 'listing_agents', 'reviews', 'listing_transitions', 'geo_cells']) {
    await rows(table, sql`select * from ${sql.table(table)}`);
  }
  await rows(
    'media',
    sql`select owner_id, listing_id, position, mime_type, width, height, size_bytes, title, caption, alt, description, created_at from media where listing_id is not null`,
  );
  await rows('terms (id, count)', sql`select id, count from terms`);
  // The row triggers record a listing once per row written (listing, links, agents); fresh mode once.
  await rows('change_log (listings)', sql`select distinct entity, entity_id from change_log where entity = 'listing'`);
  await rows('change_log (unnumbered)', sql`select count(*) as n from change_log where seq is null`);
  return tables;
}

/** What the triggers keep, recounted from the rows: term counts and the copies on term links. */
async function expectRecounted(db: Kysely<DB>): Promise<void> {
  const counts = await sql<{ id: number; count: number; recount: number }>`
    select t.id, t.count, (select count(*) from listing_terms lt join listings l on l.id = lt.listing_id
                           where lt.term_id = t.id and l.status = 'publish') as recount
    from terms t where t.taxonomy like 'property%'`.execute(db);
  for (const row of counts.rows) expect(Number(row.count), `term ${row.id}`).toBe(Number(row.recount));
  const copies = await sql<{ n: number }>`
    select count(*) as n from listing_terms lt join listings l on l.id = lt.listing_id
    where lt.status is distinct from l.status or lt.price is distinct from l.price
       or lt.city_id is distinct from (select c.term_id from listing_terms c where c.listing_id = l.id and c.taxonomy = 'property_city'
                                       order by c.position, c.term_id limit 1)`.execute(db);
  expect(Number(copies.rows[0]!.n)).toBe(0);
}

/** geo_cells after folding the pending changes equals a count made anew from the listings. */
async function expectGeoCellsRecounted(db: Kysely<DB>): Promise<void> {
  await compactGeoCells(db);
  const cells = sql`select * from geo_cells`;
  const kept = (await cells.execute(db)).rows.map((row) => JSON.stringify(row)).sort();
  await db.transaction().execute((trx) => fillGeoCells(trx));
  expect((await cells.execute(db)).rows.map((row) => JSON.stringify(row)).sort()).toEqual(kept);
}

async function countListings(db: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from listings`.execute(db);
  return Number(rows[0]!.n);
}

async function stamps(db: Kysely<DB>): Promise<Record<string, string>> {
  const rows = await db.selectFrom('cache_versions').select(['name', 'version']).execute();
  return Object.fromEntries(rows.map((row) => [row.name, row.version]));
}

describeEachDialect('bulk listing writes (%s)', (dialect) => {
  let fresh: TestApp;
  let live: TestApp;
  let uploads: string;
  let storage: DiskStorage;

  beforeAll(async () => {
    [fresh, live] = await Promise.all([buildTestApp(dialect), buildTestApp(dialect)]);
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-bulk-'));
    storage = new DiskStorage(uploads, 'http://127.0.0.1');
    for (const t of [fresh, live]) await seedDemoTerms(t.services.taxonomies);
  });
  afterAll(async () => {
    await Promise.all([fresh.close(), live.close()]);
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  it('writes in fresh mode exactly what the row-by-row triggers write, and renews the stamps', async () => {
    const before = await stamps(fresh.database.db);
    const options = { count: COUNT, seed: SEED, now: NOW };
    const a = await seedDemoListings(fresh.database.db, fresh.services.users, storage, { ...options, mode: 'auto' });
    const b = await seedDemoListings(live.database.db, live.services.users, storage, { ...options, mode: 'live' });
    expect([a.mode, b.mode]).toEqual(['fresh', 'live']);
    expect(a.published).toBe(b.published);
    await compactGeoCells(live.database.db);
    const [x, y] = [await snapshot(fresh.database.db), await snapshot(live.database.db)];
    for (const [table, rows] of x) expect(rows, table).toEqual(y.get(table));
    expect(x.get('listings')).toHaveLength(COUNT);
    await expectRecounted(fresh.database.db);
    await expectGeoCellsRecounted(fresh.database.db);
    if (dialect === 'postgres') {
      // Settled after the commit: each loaded table vacuumed, every page visible to index-only scans.
      const { rows } = await sql<{ name: string; pages: number; visible: number }>`
        select relname as name, relpages as pages, relallvisible as visible from pg_class
        where relname in ('listings', 'listing_terms', 'listing_agents', 'media', 'reviews', 'listing_transitions')
          and relnamespace = current_schema()::regnamespace`.execute(fresh.database.db);
      expect(rows).toHaveLength(6);
      for (const { name, pages, visible } of rows) expect(visible, name).toBe(pages);
      expect(rows.find((row) => row.name === 'listing_terms')!.pages).toBeGreaterThan(0);
    }
    const after = await stamps(fresh.database.db);
    for (const name of ['listings', 'reviews', 'terms']) expect(after[name], name).not.toBe(before[name]);
  });

  it('finds the listings of a fresh write by keyword as the row path does', async () => {
    for (const keyword of ['renovated', 'balcony', 'apartment miami']) {
      const url = `${API}/properties/search?keyword=${encodeURIComponent(keyword)}&per_page=100`;
      const ids = async (t: TestApp) => {
        const res = await t.app.inject({ url });
        expect(res.statusCode, res.body).toBe(200);
        return (res.json().data.properties as { id: number }[]).map((p) => p.id);
      };
      const found = await ids(fresh);
      expect(found.length, keyword).toBeGreaterThan(0);
      expect(await ids(live)).toEqual(found);
    }
  });

  it('writes into a database with listings in live mode, every count and copy right afterwards', async () => {
    const db = fresh.database.db;
    const highest = await db
      .selectFrom('listings')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    // SQLite's connection is widened for the write (page cache, log checkpoints) and set back afterwards.
    const pragmas = async () =>
      dialect === 'sqlite'
        ? [(await sql`pragma cache_size`.execute(db)).rows, (await sql`pragma wal_autocheckpoint`.execute(db)).rows]
        : [];
    const settings = await pragmas();
    const written = await seedDemoListings(db, fresh.services.users, storage, { count: 250, seed: SEED + 1, now: NOW });
    expect(written.mode).toBe('live');
    expect(await pragmas()).toEqual(settings);
    const ids = await db.selectFrom('listings').select('id').where('id', '>', Number(highest.id)).execute();
    expect(ids).toHaveLength(250);
    await expectRecounted(db);
    await expectGeoCellsRecounted(db);
  });

  it('records each listing of a live write in the change log, fewer rows than links, and a later link row by row', async () => {
    const db = fresh.database.db;
    const head = await changeLogHead(db);
    const highest = Number(
      (
        await db
          .selectFrom('listings')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id,
    );
    await seedDemoListings(db, fresh.services.users, storage, { count: 60, seed: SEED + 3, now: NOW });
    const ids = (await db.selectFrom('listings').select('id').where('id', '>', highest).orderBy('id').execute()).map((row) => row.id);
    expect(ids).toHaveLength(60);
    const changes = (await readChangesAfter(db, head, 100_000)).filter((change) => change.entity === 'listing');
    const recorded = new Set(changes.map((change) => change.entityId));
    expect(ids.filter((id) => !recorded.has(id))).toEqual([]);
    // SQLite: the links and agents of a listing add one row each after the listing's own (migration 0017);
    // PostgreSQL: one per listing and statement (migration 0014). Either way far fewer than one per link.
    const links = await sql<{ n: number | string }>`select count(*) as n from listing_terms where listing_id > ${highest}`.execute(db);
    expect(changes.length).toBeLessThanOrEqual(ids.length * 3);
    expect(changes.length).toBeLessThan(Number(links.rows[0]!.n));
    if (dialect === 'sqlite') {
      const marks = await sql<{ n: number }>`select count(*) as n from change_log_bulk_mark`.execute(db);
      expect(Number(marks.rows[0]!.n)).toBe(0);
    }
    // Outside a bulk transaction a link of the listing the last change names is recorded, as every change.
    const last = ids[ids.length - 1]!;
    const term = await db
      .selectFrom('terms')
      .select('id')
      .where('taxonomy', '=', 'property_feature')
      .where('id', 'not in', db.selectFrom('listing_terms').select('term_id').where('listing_id', '=', last))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const before = await changeLogHead(db);
    await db
      .insertInto('listing_terms')
      .values({ listing_id: last, term_id: term.id, taxonomy: 'property_feature', position: 99 })
      .execute();
    expect((await readChangesAfter(db, before, 10)).map((change) => [change.entity, change.entityId])).toEqual([['listing', last]]);
    await expectRecounted(db);
    // One statement removing, then one adding back, the links of listings in several states: counts follow.
    const some = ids.slice(0, 30);
    const statuses = await db.selectFrom('listings').select('status').distinct().where('id', 'in', some).execute();
    expect(statuses.length).toBeGreaterThan(1);
    const removed = await db.deleteFrom('listing_terms').where('listing_id', 'in', some).returningAll().execute();
    await expectRecounted(db);
    await db.insertInto('listing_terms').values(removed).execute();
    await expectRecounted(db);
  });

  it('names a bad draft and leaves whole listings only: live keeps the transactions before it, fresh keeps nothing', async () => {
    const db = live.database.db;
    const author = await newUser(db, { role: 'agent' });
    const term = await db.selectFrom('terms').select('id').where('taxonomy', '=', 'property_type').executeTakeFirstOrThrow();
    const city = await db.selectFrom('terms').select('id').where('taxonomy', '=', 'property_city').executeTakeFirstOrThrow();
    const drafts = (count: number, bad: number): ListingDraft[] =>
      Array.from({ length: count }, (_, n) => ({
        row: {
          slug: `bulk-${dialect}-${bad}-${n}`,
          title: `Bulk listing ${n}`,
          status: 'publish',
          author_id: author.id,
          price: 1000 + n,
          second_price: null,
          currency: 'USD',
          bedrooms: 2,
          bathrooms: 1,
          rooms: 3,
          garage: null,
          size: 80,
          land_size: null,
          year_built: null,
          latitude: 25.76,
          longitude: -80.19,
          created_at: NOW.toISOString(),
          updated_at: NOW.toISOString(),
          published_at: NOW.toISOString(),
          expires_at: null,
        },
        terms: [
          { termId: n === bad ? 999_999 : term.id, taxonomy: 'property_type' },
          { termId: city.id, taxonomy: 'property_city' },
        ],
        agentIds: [],
        gallery: [],
        reviews: [],
      }));
    const before = await countListings(db);
    // Drafts come in batches of 30 and go in transactions of 50: 0-49 and 50-99 commit, 100-129 fails.
    const all = drafts(130, 120);
    const batches = Array.from({ length: 5 }, (_, n) => all.slice(n * 30, n * 30 + 30));
    const error = await new ListingBulkWriter(db).write(batches, { batchSize: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BulkDraftError);
    expect(error).toMatchObject({ index: 120, message: 'listing draft 120: term 999999 does not exist' });
    expect(await countListings(db)).toBe(before + 100);
    await expectRecounted(db);

    // Fresh mode, into an empty database: all or nothing, and the triggers are back afterwards.
    const empty = await buildTestApp(dialect);
    try {
      const edb = empty.database.db;
      await seedDemoTerms(empty.services.taxonomies);
      const owner = await newUser(edb, { role: 'agent' });
      const bad = drafts(30, 25).map((draft) => ({ ...draft, row: { ...draft.row, author_id: owner.id } }));
      const failed = await new ListingBulkWriter(edb).write([bad.slice(0, 20), bad.slice(20)]).catch((e: unknown) => e);
      expect(failed).toMatchObject({ index: 25 });
      expect(await countListings(edb)).toBe(0);
      const good = drafts(10, -1).map((draft) => ({ ...draft, row: { ...draft.row, author_id: owner.id } }));
      await new ListingBulkWriter(edb).write([good], { mode: 'live' });
      await expectRecounted(edb);
      const typeCount = await edb.selectFrom('terms').select('count').where('id', '=', term.id).executeTakeFirstOrThrow();
      expect(typeCount.count).toBe(10);
    } finally {
      await empty.close();
    }
  });
});
