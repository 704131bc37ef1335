import type { Kysely, Transaction } from 'kysely';
import type { FileStorage } from '../../adapters/storage/storage.js';
import type { CacheStamps } from '../../db/cache-versions.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/dialect/index.js';
import { recordEvent } from '../../db/domain-events.js';
import type { DB, Reaction } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { type Language, translate } from '../../i18n/index.js';
import { plainText } from '../../lib/text.js';
import { nowIso } from '../../lib/time.js';
import { type DirectoryRatings, type DirectoryServices, isAdministrator } from '../directory/index.js';
import type { ListingRatings, PropertiesService } from '../properties/index.js';
import { ReviewPages } from './review-pages.js';
import {
  canSeeTarget,
  findTargetAccess,
  type TargetDirectory,
  findTargetTitles,
  isReviewable,
  ownedTargets,
  ownsTarget,
  reviewRecipients,
  type TargetAccess,
  targetKey,
} from './review-targets.js';
import { toReview } from './reviews.mapper.js';
import * as repository from './reviews.repository.js';
import type { TargetRef, UserReviewScope } from './reviews.repository.js';
import type {
  CreateReviewInput,
  ListReviewsInput,
  ReactionResultRecord,
  ReceivedReviewsInput,
  ReviewAction,
  ReviewListRecord,
  ReviewRecord,
  UserReviewListRecord,
  UserReviewsInput,
} from './reviews.schemas.js';

/**
 * Decisions of a reaction toggle. Each write applies only to the row as it was read; one that finds it
 * changed by a concurrent request of the same user decides again, and every retry follows a change that
 * succeeded, so a few attempts are plenty.
 */
const REACTION_ATTEMPTS = 5;

const REACTION_OF: Record<ReviewAction, Reaction> = { likes: 'like', dislikes: 'dislike' };

/** Reviews of listings, agents and agencies, and their reactions (docs/api.md 6.1). */
export class ReviewsService {
  private readonly pages: ReviewPages;

  constructor(
    private readonly db: Kysely<DB>,
    stamps: CacheStamps,
    private readonly properties: PropertiesService,
    private readonly storage: FileStorage,
    private readonly directory: TargetDirectory & { agents: Pick<DirectoryServices['agents'], 'managedBy'> },
    /** The targets' owners keep their review totals: properties for listings, directory for agents and agencies. */
    private readonly ratings: { listings: Pick<ListingRatings, 'addReview'>; directory: Pick<DirectoryRatings, 'addReview'> },
  ) {
    this.pages = new ReviewPages(db, stamps, properties, directory, storage);
  }

  /** One page of a target's reviews with its rating and count; 404 when the caller may not see the target. */
  async list(caller: AuthUser | null, target: TargetRef, query: ListReviewsInput, lang: Language): Promise<ReviewListRecord> {
    return this.pages.list(caller, target, query, lang);
  }

  /**
   * The reviews the caller wrote, newest first (ties by id descending), paged, each with what its target is called
   * (null for a target gone or hidden from the caller now). A fixed number of queries whatever the page size.
   */
  async authoredBy(caller: AuthUser, query: UserReviewsInput, lang: Language): Promise<UserReviewListRecord> {
    return this.userReviewPage(caller, { kind: 'authored', authorId: caller.id }, query, lang);
  }

  /**
   * Others' reviews of the records the caller owns (ownedTargets: their listings, as author or through their agency,
   * their agent records, their agency), newest first, paged as authoredBy, optionally of one kind of target. A fixed
   * number of queries whatever the page size and the number of listings.
   */
  async receivedBy(caller: AuthUser, query: ReceivedReviewsInput, lang: Language): Promise<UserReviewListRecord> {
    const owned = ownedTargets(caller, await this.directory.agents.managedBy(caller.id));
    return this.userReviewPage(caller, { kind: 'received', owned, targetType: query.target_type }, query, lang);
  }

  /** A page of one of the caller's own lists, each review with its target's title as the caller may see it. */
  private async userReviewPage(
    caller: AuthUser,
    scope: UserReviewScope,
    query: UserReviewsInput,
    lang: Language,
  ): Promise<UserReviewListRecord> {
    const window = pageWindow(query);
    const [rows, total] = await Promise.all([
      repository.findUserReviewPage(this.db, scope, window),
      repository.countUserReviews(this.db, scope),
    ]);
    const ids = rows.map((row) => row.id);
    const targets = rows.map((row) => ({ type: row.target_type, id: row.target_id }));
    const [reactions, mine, titles] = await Promise.all([
      repository.countReactions(this.db, ids),
      repository.findReactionsOf(this.db, caller.id, ids),
      findTargetTitles(this.db, this.properties, caller, targets),
    ]);
    const deletedAuthorName = translate(lang, 'review_author_deleted');
    return {
      reviews: rows.map((row, i) => ({
        ...toReview(row, reactions.get(row.id), mine.get(row.id) ?? null, this.storage, deletedAuthorName),
        target_title: titles.get(targetKey(targets[i]!)) ?? null,
      })),
      pagination: paginationOf(total, window),
    };
  }

  /**
   * The reviews among `ids` that exist, as an administrator reads them (no reaction of the reader's own), by id:
   * what the outbound webhooks send as `review.created`. A deleted author's name is the English one.
   */
  async recordsOf(ids: readonly number[]): Promise<Map<number, ReviewRecord>> {
    const rows = await repository.findReviewRows(this.db, ids);
    const reactions = await repository.countReactions(
      this.db,
      rows.map((row) => row.id),
    );
    const deletedAuthorName = translate('en', 'review_author_deleted');
    return new Map(rows.map((row) => [row.id, toReview(row, reactions.get(row.id), null, this.storage, deletedAuthorName)]));
  }

  /**
   * Reviews a target the caller may see (else 404) and does not own (else 403), once (else 409
   * `already_reviewed`, also when two submissions race: the unique index decides). The target's totals, the
   * listing's rounded `rating` and the `new_review` event are written in the review's transaction.
   */
  async create(caller: AuthUser, target: TargetRef, input: CreateReviewInput, lang: Language): Promise<ReviewRecord> {
    const access = await this.visibleTarget(caller, target);
    if (ownsTarget(caller, access)) throw new AppError('forbidden', 'review_own_target');
    if (!isReviewable(access)) throw new AppError('forbidden');
    const title = plainText(input.title ?? '');
    const content = plainText(input.content);
    if (!content) throw AppError.invalidField('content', 'review_rule_blank');
    let id: number;
    try {
      id = await this.db.transaction().execute(async (trx) => {
        const reviewId = await repository.insertReview(trx, {
          target,
          authorId: caller.id,
          rating: input.rating,
          title,
          content,
          at: nowIso(),
        });
        if (!(await this.addToTotals(trx, target, input.rating, 1))) throw AppError.notFound(); // deleted meanwhile
        await recordEvent(trx, 'new_review', {
          review_id: reviewId,
          target_type: target.type,
          target_id: target.id,
          author_id: caller.id,
          rating: input.rating,
          recipient_user_ids: reviewRecipients(access, caller.id),
        });
        return reviewId;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('already_reviewed');
      throw error;
    }
    const row = await repository.findReviewRow(this.db, id);
    if (!row) throw AppError.notFound(); // deleted right after its creation
    return toReview(row, undefined, null, this.storage, translate(lang, 'review_author_deleted'));
  }

  /**
   * Likes or dislikes a review of a target the caller may see (else 404): the same action again removes the
   * reaction, the other one switches it. Answers the review's counts and the caller's reaction after the change.
   */
  async react(caller: AuthUser, reviewId: number, action: ReviewAction): Promise<ReactionResultRecord> {
    const subject = await repository.findReviewSubject(this.db, reviewId);
    if (!subject) throw AppError.notFound();
    await this.visibleTarget(caller, { type: subject.target_type, id: subject.target_id });
    let mine: Reaction | null;
    try {
      mine = await this.toggleReaction(caller.id, reviewId, REACTION_OF[action]);
    } catch (error) {
      // The review was deleted after the check above: the insert met its foreign key.
      if (isForeignKeyViolation(error)) throw AppError.notFound();
      throw error;
    }
    const counts = (await repository.countReactions(this.db, [reviewId])).get(reviewId);
    return { likes: counts?.likes ?? 0, dislikes: counts?.dislikes ?? 0, my_reaction: mine };
  }

  /**
   * The author or an administrator deletes a review, and its target's totals drop in the same transaction.
   * Anyone else: 403 when they can see the review's target, else 404.
   */
  async delete(caller: AuthUser, reviewId: number): Promise<void> {
    const subject = await repository.findReviewSubject(this.db, reviewId);
    if (!subject) throw AppError.notFound();
    if (subject.author_id !== caller.id && !isAdministrator(caller)) {
      await this.visibleTarget(caller, { type: subject.target_type, id: subject.target_id });
      throw new AppError('forbidden');
    }
    await this.db.transaction().execute(async (trx) => {
      const removed = await repository.deleteReview(trx, reviewId);
      if (!removed) throw AppError.notFound(); // a concurrent delete won
      // A target already gone (an agent record deleted) has no totals left to correct.
      await this.addToTotals(trx, removed.target, -removed.rating, -1);
    });
  }

  /** The target's access facts if the caller may see it; 404 otherwise, and for unknown targets. */
  private async visibleTarget(caller: AuthUser, target: TargetRef): Promise<TargetAccess> {
    const access = await findTargetAccess(this.properties, this.directory, target);
    if (!access || !canSeeTarget(caller, access)) throw AppError.notFound();
    return access;
  }

  /**
   * Changes the target's totals by increments under its row lock, through the module that owns the target's
   * table (a listing's record also shows the rounded average). False when the target is gone.
   */
  private addToTotals(trx: Transaction<DB>, target: TargetRef, ratingDelta: number, countDelta: number): Promise<boolean> {
    return target.type === 'property'
      ? this.ratings.listings.addReview(trx, target.id, ratingDelta, countDelta)
      : this.ratings.directory.addReview(trx, target.type, target.id, ratingDelta, countDelta);
  }

  /** The caller's reaction after toggling `wanted` (null when removed). */
  private async toggleReaction(userId: number, reviewId: number, wanted: Reaction): Promise<Reaction | null> {
    for (let attempt = 0; attempt < REACTION_ATTEMPTS; attempt++) {
      const at = nowIso();
      const current = await repository.findReaction(this.db, reviewId, userId);
      if (current === undefined) {
        if (await repository.insertReaction(this.db, reviewId, userId, wanted, at)) return wanted;
      } else if (current === wanted) {
        if (await repository.deleteReaction(this.db, reviewId, userId, wanted)) return null;
      } else if (await repository.switchReaction(this.db, reviewId, userId, current, wanted, at)) {
        return wanted;
      }
    }
    throw new AppError('conflict', 'review_reaction_contended');
  }
}
