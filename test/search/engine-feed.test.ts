import type { FastifyBaseLogger } from 'fastify';
import { createQueryId, type Kysely, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLogHead, pruneChangeLog } from '../../src/db/change-log.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, type Database, migrateToLatest } from '../../src/db/database.js';
import type { DB, Taxonomy } from '../../src/db/schema/index.js';
import { IndexFeed, type IndexFeedOptions } from '../../src/modules/search/engine/index-feed.service.js';
import {
  findAllIndexedAgents,
  findAllIndexedTerms,
  findIndexedListings,
  searchableListingPages,
} from '../../src/modules/search/engine/index-rows.repository.js';
import type { IndexedAgent, IndexedListing, IndexedTerm } from '../../src/modules/search/engine/indexed-listing.js';
import { ListingIndex } from '../../src/modules/search/engine/listing-index.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { insertTermRow, newAgency, newAgent, newListing, unique } from '../helpers/factories.js';
import { gate } from '../helpers/gate.js';
import { recordChange } from '../helpers/change-log-rows.js';

const silentLog = () => ({ warn: vi.fn(), error: vi.fn(), info: vi.fn(), debug: vi.fn() }) as unknown as FastifyBaseLogger;

/** The real index, with a record beside it of what it was last given for each listing, term and agent. */
class WatchedIndex extends ListingIndex {
  readonly listingRows = new Map<number, IndexedListing>();
  readonly termRows = new Map<number, IndexedTerm>();
  readonly agentRows = new Map<number, IndexedAgent>();
  override put(listing: IndexedListing): void {
    super.put(listing);
    this.listingRows.set(listing.id, listing);
  }
  override remove(listingId: number): void {
    super.remove(listingId);
    this.listingRows.delete(listingId);
  }
  override putTerm(term: IndexedTerm): void {
    super.putTerm(term);
    this.termRows.set(term.id, term);
  }
  override removeTerm(termId: number): void {
    super.removeTerm(termId);
    this.termRows.delete(termId);
  }
  override putAgent(agent: IndexedAgent): void {
    super.putAgent(agent);
    this.agentRows.set(agent.id, agent);
  }
  override removeAgent(agentId: number): void {
    super.removeAgent(agentId);
    this.agentRows.delete(agentId);
  }
}

/** What the database holds, as the index should: read from scratch. */
async function databaseRows(db: Kysely<DB>) {
  const listings: IndexedListing[] = [];
  for await (const page of searchableListingPages(db, 1000)) listings.push(...page);
  return {
    listings: sortedById(listings),
    terms: sortedById(await findAllIndexedTerms(db)),
    agents: sortedById(await findAllIndexedAgents(db)),
  };
}

function heldRows(index: ListingIndex) {
  const watched = index as WatchedIndex;
  return {
    listings: sortedById([...watched.listingRows.values()]),
    terms: sortedById([...watched.termRows.values()]),
    agents: sortedById([...watched.agentRows.values()]),
  };
}

const sortedById = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id);

describeEachDialect('search index feed (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.dispose());

  const newFeed = (options: IndexFeedOptions = {}) =>
    new IndexFeed(db, database.localWrites, silentLog(), { createIndex: () => new WatchedIndex(), ...options });
  const newTermRow = (taxonomy: Taxonomy = 'property_type') => insertTermRow(db, taxonomy, unique('term-'));
  const linkAgent = (listingId: number, agentId: number, position = 0) =>
    db.insertInto('listing_agents').values({ listing_id: listingId, agent_id: agentId, position }).execute();

  describe('index rows', () => {
    it('reads a searchable listing as the index takes it: its terms and agents, numbers as numbers, flags as booleans', async () => {
      const [type, city] = [await newTermRow('property_type'), await newTermRow('property_city')];
      const agencyId = await newAgency(db);
      const [agent1, agent2] = [await newAgent(db, { agency_id: agencyId }), await newAgent(db)];
      const id = await newListing(db, {
        price: 450_000.5,
        bedrooms: 3,
        featured: 1,
        latitude: 25.7617,
        longitude: -80.1918,
        title: 'Renovated balcony flat',
        terms: [
          { termId: type, taxonomy: 'property_type' },
          { termId: city, taxonomy: 'property_city' },
        ],
      });
      await linkAgent(id, agent2, 0);
      await linkAgent(id, agent1, 1);
      const draft = await newListing(db, { status: 'draft' });
      const sold = await newListing(db, { status: 'sold', published_at: new Date().toISOString() });

      const rows = await findIndexedListings(db, [id, draft, sold, 987_654_321]);
      expect(rows.map((row) => row.id)).toEqual([id, sold]);
      const [row] = rows;
      expect(row).toMatchObject({
        id,
        status: 'publish',
        price: 450_000.5,
        bedrooms: 3,
        featured: true,
        latitude: 25.7617,
        longitude: -80.1918,
        currency: 'USD',
      });
      expect([...row!.term_ids].sort((a, b) => a - b)).toEqual([type, city].sort((a, b) => a - b));
      expect([...row!.agent_ids].sort((a, b) => a - b)).toEqual([agent1, agent2].sort((a, b) => a - b));
      expect(typeof row!.geo_key).toBe('number'); // a bigint: a string from PostgreSQL's driver until converted
      expect(Number.isSafeInteger(row!.geo_key)).toBe(true);
      expect(row!.search_text).toContain('balconi'); // stemmed
      expect(rows[1]).toMatchObject({ id: sold, status: 'sold', featured: false, geo_key: null, term_ids: [], agent_ids: [] });
    });

    it('pages through every searchable listing once, in id order, with the links of each page’s listings only', async () => {
      const term = await newTermRow();
      const agentId = await newAgent(db);
      for (let i = 0; i < 7; i++) {
        const id = await newListing(db, {
          status: i % 3 === 0 ? 'draft' : 'publish',
          terms: [{ termId: term, taxonomy: 'property_type' }],
        });
        await linkAgent(id, agentId);
      }
      const pages: IndexedListing[][] = [];
      for await (const page of searchableListingPages(db, 2)) pages.push(page);
      expect(pages.every((page) => page.length <= 2)).toBe(true);
      const ids = pages.flat().map((row) => row.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const all = await db.selectFrom('listings').select('id').where('status', 'in', ['publish', 'sold']).orderBy('id').execute();
      expect(ids).toEqual(all.map((row) => row.id));
      // The same rows as read by id.
      expect(pages.flat()).toEqual(await findIndexedListings(db, ids));
    });
  });

  it.runIf(dialect === 'sqlite')('reads each page as a range of the primary key, whatever the statistics say of status', async () => {
    // Without statistics SQLite takes an equality on an indexed column for a selective one: planned through an
    // index on status, each page sorted every searchable listing (a build at 100,000 took 3× longer).
    const queries: RootOperationNode[] = [];
    const capture: KyselyPlugin = {
      transformQuery: ({ node }) => (queries.push(node), node),
      transformResult: async ({ result }) => result,
    };
    await newListing(db);
    await searchableListingPages(db.withPlugin(capture), 2).next();
    const page = db.getExecutor().compileQuery(queries[0]!, createQueryId());
    expect(page.sql).toMatch(/from "listings"/);
    const rows = await db.executeQuery<{ detail: string }>({ ...page, sql: `explain query plan ${page.sql}` });
    const details = rows.rows.map((row) => row.detail).join(' | ');
    expect(details).toMatch(/INTEGER PRIMARY KEY/);
    expect(details).not.toMatch(/TEMP B-TREE/);
  });

  it('builds from the tables at the change-log head it read first', async () => {
    await newListing(db);
    const feed = newFeed();
    expect(feed.built).toBe(false);
    await feed.build();
    expect(feed.built).toBe(true);
    expect(feed.builds).toBe(1);
    expect(feed.position).toBe(await changeLogHead(db));
    expect(feed.buildMs).toBeGreaterThan(0);
    expect(heldRows(feed.index)).toEqual(await databaseRows(db));
    expect(feed.index.size).toBe((await databaseRows(db)).listings.length);
  });

  it('reads the pages of a large build on a worker thread with a connection of its own: the same index as read here', async () => {
    // The tests' SQLite databases live in this process's memory, which no other thread can open: a file here.
    const directory = dialect === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'realty-feed-')) : undefined;
    const source: Database = directory ? createDatabase({ kind: 'sqlite', path: path.join(directory, 'db.sqlite') }) : database;
    try {
      if (directory) await migrateToLatest(source.db);
      const agentId = await newAgent(source.db);
      const now = new Date().toISOString();
      const slug = unique('worker-term-');
      const { id: type } = await source.db
        .insertInto('terms')
        .values({ taxonomy: 'property_type', name: slug, slug, sort_key: slug, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let i = 0; i < 9; i++) {
        const id = await newListing(source.db, {
          status: i % 4 === 0 ? 'draft' : 'publish',
          price: 100_000 + i * 0.5,
          latitude: 25 + i / 7,
          longitude: -80,
          title: `Façade ${i} 🏠`,
          terms: [{ termId: type, taxonomy: 'property_type' }],
        });
        if (i % 2 === 0) await source.db.insertInto('listing_agents').values({ listing_id: id, agent_id: agentId, position: 0 }).execute();
      }
      expect(source.readerConfig).toBeDefined();
      const feed = (options: IndexFeedOptions) =>
        new IndexFeed(source.db, source.localWrites, silentLog(), { createIndex: () => new WatchedIndex(), pageSize: 2, ...options });
      const [there, here] = [feed({ reader: source.readerConfig!, readOnWorkerFrom: 0 }), feed({})];
      await Promise.all([there.build(), here.build()]);
      expect(heldRows(there.index)).toEqual(heldRows(here.index));
      expect(heldRows(there.index)).toEqual(await databaseRows(source.db));
      expect(there.index.size).toBeGreaterThanOrEqual(6);
      // Closed (the process shutting down): the build stops instead of reading on, and fails.
      const closed = feed({ reader: source.readerConfig!, readOnWorkerFrom: 0 });
      const build = closed.build();
      closed.close();
      await expect(build).rejects.toThrow(/aborted|closed/);
      expect(closed.built).toBe(false);
    } finally {
      if (directory) {
        await source.destroy();
        fs.rmSync(directory, { recursive: true, force: true });
      }
    }
  });

  it('fails a build whose reading thread fails, and builds on a later try', async () => {
    const unreachable = { kind: 'sqlite' as const, path: path.join(os.tmpdir(), 'realty-feed-missing', 'none.sqlite') };
    const feed = newFeed({ reader: unreachable, readOnWorkerFrom: 0 });
    await expect(feed.build()).rejects.toThrow(/unable to open|directory does not exist|no such file/i);
    expect(feed.built).toBe(false);
  });

  it('joins a build or a catch-up already waiting to run instead of starting another', async () => {
    const feed = newFeed();
    const builds = [feed.build(), feed.build()];
    expect(builds[0]).toBe(builds[1]);
    const catchUps = [feed.catchUp(), feed.catchUp()];
    expect(catchUps[0]).toBe(catchUps[1]);
    await Promise.all([...builds, ...catchUps]);
    expect(feed.builds).toBe(1);
  });

  it('applies changes of listings, their terms and agents, terms and agents, in batches', async () => {
    const feed = newFeed({ batchSize: 3 });
    const [term, other] = [await newTermRow(), await newTermRow()];
    const [agencyA, agencyB] = [await newAgency(db), await newAgency(db)];
    const agent = await newAgent(db, { agency_id: agencyA });
    const kept = await newListing(db, { price: 100, terms: [{ termId: term, taxonomy: 'property_type' }] });
    const unpublished = await newListing(db, { price: 200 });
    const deleted = await newListing(db);
    const doomedTerm = await newTermRow();
    const doomedAgent = await newAgent(db);
    await feed.build();
    const start = feed.position;

    const added = await newListing(db, { price: 300, terms: [{ termId: other, taxonomy: 'property_type' }] });
    await linkAgent(added, agent);
    await db.updateTable('listings').set({ price: 150, bedrooms: 4 }).where('id', '=', kept).execute();
    await db.insertInto('listing_terms').values({ listing_id: kept, term_id: other, taxonomy: 'property_type', position: 1 }).execute();
    await db.updateTable('listings').set({ status: 'draft' }).where('id', '=', unpublished).execute();
    await db.deleteFrom('listings').where('id', '=', deleted).execute();
    await db.updateTable('terms').set({ name: 'Renamed' }).where('id', '=', term).execute();
    await db.deleteFrom('terms').where('id', '=', doomedTerm).execute();
    await db.updateTable('agents').set({ agency_id: agencyB }).where('id', '=', agent).execute();
    await db.deleteFrom('agents').where('id', '=', doomedAgent).execute();

    const head = await changeLogHead(db);
    expect(head - start).toBeGreaterThan(3); // more than one batch
    expect(await feed.catchUp()).toBe(head - start);
    expect(feed.position).toBe(head);
    expect(feed.builds).toBe(1);
    const held = heldRows(feed.index);
    expect(held).toEqual(await databaseRows(db));
    expect(held.listings.find((row) => row.id === kept)).toMatchObject({ price: 150, bedrooms: 4 });
    expect(held.listings.find((row) => row.id === kept)!.term_ids).toEqual(expect.arrayContaining([term, other]));
    expect(held.listings.find((row) => row.id === added)!.agent_ids).toEqual([agent]);
    expect(held.listings.some((row) => row.id === unpublished || row.id === deleted)).toBe(false);
    expect(held.terms.find((row) => row.id === term)!.name).toBe('Renamed');
    expect(held.terms.some((row) => row.id === doomedTerm)).toBe(false);
    expect(held.agents.find((row) => row.id === agent)!.agency_id).toBe(agencyB);
    expect(held.agents.some((row) => row.id === doomedAgent)).toBe(false);
    expect(await feed.catchUp()).toBe(0);
  });

  it('follows an agency deleted from under its agents (their agency cleared, recorded as their change)', async () => {
    const feed = newFeed();
    const agencyId = await newAgency(db);
    const agent = await newAgent(db, { agency_id: agencyId });
    await feed.build();
    await db.deleteFrom('agencies').where('id', '=', agencyId).execute();
    await feed.catchUp();
    expect(heldRows(feed.index).agents.find((row) => row.id === agent)!.agency_id).toBeNull();
    expect(heldRows(feed.index)).toEqual(await databaseRows(db));
  });

  it('follows past the entities it does not index (leads, reviews, invoices, memberships, agencies, unknown ones)', async () => {
    const feed = newFeed();
    const agent = await newAgent(db);
    await feed.build();
    const start = feed.position;
    // Rows as migration 0038's triggers write them, and one of an entity no reader knows (a later migration's).
    for (const entity of ['lead', 'review', 'invoice', 'membership', 'agency', 'someday']) await recordChange(db, dialect, entity, 1);
    await db.updateTable('agents').set({ bio: 'A profile change, recorded since migration 0038' }).where('id', '=', agent).execute();
    const added = await newListing(db, { price: 300 });
    const head = await changeLogHead(db);
    expect(await feed.catchUp()).toBe(head - start);
    expect(feed.position).toBe(head);
    expect(feed.builds).toBe(1);
    expect(heldRows(feed.index).listings.some((row) => row.id === added)).toBe(true);
    expect(heldRows(feed.index)).toEqual(await databaseRows(db));
  });

  it('builds again when the log was pruned past its position, and not when nothing it lacks was pruned', async () => {
    const feed = newFeed();
    const listing = await newListing(db);
    await feed.build();
    // One change after the position, pruned down to the head: that change is the head, nothing is lost.
    await db.updateTable('listings').set({ price: 1 }).where('id', '=', listing).execute();
    await pruneChangeLog(db, '2999-01-01T00:00:00.000Z');
    await feed.catchUp();
    expect(feed.builds).toBe(1);

    await db.updateTable('listings').set({ price: 2 }).where('id', '=', listing).execute();
    const added = await newListing(db, { price: 3 });
    expect(await pruneChangeLog(db, '2999-01-01T00:00:00.000Z')).toBeGreaterThan(0);
    await feed.catchUp();
    expect(feed.builds).toBe(2);
    expect(feed.position).toBe(await changeLogHead(db));
    const held = heldRows(feed.index);
    expect(held.listings.find((row) => row.id === listing)!.price).toBe(2);
    expect(held.listings.some((row) => row.id === added)).toBe(true);
    expect(held).toEqual(await databaseRows(db));
  });

  it('is fresh after this process’s own writes without being told, and reads nothing when there were none', async () => {
    const feed = newFeed();
    await feed.fresh(); // builds
    expect(feed.built).toBe(true);
    const id = await newListing(db, { price: 777 });
    await feed.fresh();
    expect(heldRows(feed.index).listings.find((row) => row.id === id)?.price).toBe(777);

    const catchUp = vi.spyOn(feed, 'catchUp');
    await feed.fresh();
    expect(catchUp).not.toHaveBeenCalled();
  });

  it('a search waiting for a catch-up on its way that began after its writes gets it', async () => {
    const feed = newFeed();
    await feed.build();
    const id = await newListing(db, { price: 808 });
    // Counts the runs that read the change log (a catch-up asked while one is queued joins it).
    const runs = vi.spyOn(feed as unknown as { runCatchUp(): Promise<number> }, 'runCatchUp');
    const first = feed.catchUp(); // began after the write
    await feed.fresh(); // the count is seen: waits for that run instead of starting one
    // Asked before `first` is awaited: the listing is there because fresh() waited for that run, and no other ran.
    expect(heldRows(feed.index).listings.some((row) => row.id === id)).toBe(true);
    expect(runs).toHaveBeenCalledTimes(1);
    await first;
  });

  it.runIf(dialect === 'postgres')('skips no change that commits after a later-numbered one was applied', async () => {
    const feed = newFeed();
    const [early, late] = [await newListing(db, { price: 1 }), await newListing(db, { price: 1 })];
    await feed.build();
    const other = createDatabase({ kind: 'postgres', url: database.url! });
    try {
      const written = gate();
      const goOn = gate();
      // The first transaction writes first and commits last.
      const slow = db.transaction().execute(async (trx) => {
        await trx.updateTable('listings').set({ price: 10 }).where('id', '=', early).execute();
        written.release();
        await goOn.wait;
      });
      await written.wait;
      await other.db.updateTable('listings').set({ price: 20 }).where('id', '=', late).execute();

      await feed.catchUp();
      let held = heldRows(feed.index).listings;
      expect(held.find((row) => row.id === late)!.price).toBe(20);
      expect(held.find((row) => row.id === early)!.price).toBe(1);

      goOn.release();
      await slow;
      await feed.catchUp();
      held = heldRows(feed.index).listings;
      expect(held.find((row) => row.id === early)!.price).toBe(10);
      expect(feed.position).toBe(await changeLogHead(db));
      expect(heldRows(feed.index)).toEqual(await databaseRows(db));
    } finally {
      await other.destroy();
    }
  });
});
