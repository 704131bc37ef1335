import type { Kysely } from 'kysely';
import type { FileStorage } from '../../adapters/storage/storage.js';
import type { CacheStamps } from '../../db/cache-versions.js';
import type { DB } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { type PageWindow, pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { type Language, translate } from '../../i18n/index.js';
import type { PropertiesService } from '../properties/index.js';
import { canSeeTarget, findTargetAccess, type TargetAccess, type TargetDirectory, targetStamp } from './review-targets.js';
import { averageRating } from '../../lib/rating.js';
import { toReview } from './reviews.mapper.js';
import * as repository from './reviews.repository.js';
import type { TargetRef } from './reviews.repository.js';
import type { ListReviewsInput, ReviewListRecord, ReviewSort } from './reviews.schemas.js';

/** Distinct pages kept; past this the cache starts over. */
const MAX_CACHED_PAGES = 2000;

interface CachedPage {
  /** The `reviews` stamp and the target's own stamp when the page was loaded. */
  version: string;
  /** Kept with the page: visibility is decided per caller on every request, without a query. */
  access: TargetAccess;
  answer: ReviewListRecord;
}

/**
 * Pages of a target's reviews (GET …/{id}/reviews). A page, the target's access facts and totals are kept
 * while the `reviews` stamp and the target's stamp (`listings` or `directory`, which move with visibility
 * and totals) are unchanged, per language (the "Deleted user" name), as one frozen object: an anonymous
 * hit costs neither a query nor a serialization (http/cache.ts). Signed-in callers add `my_reaction` with
 * one query. A miss costs five queries whatever the page size.
 */
export class ReviewPages {
  private readonly cache = new Map<string, CachedPage>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly stamps: CacheStamps,
    private readonly properties: PropertiesService,
    private readonly directory: TargetDirectory,
    private readonly storage: FileStorage,
  ) {}

  /** One page of the target's reviews, if the caller may see the target (else 404). */
  async list(caller: AuthUser | null, target: TargetRef, query: ListReviewsInput, lang: Language): Promise<ReviewListRecord> {
    const sort = query.sort_by ?? 'd_date';
    const window = pageWindow(query);
    // Read before loading: a change committed meanwhile leaves the entry stale for the next request.
    const version = `${await this.stamps.current('reviews')}/${await this.stamps.current(targetStamp(target))}`;
    const key = `${target.type}:${target.id}:${sort}:${window.page}:${window.perPage}:${lang}`;
    let page = this.cache.get(key);
    if (page?.version !== version) {
      page = await this.load(target, sort, window, lang, version);
      // Unknown targets are not kept: probing ids must not fill the cache.
      if (page) {
        if (this.cache.size >= MAX_CACHED_PAGES) this.cache.clear();
        this.cache.set(key, page);
      }
    }
    if (!page || !canSeeTarget(caller, page.access)) throw AppError.notFound();
    if (!caller) return page.answer;
    const { answer } = page;
    const mine = await repository.findReactionsOf(
      this.db,
      caller.id,
      answer.reviews.map((review) => review.id),
    );
    return { ...answer, reviews: answer.reviews.map((review) => ({ ...review, my_reaction: mine.get(review.id) ?? null })) };
  }

  private async load(
    target: TargetRef,
    sort: ReviewSort,
    window: PageWindow,
    lang: Language,
    version: string,
  ): Promise<CachedPage | undefined> {
    const [access, totals, rows, total] = await Promise.all([
      findTargetAccess(this.properties, this.directory, target),
      repository.findTotals(this.db, target),
      repository.findReviewPage(this.db, target, sort, window),
      repository.countReviewsOf(this.db, target),
    ]);
    if (!access || !totals) return undefined;
    const reactions = await repository.countReactions(
      this.db,
      rows.map((row) => row.id),
    );
    const deletedAuthorName = translate(lang, 'review_author_deleted');
    const answer: ReviewListRecord = {
      reviews: rows.map((row) => Object.freeze(toReview(row, reactions.get(row.id), null, this.storage, deletedAuthorName))),
      pagination: paginationOf(total, window),
      rating: averageRating(totals),
      reviews_count: totals.reviews_count,
    };
    return { version, access, answer: Object.freeze(answer) };
  }
}
