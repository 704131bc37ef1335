import { Type, type Static } from 'typebox';
import { AppError } from '../../lib/errors.js';
import { CreateReviewBody, type CreateReviewInput, type ReviewListRecord, type ReviewRecord } from '../../modules/reviews/index.js';
import type { PageContext } from '../page.js';
import { withQuery } from '../paths.js';
import { fill } from '../texts.js';
import { CsrfField, Field, FormNotice, Honeypot, TextArea, type FormState } from './Form.js';
import { Pagination } from './Pagination.js';
import { reviewsText } from './reviews.text.js';

/**
 * The reviews block of a reviewed page (an agent, an agency, a listing): the rating summary, one page of reviews
 * with paging, and the add-review form for signed-in visitors (a sign-in link for the others). The form posts to
 * the page's own review route, which calls reviews.create as POST …/{id}/reviews does.
 */

/** The add-review form as posted: the API's fields, as text (form posts carry strings), plus the CSRF token and the honeypot. */
export const ReviewFormBody = Type.Object(
  {
    rating: Type.String({ pattern: '^[1-5]$' }),
    title: CreateReviewBody.properties.title,
    content: CreateReviewBody.properties.content,
    csrf: Type.Optional(Type.String({ maxLength: 200 })),
    website: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
export type ReviewFormInput = Static<typeof ReviewFormBody>;

/** The service's input of a posted form. */
export function reviewInputOf(body: ReviewFormInput): CreateReviewInput {
  return { rating: Number(body.rating), ...(body.title ? { title: body.title } : {}), content: body.content };
}

/** Why the service refused a review, as the form shows it: one's own record (403), a second review (409). */
export type ReviewRefusal = 'own' | 'refused' | 'duplicate';

/** The refusal a review's error stands for, with its status; undefined for any other error (rethrown by the caller). */
export function reviewRefusalOf(error: unknown): { refusal: ReviewRefusal; status: number } | undefined {
  if (!(error instanceof AppError)) return undefined;
  if (error.code === 'already_reviewed') return { refusal: 'duplicate', status: error.status };
  if (error.code === 'forbidden') return { refusal: error.messageKey === 'review_own_target' ? 'own' : 'refused', status: error.status };
  return undefined;
}

/** The add-review form's state: what was typed and the field messages, the refusal after a failed post, the thanks after a sent one. */
export interface ReviewFormState extends FormState {
  readonly refusal?: ReviewRefusal;
  readonly sent?: boolean;
}

/** "N reviews" in the page's language. */
function reviewsCount(ctx: PageContext, count: number): string {
  const t = reviewsText[ctx.lang];
  return fill(count === 1 ? t.reviews_one : t.reviews_other, { count: ctx.format.number(count) });
}

/** Five stars, as many filled as the rating (rounded), read out as "4.5 out of 5". */
function Stars({ ctx, rating }: { ctx: PageContext; rating: number }) {
  const filled = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span class="stars" role="img" aria-label={fill(reviewsText[ctx.lang].stars, { rating: ctx.format.number(rating) })}>
      {'★'.repeat(filled)}
      <span class="stars__empty">{'★'.repeat(5 - filled)}</span>
    </span>
  );
}

/** The average rating and the number of reviews (or "No reviews yet"). */
export function RatingSummary({ ctx, rating, count }: { ctx: PageContext; rating: number | null; count: number }) {
  const t = reviewsText[ctx.lang];
  if (rating === null || count === 0) return <span class="rating rating--none">{t.not_rated}</span>;
  return (
    <span class="rating">
      <Stars ctx={ctx} rating={rating} /> <span class="rating__value">{ctx.format.number(rating)}</span>{' '}
      <span class="rating__count">({reviewsCount(ctx, count)})</span>
    </span>
  );
}

function ReviewItem({ ctx, review }: { ctx: PageContext; review: ReviewRecord }) {
  const t = reviewsText[ctx.lang];
  return (
    <li class="review">
      <article>
        <header class="review__head">
          <Stars ctx={ctx} rating={review.rating} />
          {review.title ? <h3 class="review__title">{review.title}</h3> : null}
        </header>
        <p class="review__content">{review.content}</p>
        <p class="review__by muted">{fill(t.review_by, { name: review.author.display_name, date: ctx.format.date(review.created_at) })}</p>
      </article>
    </li>
  );
}

/**
 * The reviews section: heading, summary, the page of reviews and its paging (`pageHref(n)`), then the form.
 * `subjectName` is what is reviewed ("Ana López"); `action` the plain path the form posts to; `returnTo` the plain
 * path the sign-in page brings a visitor who was not signed in back to (`/sign-in?next=`).
 */
export function ReviewsSection({
  ctx,
  list,
  subjectName,
  pageHref,
  action,
  returnTo,
  form,
}: {
  ctx: PageContext;
  list: ReviewListRecord;
  subjectName: string;
  pageHref: (page: number) => string;
  action: string;
  returnTo: string;
  form: ReviewFormState;
}) {
  const t = reviewsText[ctx.lang];
  return (
    <section class="section reviews" id="reviews" aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">{t.reviews}</h2>
      <p class="reviews__summary">
        <RatingSummary ctx={ctx} rating={list.rating} count={list.reviews_count} />
      </p>
      {list.reviews.length > 0 ? (
        <ol class="review-list">
          {list.reviews.map((review) => (
            <ReviewItem key={review.id} ctx={ctx} review={review} />
          ))}
        </ol>
      ) : list.reviews_count === 0 ? (
        <p class="muted">{fill(t.no_reviews, { name: subjectName })}</p>
      ) : null}
      <Pagination
        ctx={ctx}
        page={list.pagination.current_page}
        totalPages={list.pagination.total_pages}
        href={pageHref}
        label={t.reviews}
      />
      <ReviewForm ctx={ctx} subjectName={subjectName} action={action} returnTo={returnTo} form={form} />
    </section>
  );
}

/** The add-review form, or the sign-in link for a visitor who is not signed in. */
function ReviewForm({
  ctx,
  subjectName,
  action,
  returnTo,
  form,
}: {
  ctx: PageContext;
  subjectName: string;
  action: string;
  returnTo: string;
  form: ReviewFormState;
}) {
  const t = reviewsText[ctx.lang];
  const refusal = form.refusal
    ? { own: t.review_own, refused: t.review_refused, duplicate: fill(t.review_duplicate, { name: subjectName }) }[form.refusal]
    : null;
  return (
    <div class="review-form" id="review-form">
      <h3>{t.write_review}</h3>
      {form.sent ? <FormNotice>{t.review_sent}</FormNotice> : null}
      {refusal ? <FormNotice kind="error">{refusal}</FormNotice> : null}
      {Object.keys(form.errors).length > 0 ? <FormNotice kind="error">{t.review_failed}</FormNotice> : null}
      {ctx.visitor ? (
        <form class="form" method="post" action={ctx.path(action)} noValidate>
          <CsrfField ctx={ctx} />
          <Honeypot idPrefix="review" />
          <RatingSelect ctx={ctx} form={form} />
          <Field form={form} idPrefix="review" name="title" label={t.review_title} maxLength={200} />
          <TextArea form={form} idPrefix="review" name="content" label={t.review_content} required maxLength={5000} />
          <p>
            <button class="button" type="submit">
              {t.publish_review}
            </button>
          </p>
        </form>
      ) : (
        <p>
          <a class="button button--quiet" href={ctx.path(withQuery('/sign-in', { next: returnTo }))}>
            {t.sign_in_to_review}
          </a>
        </p>
      )}
    </div>
  );
}

function RatingSelect({ ctx, form }: { ctx: PageContext; form: FormState }) {
  const t = reviewsText[ctx.lang];
  const error = form.errors.rating;
  const chosen = form.values.rating ?? '5';
  const options = [
    ['5', t.rating_5],
    ['4', t.rating_4],
    ['3', t.rating_3],
    ['2', t.rating_2],
    ['1', t.rating_1],
  ] as const;
  return (
    <div class="field" data-invalid={error ? '' : undefined}>
      <label for="review-rating">{t.your_rating}</label>
      <select
        id="review-rating"
        name="rating"
        required
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'review-rating-error' : undefined}
      >
        {options.map(([value, label]) => (
          <option key={value} value={value} selected={value === chosen}>
            {label}
          </option>
        ))}
      </select>
      {error ? (
        <p class="field__error" id="review-rating-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
