import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../../../config.js';
import type { LocalWrites } from '../../../db/cache-versions.js';
import { type Change, changeLogHead, readChangesAfter } from '../../../db/change-log.js';
import type { DB } from '../../../db/schema/index.js';
import { runInTurns } from '../../../lib/event-loop-turns.js';
import { pagesFromWorker, startModuleWorker } from '../../../lib/worker-thread.js';
import {
  findAllIndexedAgents,
  findAllIndexedTerms,
  findIndexedAgents,
  findIndexedListings,
  findIndexedTerms,
  highestListingId,
  parsedListingPages,
  searchableListingPages,
} from './index-rows.repository.js';
import type { ListingTextsJob } from './index-rows-worker.js';
import type { IndexedListing } from './indexed-listing.js';
import { ListingIndex } from './listing-index.js';

export interface IndexFeedOptions {
  /** Listings read per page while building (three statements a page). */
  pageSize?: number;
  /** Changes read per statement while catching up. */
  batchSize?: number;
  /** Makes each new index (tests wrap the real one to watch what it is given). */
  createIndex?: () => ListingIndex;
  /**
   * How another thread opens the same database (db/database.ts `Database.readerConfig`): a build of a
   * database whose listing ids reach `readOnWorkerFrom` reads its pages there (index-rows-worker.ts).
   */
  reader?: DatabaseConfig;
  readOnWorkerFrom?: number;
}

/**
 * Small enough that a page's rows die young (the garbage collector's cheap generation): on SQLite, pages of
 * 2,000 cost a third less CPU than pages of 20,000, and the statements stay few (three a page).
 */
const DEFAULT_PAGE_SIZE = 2_000;
const DEFAULT_BATCH_SIZE = 10_000;
/**
 * A worker thread takes a few hundred milliseconds to start (longer under tsx, which compiles its modules),
 * about what reading 20,000 listings costs: below that a build reads here.
 */
const DEFAULT_READ_ON_WORKER_FROM = 20_000;
/** Dead slots (replaced or removed listings) kept before compacting, when they are also a quarter of the live ones. */
const COMPACT_AFTER_DEAD_SLOTS = 10_000;

/**
 * Keeps a ListingIndex equal to the database, following the change log (db/change-log.ts): the database stays
 * the truth, the index is derived from it and can always be made again.
 *
 * - `build()` reads the log's head BEFORE the tables, then fills a new index and swaps it in at that
 *   position: a change committed meanwhile is in the tables read, or numbered after the head, or both
 *   (applying a change again is harmless: it reloads the current rows).
 * - `catchUp()` reads the changes after its position in batches, reloads the distinct listings, terms and
 *   agents they name, and puts or removes them in one synchronous step, so that a search never sees half a
 *   batch. A gap in the numbers means the log was pruned past this position (jobs/background-jobs.ts keeps a
 *   day): what was lost cannot be replayed, so it builds again.
 * - `fresh()` is what a search awaits: built, and caught up after this process's own writes.
 *
 * Builds and catch-ups run one at a time, in the order asked; callers arriving while one is waiting to run
 * join it (single flight).
 */
export class IndexFeed {
  private current: ListingIndex;
  private applied = 0;
  private isBuilt = false;
  private lastBuildMs = 0;
  private buildCount = 0;
  /** `localWrites.count` when the last build or catch-up began: writes up to it are in the index once it ends. */
  private writesSeen = -1;
  /** The end of the last queued build or catch-up: the next one starts after it. */
  private tail: Promise<unknown> = Promise.resolve();
  /** The build or catch-up running now, if any. */
  private running: Promise<unknown> | undefined;
  private queuedBuild: Promise<void> | undefined;
  private queuedCatchUp: Promise<number> | undefined;
  private readonly pageSize: number;
  private readonly batchSize: number;
  private readonly createIndex: () => ListingIndex;
  private readonly reader: DatabaseConfig | undefined;
  private readonly readOnWorkerFrom: number;
  /** Aborted by `close`: stops a build's reading thread. */
  private readonly closing = new AbortController();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly localWrites: LocalWrites,
    private readonly log: FastifyBaseLogger,
    options: IndexFeedOptions = {},
  ) {
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.createIndex = options.createIndex ?? (() => new ListingIndex());
    this.reader = options.reader;
    this.readOnWorkerFrom = options.readOnWorkerFrom ?? DEFAULT_READ_ON_WORKER_FROM;
    this.current = this.createIndex();
  }

  /** The current index: replaced as a whole by each build, changed in place by each catch-up. */
  get index(): ListingIndex {
    return this.current;
  }

  /** The number of the last change the index holds (db/change-log.ts). */
  get position(): number {
    return this.applied;
  }

  /** True once the first build has finished. */
  get built(): boolean {
    return this.isBuilt;
  }

  /** How long the last build took, in milliseconds. */
  get buildMs(): number {
    return this.lastBuildMs;
  }

  /** Builds finished so far (the first, and each one after a prune left this process behind). */
  get builds(): number {
    return this.buildCount;
  }

  /** Builds a new index from the tables and swaps it in; joins a build already waiting to run. */
  build(): Promise<void> {
    if (this.queuedBuild) return this.queuedBuild;
    const run: Promise<void> = this.exclusive(() => {
      if (this.queuedBuild === run) this.queuedBuild = undefined;
      return this.runBuild();
    });
    this.queuedBuild = run;
    return run;
  }

  /**
   * Applies the changes committed since the index's position; returns how many. Builds instead when never
   * built, or when the log no longer holds the changes after the position. Joins a catch-up waiting to run.
   */
  catchUp(): Promise<number> {
    if (this.queuedCatchUp) return this.queuedCatchUp;
    const run: Promise<number> = this.exclusive(() => {
      if (this.queuedCatchUp === run) this.queuedCatchUp = undefined;
      return this.runCatchUp();
    });
    this.queuedCatchUp = run;
    return run;
  }

  /**
   * Resolves when the index holds every write this process had completed when called: built once, then
   * caught up whenever `localWrites` moved since the last catch-up began (a catch-up already on its way
   * that began after those writes is awaited instead). Other processes' changes come through the follower.
   */
  async fresh(): Promise<void> {
    if (!this.isBuilt) await this.build();
    if (this.localWrites.count !== this.writesSeen) {
      await this.catchUp();
      return;
    }
    // The run that recorded these writes may still be on its way.
    if (this.running) await this.running;
  }

  /** Runs `task` after every build and catch-up queued before it, whether they succeeded or not. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(async () => {
      const work = task();
      this.running = work;
      try {
        return await work;
      } finally {
        if (this.running === work) this.running = undefined;
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async runBuild(): Promise<void> {
    const began = performance.now();
    const writes = this.localWrites.count;
    this.writesSeen = writes;
    try {
      // The head first: whatever commits after this read is replayed by the next catch-up.
      const head = await changeLogHead(this.db);
      const index = this.createIndex();
      const [terms, agents] = await Promise.all([findAllIndexedTerms(this.db), findAllIndexedAgents(this.db)]);
      for (const term of terms) index.putTerm(term);
      for (const agent of agents) index.putAgent(agent);
      for await (const page of await this.listingPages()) for (const listing of page) index.put(listing);
      // In grid order (ListingIndex.compact): the listings of an area in consecutive slots. In turns, as below:
      // at a million listings it takes seconds, and the server answers meanwhile (/health, the previous index).
      (await runInTurns(index.compaction()))();
      index.trim();
      this.current = index;
      this.applied = head;
      this.isBuilt = true;
      this.lastBuildMs = performance.now() - began;
      this.buildCount++;
      this.log.info(
        { listings: index.size, ms: Math.round(this.lastBuildMs), memory: index.memory(), position: head },
        'search index built',
      );
    } catch (error) {
      // Writes this failed run was to cover are not covered: the next fresh() tries again.
      if (this.writesSeen === writes) this.writesSeen = -1;
      throw error;
    }
  }

  /** The searchable listings in pages: read on a worker thread for a large database that another thread can open. */
  private async listingPages(): Promise<AsyncIterable<IndexedListing[]>> {
    if (!this.reader || (await highestListingId(this.db)) < this.readOnWorkerFrom) return searchableListingPages(this.db, this.pageSize);
    const job: ListingTextsJob = { database: this.reader, pageSize: this.pageSize };
    const worker = startModuleWorker(new URL('./index-rows-worker.js', import.meta.url), job);
    return parsedListingPages(pagesFromWorker<string>(worker, 2, this.closing.signal));
  }

  /** Stops a build reading on a worker thread (it fails); at shutdown, once nothing asks the feed any more. */
  close(): void {
    this.closing.abort(new Error('the search index feed is closed'));
  }

  private async runCatchUp(): Promise<number> {
    if (!this.isBuilt) {
      await this.runBuild();
      return 0;
    }
    const writes = this.localWrites.count;
    this.writesSeen = writes;
    let applied = 0;
    try {
      for (;;) {
        const changes = await readChangesAfter(this.db, this.applied, this.batchSize);
        if (changes.length === 0) return applied;
        if (changes.some((change, i) => change.seq !== this.applied + 1 + i)) {
          this.log.warn(
            { position: this.applied, next: changes.find((change, i) => change.seq !== this.applied + 1 + i)?.seq },
            'the change log was pruned past the search index: building it again',
          );
          await this.runBuild();
          return applied;
        }
        await this.apply(changes);
        applied += changes.length;
        // Each put of a listing already indexed leaves its old slot dead: drop them once they weigh. In turns of the
        // event loop, searches reading the index as it was until the compacted one is put in place (issue 38: done
        // at once, 200–240 ms at 30,000 slots, it was the longest wait of /health during a re-import). This run
        // is the only one that changes the index, and it waits for the compaction.
        const index = this.current;
        if (index.deadSlots > COMPACT_AFTER_DEAD_SLOTS && index.deadSlots > index.size / 4) (await runInTurns(index.compaction()))();
        if (changes.length < this.batchSize) return applied;
      }
    } catch (error) {
      if (this.writesSeen === writes) this.writesSeen = -1;
      throw error;
    }
  }

  /** Reloads what `changes` name, then puts or removes it all at once, and moves the position past them. */
  private async apply(changes: readonly Change[]): Promise<void> {
    const listingIds = new Set<number>();
    const termIds = new Set<number>();
    const agentIds = new Set<number>();
    for (const { entity, entityId } of changes) {
      if (entity === 'listing') listingIds.add(entityId);
      else if (entity === 'term') termIds.add(entityId);
      else if (entity === 'agent') agentIds.add(entityId);
      // An agency itself is not indexed: what follows it (its agents' agency_id, its listings' agency_id) is
      // recorded as changes of those agents and listings when a deleted agency clears it.
    }
    const [listings, terms, agents] = await Promise.all([
      listingIds.size > 0 ? findIndexedListings(this.db, [...listingIds]) : [],
      termIds.size > 0 ? findIndexedTerms(this.db, [...termIds]) : [],
      agentIds.size > 0 ? findIndexedAgents(this.db, [...agentIds]) : [],
    ]);
    const index = this.current;
    // Terms and agents first: the listings put next may name them.
    const foundTerms = new Map(terms.map((term) => [term.id, term]));
    for (const id of termIds) {
      const term = foundTerms.get(id);
      if (term) index.putTerm(term);
      else index.removeTerm(id);
    }
    const foundAgents = new Map(agents.map((agent) => [agent.id, agent]));
    for (const id of agentIds) {
      const agent = foundAgents.get(id);
      if (agent) index.putAgent(agent);
      else index.removeAgent(id);
    }
    const foundListings = new Map(listings.map((listing) => [listing.id, listing]));
    for (const id of listingIds) {
      const listing = foundListings.get(id);
      if (listing) index.put(listing);
      else index.remove(id);
    }
    this.applied = changes[changes.length - 1]!.seq;
  }
}
