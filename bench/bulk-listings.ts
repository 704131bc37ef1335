import { randomBytes } from 'node:crypto';
import { on } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { FileStorage } from '../src/adapters/storage/storage.js';
import { fillGeoCells } from '../src/db/dialect/ddl/geo-cell-triggers.js';
import type { DB, Taxonomy } from '../src/db/schema/index.js';
import type { AccountsService } from '../src/modules/accounts/accounts.service.js';
import { ensureDemoDirectory } from '../src/seed/demo-directory.js';
import { createDemoImages } from '../src/seed/demo-images.js';
import { findDemoTerms } from '../src/seed/demo-listings.js';
import type { DraftContext, ListingDraft } from '../src/seed/demo-listing-drafts.js';
import type { DemoReview } from '../src/seed/demo-reviews.js';
import type { BulkLoader } from './bulk-loaders.js';
import type { DraftChunk, DraftJob } from './bulk-drafts-worker.js';

/**
 * The bench's fast way to the data of `seed --properties N` (src/seed/demo-listings.ts seedDemoListings):
 * the same drafts from the same seeded streams, written by a BulkLoader in transactions of 10,000 listings
 * with multi-row inserts while a worker thread drafts the next chunk, with the loaded tables' triggers set
 * aside; what those triggers do row by row is then done here set-wise. bench/verify-bulk.ts checks that both
 * ways give the same rows.
 *
 * Three steps, because SQLite's loading connection wants the file to itself: `draftContext` (through the
 * application's services), `loadListings` (through the loader), `redoTriggerWork` (through Kysely again).
 */

/** Every table the load writes. */
export const LOADED_TABLES = ['listings', 'listing_terms', 'listing_agents', 'media', 'reviews', 'listing_transitions'] as const;

const LISTINGS_PER_CHUNK = 10_000;

/**
 * The demo directory and pictures (created where missing) and the ids of the demo terms: what drafts draw
 * from. The database must have no listings yet: the load numbers them from 1.
 */
export async function draftContext(db: Kysely<DB>, users: AccountsService, storage: FileStorage, now: Date): Promise<DraftContext> {
  if (await db.selectFrom('listings').select('id').limit(1).executeTakeFirst())
    throw new Error('bulk listings go into a database without listings');
  const terms = await findDemoTerms(db);
  const directory = await ensureDemoDirectory(db, users, storage, now);
  const images = await createDemoImages(storage, now);
  return { terms, directory, images, now };
}

export interface LoadOptions {
  count: number;
  /** As seedDemoListings' `seed` (default 1). */
  seed?: number;
  onProgress?: (written: number) => void;
}

/**
 * Writes `count` demo listings, numbered from 1, with their term links (and the copies of migration 0006 on
 * them), agents, pictures, reviews and first state transition. Returns how many are published.
 */
export async function loadListings(loader: BulkLoader, context: DraftContext, options: LoadOptions): Promise<{ published: number }> {
  const job: DraftJob = { context, seed: options.seed ?? 1, first: 1, count: options.count, chunkSize: LISTINGS_PER_CHUNK };
  const worker = startTypeScriptWorker(new URL('./bulk-drafts-worker.ts', import.meta.url), job);
  let published = 0;
  let written = 0;
  try {
    await loader.suspend(LOADED_TABLES);
    // A worker that dies without an error event would otherwise leave the loop waiting for ever.
    const exited = new AbortController();
    worker.once('exit', (code) => exited.abort(new Error(`the drafting worker exited with code ${code}`)));
    const more = () => worker.postMessage('more');
    // Two chunks in flight: the worker drafts one while this thread writes the other.
    more();
    more();
    for await (const [chunk] of on(worker, 'message', { signal: exited.signal }) as AsyncIterable<[DraftChunk]>) {
      await loader.transaction(() => writeChunk(loader, chunk, job.first + written));
      published += chunk.drafts.filter((draft) => draft.row.status === 'publish').length;
      written += chunk.drafts.length;
      options.onProgress?.(written);
      if (written >= options.count) break;
      more();
    }
    await loader.resume();
  } finally {
    await worker.terminate();
  }
  return { published };
}

/**
 * A worker thread running a TypeScript module. Node 20 does not hand tsx's loader (`--import tsx` in
 * `execArgv`) to a worker's entry module, so a one-line script registers it in the thread first.
 */
function startTypeScriptWorker(module: URL, workerData: unknown): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/**
 * What the set-aside triggers do for new listings (db/dialect/*-triggers.ts): term counts, geo cells, renewed
 * cache stamps. (Full-text rows are rebuilt by the loader; the copies on term links are written with the links.)
 */
export async function redoTriggerWork(db: Kysely<DB>): Promise<void> {
  // term-triggers.ts: a term's count moves by one for each link of a published listing.
  const added = db
    .selectFrom('listing_terms as lt')
    .innerJoin('listings as l', 'l.id', 'lt.listing_id')
    .select((eb) => ['lt.term_id', eb.fn.countAll<number>().as('n')])
    .where('l.status', '=', 'publish')
    .groupBy('lt.term_id')
    .as('added');
  await db
    .updateTable('terms')
    .from(added)
    .set((eb) => ({ count: eb('terms.count', '+', eb.ref('added.n')) }))
    .whereRef('terms.id', '=', 'added.term_id')
    .execute();
  // geo-cell-triggers.ts: made for this case, it counts every listing's cells anew.
  await fillGeoCells(db);
  // listing-triggers.ts, directory-triggers.ts: every stamp a listing, link, picture or review renews.
  for (const { name } of await db.selectFrom('cache_versions').select('name').execute()) {
    await db
      .updateTable('cache_versions')
      .set({ version: randomBytes(8).toString('hex').toUpperCase() })
      .where('name', '=', name)
      .execute();
  }
}

async function writeChunk(loader: BulkLoader, { drafts, reviews }: DraftChunk, firstId: number): Promise<void> {
  const listed = drafts.map((draft, index) => ({ draft, id: firstId + index, reviews: reviews[index] ?? [] }));
  const listingColumns = ['id', ...Object.keys(drafts[0]!.row)];
  await loader.insert(
    'listings',
    listingColumns,
    listed.map(({ draft, id }) => {
      const row: Record<string, unknown> = { ...draft.row, id };
      const values = listingColumns.map((column) => row[column]);
      if (Object.keys(row).length !== listingColumns.length || values.includes(undefined)) {
        throw new Error(`draft ${id} has other columns than the first draft of its chunk`);
      }
      return values;
    }),
  );
  // NOTE: the rows of writeDrafts (src/seed/demo-listings.ts), column for column, plus the copies that
  // listing_terms_search_insert (db/dialect/search-triggers.ts) puts on each link.
  await loader.insert(
    'listing_terms',
    ['listing_id', 'term_id', 'taxonomy', 'position', 'status', 'price', 'city_id'],
    listed.flatMap(({ draft, id }) => {
      const positions = new Map<Taxonomy, number>();
      const city = firstCity(draft);
      return draft.terms.map(({ termId, taxonomy }) => {
        const position = positions.get(taxonomy) ?? 0;
        positions.set(taxonomy, position + 1);
        return [id, termId, taxonomy, position, draft.row.status, draft.row.price, city];
      });
    }),
  );
  await loader.insert(
    'listing_agents',
    ['listing_id', 'agent_id', 'position'],
    listed.flatMap(({ draft, id }) => draft.agentIds.map((agentId, position) => [id, agentId, position])),
  );
  await loader.insert(
    'media',
    [
      'owner_id',
      'listing_id',
      'position',
      'storage_key',
      'mime_type',
      'width',
      'height',
      'size_bytes',
      'title',
      'caption',
      'alt',
      'description',
      'sizes',
      'created_at',
    ],
    listed.flatMap(({ draft, id }) =>
      draft.gallery.map((image, position) => [
        draft.row.author_id,
        id,
        position,
        image.storageKey,
        image.mimeType,
        image.width,
        image.height,
        image.sizeBytes,
        image.title,
        '',
        `${image.title}: ${draft.row.title}`,
        '',
        image.sizes,
        draft.row.created_at,
      ]),
    ),
  );
  await loader.insert(
    'reviews',
    ['target_type', 'target_id', 'author_id', 'rating', 'title', 'content', 'created_at', 'updated_at'],
    listed.flatMap(({ id, reviews: drafted }) =>
      drafted.map((review: DemoReview) => [
        'property',
        id,
        review.authorId,
        review.rating,
        review.title,
        review.content,
        review.createdAt,
        review.createdAt,
      ]),
    ),
  );
  await loader.insert(
    'listing_transitions',
    ['listing_id', 'from_state', 'to_state', 'actor_id', 'reason', 'at'],
    listed.map(({ draft, id }) => [id, null, draft.row.status, draft.row.author_id ?? null, '', draft.row.created_at]),
  );
}

/** The listing's city as the search triggers choose it: the first `property_city` link by position, then term id. */
function firstCity(draft: ListingDraft): number | null {
  const cities = draft.terms.filter((link) => link.taxonomy === 'property_city').map((link) => link.termId);
  // Links of one taxonomy are numbered in order, so the first by position is the first in the list.
  return cities[0] ?? null;
}
