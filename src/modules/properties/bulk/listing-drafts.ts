import type { Executor } from '../../../db/executor.js';
import type { GalleryPicture, GalleryRows } from '../../media/index.js';
import type { NewListing } from '../../../db/schema/index.js';
import type { TermLink } from '../properties.repository.js';

/**
 * The input of the bulk write path (listing-bulk-writer.service.ts): a listing as a producer has it before it
 * has an id. The demo seed is one producer (seed/demo-listing-drafts.ts); a feed import is another.
 */
export interface ListingDraft {
  /**
   * The `listings` row without its id. Every draft of one write names the same columns (a multi-row insert
   * needs them; SQLite would fill a missing one with null). The search columns (lib/search-columns.ts) may
   * come with the row, computed by `searchColumnsOf` where the producer has time to spare (a drafting
   * thread); otherwise the writer computes them. The review aggregate (`rating_sum`, `reviews_count`,
   * `rating`) is always computed by the writer from `reviews`.
   */
  row: NewListing;
  /** Term links in order; positions are numbered per taxonomy in this order. */
  terms: readonly TermLink[];
  /** The agents the listing names, in order. */
  agentIds: readonly number[];
  /** Gallery pictures in order, owned by the listing's author (who must then be set). */
  gallery: readonly MediaDraft[];
  reviews: readonly ReviewDraft[];
}

/**
 * A stored picture (its files exist already: adapters/storage) as a `media` row of the listing's gallery, less what
 * the writer knows (owner, listing, position, date).
 */
type MediaDraft = Omit<GalleryPicture, 'ownerId' | 'listingId' | 'position' | 'createdAt'>;

interface ReviewDraft {
  authorId: number;
  rating: number;
  title: string;
  content: string;
  createdAt: string;
}

/** A listing's review as the bulk writer hands it to the reviews module. */
export interface ListingReviewRow extends ReviewDraft {
  listingId: number;
}

/** Writes a bulk write's reviews into reviews' table: the reviews module's ListingReviewRows (it depends on this module, so it is given). */
export interface ListingReviewRowsWriter {
  insert(trx: Executor, reviews: readonly ListingReviewRow[]): Promise<void>;
}

/**
 * The other modules' writers of what a draft carries beside its listing: each table is written by the module
 * that owns it. Needed only by writes whose drafts have pictures or reviews (the demo seed; imports have none).
 */
export interface BulkCompanions {
  /** media's GalleryRows, for drafts with a gallery. */
  gallery?: GalleryRows;
  /** reviews' ListingReviewRows, for drafts with reviews. */
  reviews?: ListingReviewRowsWriter;
}

/** `fresh`: the listing tables were empty, triggers set aside and their work done set-wise; `live`: triggers in force. */
export type BulkWriteMode = 'fresh' | 'live';

export interface BulkWriteOptions {
  /** `auto` (default): `fresh` when the database has no listings, else `live`. `fresh` refuses a database with listings. */
  mode?: BulkWriteMode | 'auto';
  /** Live mode: listings per transaction (default: 100 on PostgreSQL, 1,000 on SQLite). */
  batchSize?: number;
  /**
   * Called in the transaction that wrote `drafts`, with the ids they got (in order), before it commits: what a
   * producer records beside its listings (an import's source keys) commits with them or not at all.
   */
  onWritten?: (trx: Executor, ids: readonly number[], drafts: readonly ListingDraft[]) => Promise<void>;
  /** Called as listings are written, with how many were written since the last call. */
  onProgress?: (written: number) => void;
}

export interface BulkWriteSummary {
  mode: BulkWriteMode;
  listings: number;
  published: number;
  /** The ids given, ascending. */
  firstId: number | null;
  lastId: number | null;
}

/**
 * A draft the writer refuses (an unknown term, agent or user; a term of another taxonomy than its link says;
 * columns other than the first draft's; a duplicate slug): `index` counts drafts from 0 in the order given.
 * Nothing of the draft's transaction is written: in live mode the listings of earlier transactions stay, in
 * fresh mode nothing does.
 */
export class BulkDraftError extends Error {
  constructor(
    readonly index: number,
    readonly reason: string,
  ) {
    super(`listing draft ${index}: ${reason}`);
  }
}
