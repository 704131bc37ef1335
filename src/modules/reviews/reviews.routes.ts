import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ReviewTarget } from '../../db/schema/index.js';
import { PRIVATE_REVALIDATE, PUBLIC_REVALIDATE, sendCacheable } from '../../http/cache.js';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { translate } from '../../i18n/index.js';
import {
  CreateReviewBody,
  ListReviewsQuery,
  ReactionResult,
  ReceivedReviewsQuery,
  ReviewActionBody,
  ReviewDeleted,
  ReviewIdParams,
  ReviewList,
  ReviewTargetParams,
  UserReviewList,
  UserReviewsQuery,
} from './reviews.schemas.js';
import type { ReviewsService } from './reviews.service.js';

export interface ReviewRouteOptions {
  reviews: ReviewsService;
  /** The per-IP budget of review creation (docs/api.md 0.6), each route its own; unused when rate limiting is off. */
  formsRateLimit: { max: number; timeWindow: number };
}

const ReviewRef = Type.Ref('Review');
const security = [{ bearer: [] }];

/** Anonymous pages are shared and revalidated by ETag; signed-in ones carry the caller's `my_reaction`. */

/** The three reviewed kinds, by the path segment that names them. */
const TARGETS: readonly { path: string; type: ReviewTarget; what: string; visibility: string; own: string }[] = [
  {
    path: '/properties/:id/reviews',
    type: 'property',
    what: 'a listing',
    visibility: 'Published and sold listings are public; other states only for their owner and administrators/managers, else 404.',
    own: 'its author or the agency of its authoring agent',
  },
  {
    path: '/agents/:id/reviews',
    type: 'agent',
    what: 'an agent',
    visibility: 'A hidden agent is 404 to everyone but its user, its agency and administrators/managers.',
    own: 'the agent’s own user or its agency',
  },
  {
    path: '/agencies/:id/reviews',
    type: 'agency',
    what: 'an agency',
    visibility: 'Every agency is public; an unknown id is 404.',
    own: 'the agency’s own user',
  },
];

export async function reviewRoutes(app: FastifyInstance, { reviews, formsRateLimit }: ReviewRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  for (const { path, type, what, visibility, own } of TARGETS) {
    api.get(
      path,
      {
        schema: {
          tags: ['reviews'],
          summary: `Reviews of ${what}`,
          description:
            '`sort_by`: d_date (default) / a_date by creation, d_rating / a_rating; ties by id descending. ' +
            `\`rating\` (one decimal) and \`reviews_count\` are the target’s. ${visibility} ` +
            '`my_reaction` is the caller’s (null when anonymous).',
          params: ReviewTargetParams,
          querystring: ListReviewsQuery,
          response: { 200: Envelope(ReviewList), ...errorResponses(400, 401, 404, 429) },
        },
      },
      async (request, reply) => {
        const answer = await reviews.list(request.user, { type, id: request.params.id }, request.query, request.lang);
        if (request.user) return reply.header('cache-control', PRIVATE_REVALIDATE).send({ success: true, data: answer });
        return sendCacheable(request, reply, answer, PUBLIC_REVALIDATE, () => ({ success: true, data: answer }));
      },
    );

    api.post(
      path,
      {
        config: { auth: 'user', rateLimit: formsRateLimit },
        schema: {
          tags: ['reviews'],
          summary: `Review ${what} (signed in)`,
          description:
            '`rating` 1–5 (an integer), `title` optional (≤ 200), `content` 1–5,000; both plain text (HTML tags ' +
            'removed; content left empty by that → 400). Answers 201 with the review. One review per user and ' +
            `target: 409 \`already_reviewed\`. Reviewing one’s own record (${own}) → 403. ${visibility} ` +
            'The target’s `rating` and `reviews_count` change at once. Limited per client IP ' +
            '(FORMS_RATE_LIMIT_PER_MINUTE, default 5 a minute, this route on its own budget).',
          security,
          params: ReviewTargetParams,
          body: CreateReviewBody,
          response: { 201: Envelope(ReviewRef), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
        },
      },
      async (request, reply) => {
        const review = await reviews.create(request.user!, { type, id: request.params.id }, request.body, request.lang);
        return reply.code(201).send({ success: true, data: review });
      },
    );
  }

  api.get(
    '/users/reviews',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users', 'reviews'],
        summary: 'The reviews the caller wrote, newest first',
        description:
          'The caller’s own reviews of listings, agents and agencies, newest first (ties by id descending), paged; ' +
          'others’ reviews never appear. Each is the review record with `target_title`: the listing’s title or the ' +
          'agent’s or agency’s name as it is now, null when the target was deleted or the caller may no longer see ' +
          'it (a listing that is no longer published and not the caller’s, a hidden agent). `my_reaction` is the ' +
          'caller’s own reaction to the review.',
        security,
        querystring: UserReviewsQuery,
        response: { 200: Envelope(UserReviewList), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ success: true, data: await reviews.authoredBy(request.user!, request.query, request.lang) }),
  );

  api.get(
    '/users/reviews-received',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users', 'reviews'],
        summary: 'Reviews of the caller’s listings, agent records and agency, newest first',
        description:
          'Others’ reviews of what the caller owns, newest first (ties by id descending), paged: their listings in any ' +
          'state (those they wrote and, for an agency’s user, those its agents wrote: the owner rule of docs/api.md ' +
          '0.3), their own agent record and, for an agency’s user, its agents’ records (hidden ones included), and ' +
          'their agency. Exactly what the caller may not review as their own. Administrators and managers get the ' +
          'reviews of their own records only. Any role may call it; a caller who owns nothing reviewable gets an ' +
          'empty list. `target_type` keeps one kind of target. Each review is as in GET /users/reviews: the review ' +
          'record with `target_title` (the listing’s title or the agent’s or agency’s name) and the caller’s ' +
          '`my_reaction`. A fixed number of queries whatever the page size and the number of listings.',
        security,
        querystring: ReceivedReviewsQuery,
        response: { 200: Envelope(UserReviewList), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ success: true, data: await reviews.receivedBy(request.user!, request.query, request.lang) }),
  );

  api.post(
    '/reviews/:id/action',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['reviews'],
        summary: 'Like or dislike a review (signed in)',
        description:
          'One reaction per user: the same action again removes it, the other one switches to it. Answers the ' +
          'review’s counts and the caller’s reaction after the change. A review of a target the caller cannot ' +
          'see → 404.',
        security,
        params: ReviewIdParams,
        body: ReviewActionBody,
        response: { 200: Envelope(ReactionResult), ...errorResponses(400, 401, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await reviews.react(request.user!, request.params.id, request.body.action) }),
  );

  api.delete(
    '/reviews/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['reviews'],
        summary: 'Delete a review (its author, administrators)',
        description:
          'The target’s `rating` and `reviews_count` change at once. Anyone else → 403 when they can see the ' +
          'review’s target, else 404.',
        security,
        params: ReviewIdParams,
        response: { 200: Envelope(ReviewDeleted), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      await reviews.delete(request.user!, request.params.id);
      return { success: true, data: { id: request.params.id, deleted: true as const }, message: translate(request.lang, 'review_deleted') };
    },
  );
}
