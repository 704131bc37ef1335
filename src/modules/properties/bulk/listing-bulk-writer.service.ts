import type { Kysely } from 'kysely';
import type { Executor } from '../../../db/executor.js';
import type { DB, Taxonomy } from '../../../db/schema/index.js';
import { averageRating } from '../../../lib/rating.js';
import { type SearchColumns, searchColumnsOf } from '../../../lib/search-columns.js';
import { firstFreeSlug } from '../../../lib/slug.js';
import {
  type BulkCompanions,
  BulkDraftError,
  type BulkWriteMode,
  type BulkWriteOptions,
  type BulkWriteSummary,
  type ListingDraft,
} from './listing-drafts.js';
import * as repository from './listing-bulk.repository.js';

/**
 * The one way to write many listings (`seed --properties`, the benchmarks, feed imports): drafts in, rows of
 * every listing table out, with term counts, the copies on term links, the keyword index, geo cells and
 * cache stamps exactly as the row-by-row path leaves them.
 *
 * - **Fresh** (the database has no listings): one transaction for the whole write. The loaded tables'
 *   triggers, secondary indexes (and on PostgreSQL foreign keys) are set aside, rows go in with few large
 *   statements, then the indexes and triggers come back and what the triggers would have done is done
 *   set-wise (listing-bulk.repository.ts `redoTriggerWork`). Ids are numbered from the identity (1 up in a
 *   new database). All or nothing: a failure leaves the tables as they were. Other writers of listings wait.
 * - **Live** (listings exist): transactions of `batchSize` listings (default: 100 on PostgreSQL, 5,000 on
 *   SQLite, db/dialect/bulk-load.ts `liveBatchSize`) with every trigger in force, each table
 *   written with large multi-row statements; ids come from the database's own numbering. A failure keeps the
 *   transactions before it.
 */
export class ListingBulkWriter {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly companions: BulkCompanions = {},
  ) {}

  async write(
    batches: Iterable<readonly ListingDraft[]> | AsyncIterable<readonly ListingDraft[]>,
    options: BulkWriteOptions = {},
  ): Promise<BulkWriteSummary> {
    const requested = options.mode ?? 'auto';
    const mode: BulkWriteMode = requested === 'auto' ? ((await repository.hasListings(this.db)) ? 'live' : 'fresh') : requested;
    const run = new WriteRun(mode, await repository.termTaxonomies(this.db), options, this.companions);
    await repository.withBulkConnection(this.db, mode, async () => {
      if (mode === 'fresh') {
        await this.db.transaction().execute(async (trx) => {
          const setAside = await repository.setAsideLoadedTables(trx);
          // Checked with the tables locked: nothing can have come in since.
          if (await repository.hasListings(trx)) throw new Error('a fresh bulk write needs a database without listings');
          for await (const batch of batches) await run.writeBatch(trx, batch);
          await setAside.restore();
          await repository.redoTriggerWork(trx, run.stampsToRenew());
        });
        await repository.settleLoadedTables(this.db);
      } else {
        const size = options.batchSize ?? repository.liveTransactionSize(this.db);
        let transactions = 0;
        const writeTransaction = async (drafts: readonly ListingDraft[]) => {
          await this.db.transaction().execute((trx) => repository.inLiveTransaction(trx, () => run.writeBatch(trx, drafts)));
          if (++transactions % TIDY_EVERY === 0) await repository.tidyHotRows(this.db);
        };
        // Transactions of `size` whatever the producer's batches: drafts wait here until a transaction is full.
        let pending: readonly ListingDraft[] = [];
        for await (const batch of batches) {
          pending = pending.length === 0 ? batch : pending.concat(batch);
          let start = 0;
          for (; pending.length - start >= size; start += size) await writeTransaction(pending.slice(start, start + size));
          pending = pending.slice(start);
        }
        if (pending.length > 0) await writeTransaction(pending);
      }
    });
    return run.summary();
  }
}

/** Live transactions between two tidyings of the rows the triggers keep updating (repository `tidyHotRows`). */
const TIDY_EVERY = 10;

/** With the copies that listing_terms_search_insert (db/dialect/ddl/search-triggers.ts) puts on each link. */
const TERM_COLUMNS = ['listing_id', 'term_id', 'taxonomy', 'position', 'status', 'price', 'city_id'];
const AGENT_COLUMNS = ['listing_id', 'agent_id', 'position'];
const TRANSITION_COLUMNS = ['listing_id', 'from_state', 'to_state', 'actor_id', 'reason', 'at'];
const SEARCH_COLUMNS = ['search_text', 'title_tokens', 'geo_key', 'geo_x', 'geo_y', 'geo_z'];
const AGGREGATE_COLUMNS = ['rating_sum', 'reviews_count', 'rating'];

/** The state of one `write`: counts, the column list of its listing rows, and what it checks drafts against. */
class WriteRun {
  private written = 0;
  private published = 0;
  private reviews = 0;
  private firstId: number | null = null;
  private lastId: number | null = null;
  /** The columns of the first draft's row, in its order: every other draft must name the same. */
  private draftColumns: string[] | undefined;
  private computeSearch = false;
  /** The columns of the written rows: the id, the draft's, the search columns when computed here, the aggregate. */
  private columns: string[] = [];

  constructor(
    private readonly mode: BulkWriteMode,
    private readonly taxonomies: Map<number, Taxonomy>,
    private readonly options: BulkWriteOptions,
    private readonly companions: BulkCompanions,
  ) {}

  async writeBatch(trx: Executor, drafts: readonly ListingDraft[]): Promise<void> {
    if (drafts.length === 0) return;
    const offset = this.written;
    // Terms made while the write runs (a feed import creates the ones its records name) are looked up as they come.
    const unknown = [...new Set(drafts.flatMap((draft) => draft.terms.map((link) => link.termId)))].filter(
      (id) => !this.taxonomies.has(id),
    );
    for (const [id, taxonomy] of await repository.termTaxonomies(trx, unknown)) this.taxonomies.set(id, taxonomy);
    const rows = this.listingRows(drafts, offset);
    await this.checkReferences(trx, drafts, offset);
    const slugAt = this.columns.indexOf('slug');
    if (this.mode === 'live') await avoidTakenSlugs(trx, rows, slugAt);

    const ids = await repository.reserveListingIds(trx, drafts.length);
    rows.forEach((row, n) => (row[0] = ids[n]));
    await repository.insertListingRows(trx, this.columns, rows);
    await repository.insertTermLinkRows(
      trx,
      TERM_COLUMNS,
      drafts.flatMap((draft, n) => termRows(draft, ids[n]!)),
    );
    await repository.insertAgentLinkRows(
      trx,
      AGENT_COLUMNS,
      drafts.flatMap((draft, n) => draft.agentIds.map((agentId, position) => [ids[n], agentId, position])),
    );
    const pictures = drafts.flatMap((draft, n) =>
      draft.gallery.map((image, position) => ({
        ...image,
        ownerId: draft.row.author_id!,
        listingId: ids[n]!,
        position,
        createdAt: draft.row.created_at!,
      })),
    );
    if (pictures.length > 0) await this.companions.gallery!.insert(trx, pictures);
    const reviews = drafts.flatMap((draft, n) => draft.reviews.map((review) => ({ ...review, listingId: ids[n]! })));
    if (reviews.length > 0) await this.companions.reviews!.insert(trx, reviews);
    await repository.insertTransitionRows(
      trx,
      TRANSITION_COLUMNS,
      drafts.map((draft, n) => [ids[n], null, draft.row.status, draft.row.author_id ?? null, '', draft.row.created_at]),
    );

    await this.options.onWritten?.(trx, ids, drafts);
    this.written += drafts.length;
    this.published += drafts.filter((draft) => draft.row.status === 'publish').length;
    this.reviews += drafts.reduce((sum, draft) => sum + draft.reviews.length, 0);
    this.firstId ??= ids[0]!;
    this.lastId = ids[ids.length - 1]!;
    this.options.onProgress?.(drafts.length);
  }

  /**
   * Each draft's row as the values of `columns` (the id left for the caller), with its search columns (when not
   * given) and review aggregate, checked for its columns and links.
   */
  private listingRows(drafts: readonly ListingDraft[], offset: number): unknown[][] {
    if (!this.draftColumns) {
      const first = drafts[0]!.row;
      this.draftColumns = Object.keys(first).filter((column) => column !== 'id' && !AGGREGATE_COLUMNS.includes(column));
      this.computeSearch = !('search_text' in first);
      if (this.computeSearch) this.draftColumns = this.draftColumns.filter((column) => !SEARCH_COLUMNS.includes(column));
      this.columns = ['id', ...this.draftColumns, ...(this.computeSearch ? SEARCH_COLUMNS : []), ...AGGREGATE_COLUMNS];
    }
    const expected = this.draftColumns;
    const slugs = new Set<string>();
    return drafts.map((draft, n) => {
      const row = draft.row as Record<string, unknown>;
      const given = Object.keys(row).filter(
        (column) => column !== 'id' && !AGGREGATE_COLUMNS.includes(column) && !(this.computeSearch && SEARCH_COLUMNS.includes(column)),
      );
      if (given.length !== expected.length || !expected.every((column) => column in row)) {
        throw new BulkDraftError(offset + n, 'its row names other columns than the first draft of the write');
      }
      if (slugs.has(draft.row.slug)) throw new BulkDraftError(offset + n, `slug "${draft.row.slug}" is given twice`);
      slugs.add(draft.row.slug);
      if (draft.gallery.length > 0 && (draft.row.author_id ?? null) === null) {
        throw new BulkDraftError(offset + n, 'a gallery needs an author to own its pictures');
      }
      // The writer's set-up, not the draft, is wrong here: a plain Error, not a refused draft.
      if (draft.gallery.length > 0 && !this.companions.gallery)
        throw new Error("drafts with a gallery need media's GalleryRows (BulkCompanions)");
      if (draft.reviews.length > 0 && !this.companions.reviews)
        throw new Error("drafts with reviews need reviews' ListingReviewRows (BulkCompanions)");
      for (const link of draft.terms) {
        const taxonomy = this.taxonomies.get(link.termId);
        if (taxonomy === undefined) throw new BulkDraftError(offset + n, `term ${link.termId} does not exist`);
        if (taxonomy !== link.taxonomy)
          throw new BulkDraftError(offset + n, `term ${link.termId} is a ${taxonomy}, not a ${link.taxonomy}`);
      }
      const values: unknown[] = [null];
      for (const column of expected) values.push(row[column]);
      if (this.computeSearch) {
        const search = searchColumnsOf(draft.row);
        for (const column of SEARCH_COLUMNS) values.push(search[column as keyof SearchColumns]);
      }
      const aggregate = { rating_sum: draft.reviews.reduce((sum, review) => sum + review.rating, 0), reviews_count: draft.reviews.length };
      values.push(aggregate.rating_sum, aggregate.reviews_count, averageRating(aggregate));
      return values;
    });
  }

  /** Authors, agents, agencies and reviewers must exist: a draft naming one that does not is refused by its index. */
  private async checkReferences(trx: Executor, drafts: readonly ListingDraft[], offset: number): Promise<void> {
    const checks: {
      table: 'users' | 'agents' | 'agencies';
      what: string;
      idsOf: (draft: ListingDraft) => readonly (number | null | undefined)[];
    }[] = [
      { table: 'users', what: 'user', idsOf: (draft) => [draft.row.author_id, ...draft.reviews.map((review) => review.authorId)] },
      { table: 'agents', what: 'agent', idsOf: (draft) => draft.agentIds },
      { table: 'agencies', what: 'agency', idsOf: (draft) => [draft.row.agency_id] },
    ];
    for (const { table, what, idsOf } of checks) {
      const wanted = [...new Set(drafts.flatMap((draft) => idsOf(draft).filter((id): id is number => id !== null && id !== undefined)))];
      const found = await repository.existingIds(trx, table, wanted);
      if (found.size === wanted.length) continue;
      const n = drafts.findIndex((draft) => idsOf(draft).some((id) => id !== null && id !== undefined && !found.has(id)));
      const missing = idsOf(drafts[n]!).find((id) => id !== null && id !== undefined && !found.has(id));
      throw new BulkDraftError(offset + n, `${what} ${missing} does not exist`);
    }
  }

  stampsToRenew(): string[] {
    return this.reviews > 0 ? ['listings', 'reviews'] : this.written > 0 ? ['listings'] : [];
  }

  summary(): BulkWriteSummary {
    return { mode: this.mode, listings: this.written, published: this.published, firstId: this.firstId, lastId: this.lastId };
  }
}

/**
 * The term links of a listing, numbered per taxonomy, with the copies the search triggers keep on each link
 * (db/dialect/ddl/search-triggers.ts): fresh mode writes what the set-aside triggers would have written; in
 * live mode the triggers find the copies right and write nothing more (term-copies-by-statement.ts).
 */
function termRows(draft: ListingDraft, id: number): unknown[][] {
  const positions = new Map<Taxonomy, number>();
  // The listing's city as the search triggers choose it: the first `property_city` link by position, then term id.
  const city = firstCity(draft);
  const rows = draft.terms.map(({ termId, taxonomy }) => {
    const position = positions.get(taxonomy) ?? 0;
    positions.set(taxonomy, position + 1);
    return [id, termId, taxonomy, position, draft.row.status, draft.row.price ?? null, city];
  });
  // The first city link goes in first (its position stays): a city link inserted after other links of its
  // listing makes the triggers check (SQLite: row by row) every link before it.
  const first = rows.findIndex((row) => row[2] === 'property_city');
  if (first > 0) rows.unshift(...rows.splice(first, 1));
  return rows;
}

function firstCity(draft: ListingDraft): number | null {
  // Positions count up in list order within a taxonomy: the first city link is the first by position.
  return draft.terms.find((link) => link.taxonomy === 'property_city')?.termId ?? null;
}

/** Live mode: a slug some listing holds already gets the first free one after it (the row path's rule). */
async function avoidTakenSlugs(trx: Executor, rows: unknown[][], slugAt: number): Promise<void> {
  const taken = await repository.takenSlugs(
    trx,
    rows.map((row) => row[slugAt] as string),
  );
  if (taken.size === 0) return;
  for (const row of rows) {
    if (!taken.has(row[slugAt] as string)) continue;
    row[slugAt] = await firstFreeSlug(row[slugAt] as string, (slug) => repository.slugTaken(trx, slug));
  }
}
