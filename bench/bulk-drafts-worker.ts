/**
 * The demo listings of bulk-listings.ts, drafted on a thread of their own while the main thread writes the
 * previous chunk: drafting (words, stems, geo columns) costs about as much as writing, so on two cores the
 * load takes about half the time. Each 'more' message asks for the next chunk; the main thread keeps two in
 * flight, so memory holds at most three chunks whatever the count.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { seededRandom } from '../src/lib/random.js';
import { type DraftContext, draftListing, type ListingDraft } from '../src/seed/demo-listing-drafts.js';
import { listingReviews, REVIEW_STREAM_OFFSET } from '../src/seed/demo-listings.js';
import type { DemoReview } from '../src/seed/demo-reviews.js';

export interface DraftJob {
  context: DraftContext;
  seed: number;
  /** Number of the first listing (its id in a fresh database). */
  first: number;
  count: number;
  chunkSize: number;
}

export interface DraftChunk {
  drafts: ListingDraft[];
  /** The reviews of each draft, in the same order. */
  reviews: DemoReview[][];
}

if (parentPort) {
  const port = parentPort;
  const job = workerData as DraftJob;
  const random = seededRandom(job.seed);
  const reviewRandom = seededRandom(job.seed + REVIEW_STREAM_OFFSET);
  let drafted = 0;
  port.on('message', () => {
    const size = Math.min(job.chunkSize, job.count - drafted);
    if (size <= 0) return;
    const chunk: DraftChunk = { drafts: [], reviews: [] };
    for (let i = 0; i < size; i++) {
      const draft = draftListing(random, job.context, job.first + drafted + i);
      chunk.reviews.push(listingReviews(reviewRandom, draft, job.context.directory.reviewers, job.context.now));
      chunk.drafts.push(draft);
    }
    drafted += size;
    port.postMessage(chunk);
  });
}
