import type { Worker } from 'node:worker_threads';
import { type Random, seededRandom } from '../lib/random.js';
import { pagesFromWorker, startModuleWorker } from '../lib/worker-thread.js';
import type { ListingDraft } from '../modules/properties/index.js';
import { type DraftContext, draftListing } from './demo-listing-drafts.js';
import { listingReviews } from './demo-reviews.js';

/**
 * The demo listings of a seed as batches of drafts for the bulk writer (modules/properties/bulk/): drafted
 * here, or on a worker thread while this thread writes the previous batch. Drafting (words, stems, geo
 * columns) costs about as much as writing, so on two cores a large seed takes about half the time. Both
 * ways give the same drafts: the same code (`draftBatch`) draws from the same seeded streams.
 */

export interface DraftJob {
  context: DraftContext;
  seed: number;
  /** Number of the first listing (in its slug and reference). */
  first: number;
  count: number;
  batchSize: number;
}

/** Reviews draw from a stream of their own, this far from the listings' seed: they do not change the listings a seed gives. */
const REVIEW_STREAM_OFFSET = 1_000_003;

/** The streams a job draws from, and how far it got. */
export interface DraftStreams {
  random: Random;
  reviewRandom: Random;
  drafted: number;
}

export function draftStreams(job: DraftJob): DraftStreams {
  return { random: seededRandom(job.seed), reviewRandom: seededRandom(job.seed + REVIEW_STREAM_OFFSET), drafted: 0 };
}

/** The job's next batch (empty when done). */
export function draftBatch(job: DraftJob, streams: DraftStreams): ListingDraft[] {
  const size = Math.min(job.batchSize, job.count - streams.drafted);
  const batch: ListingDraft[] = [];
  for (let i = 0; i < size; i++) {
    const draft = draftListing(streams.random, job.context, job.first + streams.drafted + i);
    const reviews = listingReviews(streams.reviewRandom, draft.row, job.context.directory.reviewers, job.context.now);
    batch.push({
      row: draft.row,
      terms: draft.terms,
      agentIds: draft.agentIds,
      gallery: draft.gallery.map((image) => ({
        storageKey: image.storageKey,
        mimeType: image.mimeType,
        width: image.width,
        height: image.height,
        sizeBytes: image.sizeBytes,
        title: image.title,
        caption: '',
        alt: `${image.title}: ${draft.row.title}`,
        description: '',
        sizes: image.sizes,
      })),
      reviews,
    });
  }
  streams.drafted += size;
  return batch;
}

/** The job's batches, drafted on this thread. */
export function* draftBatches(job: DraftJob): Generator<ListingDraft[]> {
  const streams = draftStreams(job);
  for (let batch = draftBatch(job, streams); batch.length > 0; batch = draftBatch(job, streams)) yield batch;
}

/** A drafting thread (demo-drafts-worker.ts), started before its job is known: it waits for it. */
export function startDraftingThread(): Worker {
  return startModuleWorker(new URL('./demo-drafts-worker.js', import.meta.url), undefined);
}

/**
 * The job's batches, drafted on `thread` (startDraftingThread) two batches ahead: memory holds at most three
 * batches whatever the count. The thread is stopped when they end.
 */
export async function* draftBatchesOnWorker(thread: Worker, job: DraftJob): AsyncGenerator<ListingDraft[]> {
  let received = 0;
  thread.postMessage(job);
  for await (const batch of pagesFromWorker<ListingDraft[]>(thread)) {
    if (batch.length === 0) return;
    received += batch.length;
    yield batch;
    if (received >= job.count) return;
  }
}
