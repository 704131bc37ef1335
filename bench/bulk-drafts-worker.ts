/**
 * The demo listings of bulk-listings.ts, drafted on a thread of their own while the main thread writes the
 * previous chunk: drafting (words, stems, geo columns) costs about as much as writing, so on two cores the
 * load takes about half the time. Each 'more' message asks for the next chunk; the main thread keeps two in
 * flight, so memory holds at most three chunks whatever the count.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { averageRating } from '../src/lib/rating.js';
import { type Random, seededRandom } from '../src/lib/random.js';
import { type DraftContext, draftListing, type ListingDraft } from '../src/seed/demo-listing-drafts.js';
import { aggregateOf, type DemoReview, draftReviews, reviewWindow } from '../src/seed/demo-reviews.js';

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

// NOTE: as seedDemoListings (src/seed/demo-listings.ts) draws them: the same two streams, the same shares.
// Kept in step by bench/verify-bulk.ts, which compares both ways of seeding row by row.
const REVIEW_STREAM_OFFSET = 1_000_003;
const REVIEWED_SHARE = 0.15;
const MOST_REVIEWS = 4;

/** Reviews for some public listings; the listing row gets their aggregate (API.md 6.1). */
function listingReviews(random: Random, draft: ListingDraft, reviewers: readonly number[], now: Date): DemoReview[] {
  const reviewed = (draft.row.status === 'publish' || draft.row.status === 'sold') && random() < REVIEWED_SHARE;
  const reviews = reviewed
    ? draftReviews(random, 'property', 1 + Math.floor(random() * MOST_REVIEWS), reviewers, reviewWindow(now, draft.row.published_at ?? null), now)
    : [];
  const aggregate = aggregateOf(reviews);
  Object.assign(draft.row, aggregate, { rating: averageRating(aggregate) });
  return reviews;
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
