import { type Static, type TSchema, Type } from 'typebox';
import type { ReviewTarget } from '../../db/schema/index.js';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../lib/paging.js';

const REVIEW_TARGETS = ['property', 'agent', 'agency'] as const satisfies readonly ReviewTarget[];
const REVIEW_SORTS = ['d_date', 'a_date', 'd_rating', 'a_rating'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];
const REVIEW_ACTIONS = ['likes', 'dislikes'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

const INT4_MAX = 2_147_483_647;
const Id = Type.Integer({ minimum: 1, maximum: INT4_MAX });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const MyReaction = Nullable(Type.Enum(['like', 'dislike'], { description: 'The caller’s reaction; null when none or anonymous' }));

/** A review (docs/api.md 6.1). */
export const Review = Type.Object(
  {
    id: Type.Integer(),
    target_type: Type.Enum([...REVIEW_TARGETS]),
    target_id: Type.Integer(),
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    title: Type.String({ description: 'Plain text; "" when none was given' }),
    content: Type.String({ description: 'Plain text' }),
    likes: Type.Integer(),
    dislikes: Type.Integer(),
    my_reaction: MyReaction,
    author: Type.Object(
      {
        id: Nullable(Type.Integer()),
        display_name: Type.String(),
        avatar_url: Nullable(Type.String({ description: 'The avatar’s medium size; null without one' })),
      },
      { description: 'Once the author’s account is deleted: id null, display_name "Deleted user" (localized), avatar_url null' },
    ),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Review', title: 'Review' },
);
export type ReviewRecord = Static<typeof Review>;

export const ReviewList = Type.Object({
  reviews: Type.Array(Type.Ref('Review')),
  pagination: Pagination,
  rating: Nullable(Type.Number({ description: 'The target’s average rating, one decimal; null without reviews' })),
  reviews_count: Type.Integer({ description: 'The target’s number of reviews' }),
});
export interface ReviewListRecord {
  reviews: ReviewRecord[];
  pagination: PaginationRecord;
  rating: number | null;
  reviews_count: number;
}

/**
 * A review in a user's own lists (GET /users/reviews, /users/reviews-received): the review record and what its target
 * is called.
 */
export const UserReview = Type.Object(
  {
    ...Review.properties,
    target_title: Nullable(
      Type.String({
        description:
          'The listing’s title, or the agent’s or agency’s name; null when the target is deleted or the caller may not ' +
          'see it now (a listing no longer published, a hidden agent)',
      }),
    ),
  },
  { $id: 'UserReview', title: 'UserReview' },
);
type UserReviewRecord = ReviewRecord & { target_title: string | null };

export const UserReviewList = Type.Object({ reviews: Type.Array(Type.Ref('UserReview')), pagination: Pagination });
export interface UserReviewListRecord {
  reviews: UserReviewRecord[];
  pagination: PaginationRecord;
}

export const UserReviewsQuery = Type.Object({ ...PageQueryFields }, { additionalProperties: false });
export type UserReviewsInput = Static<typeof UserReviewsQuery>;

export const ReceivedReviewsQuery = Type.Object(
  {
    ...PageQueryFields,
    target_type: Type.Optional(
      Type.Enum([...REVIEW_TARGETS], { description: 'Only reviews of the caller’s listings (property), agent records (agent) or agency' }),
    ),
  },
  { additionalProperties: false },
);
export type ReceivedReviewsInput = Static<typeof ReceivedReviewsQuery>;

export const ReviewTargetParams = Type.Object({ id: Id }, { additionalProperties: false });
export const ReviewIdParams = Type.Object({ id: Id }, { additionalProperties: false });

export const ListReviewsQuery = Type.Object(
  {
    ...PageQueryFields,
    sort_by: Type.Optional(
      Type.Enum([...REVIEW_SORTS], { description: 'd_date (default, newest first), a_date, d_rating, a_rating; ties by id descending' }),
    ),
  },
  { additionalProperties: false },
);
export type ListReviewsInput = Static<typeof ListReviewsQuery>;

export const CreateReviewBody = Type.Object(
  {
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    title: Type.Optional(Type.String({ maxLength: 200, description: 'Plain text: HTML tags are removed' })),
    content: Type.String({ minLength: 1, maxLength: 5000, description: 'Plain text: HTML tags are removed' }),
  },
  { additionalProperties: false },
);
export type CreateReviewInput = Static<typeof CreateReviewBody>;

export const ReviewActionBody = Type.Object(
  { action: Type.Enum([...REVIEW_ACTIONS], { description: 'The same action again removes it; the other one switches to it' }) },
  { additionalProperties: false },
);

export const ReactionResult = Type.Object({
  likes: Type.Integer(),
  dislikes: Type.Integer(),
  my_reaction: MyReaction,
});
export type ReactionResultRecord = Static<typeof ReactionResult>;

export const ReviewDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });
