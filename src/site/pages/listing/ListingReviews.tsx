import { CsrfField, Field, type FormState, Honeypot, TextArea } from '../../components/Form.js';
import { Pagination } from '../../components/Pagination.js';
import type { PageContext } from '../../page.js';
import { withQuery } from '../../paths.js';
import type { SiteServices } from '../../site-services.js';
import { fill } from '../../texts.js';
import { type FormOutcome, Outcome, SelectField } from './LeadForms.js';
import { listingText } from './listing.text.js';

export type ReviewPage = Awaited<ReturnType<SiteServices['reviews']['list']>>;

/** Who may write a review here: a signed-in visitor on a public listing they do not own, else who must sign in. */
export type ReviewAccess = 'write' | 'sign-in' | 'none';

function Stars({ ctx, rating }: { ctx: PageContext; rating: number }) {
  const full = Math.round(rating);
  return (
    <span class="stars">
      <span aria-hidden="true">
        {'★'.repeat(full)}
        {'☆'.repeat(5 - full)}
      </span>
      <span class="visually-hidden">{fill(listingText[ctx.lang].rating_value, { rating: ctx.format.number(rating) })}</span>
    </span>
  );
}

/** The listing's reviews, a page at a time, and the form to add one. */
export function ListingReviews({
  ctx,
  page,
  listingPath,
  access,
  form,
  outcome,
  signInPath,
}: {
  ctx: PageContext;
  page: ReviewPage;
  listingPath: string;
  access: ReviewAccess;
  form: FormState;
  outcome: FormOutcome;
  signInPath: string;
}) {
  const t = listingText[ctx.lang];
  const { pagination } = page;
  return (
    <section class="listing-block" id="reviews" aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">{t.reviews}</h2>
      {page.rating !== null && page.reviews_count > 0 ? (
        <p class="reviews__summary">
          <Stars ctx={ctx} rating={page.rating} />{' '}
          {fill(t.reviews_summary, { rating: ctx.format.number(page.rating), count: ctx.format.number(page.reviews_count) })}
        </p>
      ) : (
        <p class="muted">{t.no_reviews}</p>
      )}
      {page.reviews.length > 0 ? (
        <ol class="reviews">
          {page.reviews.map((review) => (
            <li key={review.id} class="review">
              <article>
                <header>
                  <Stars ctx={ctx} rating={review.rating} />
                  {review.title ? (
                    <h3 class="review__title" dir="auto">
                      {review.title}
                    </h3>
                  ) : null}
                  <p class="muted">{fill(t.review_by, { name: review.author.display_name, date: ctx.format.date(review.created_at) })}</p>
                </header>
                <p class="review__content" dir="auto">
                  {review.content}
                </p>
              </article>
            </li>
          ))}
        </ol>
      ) : null}
      <Pagination
        ctx={ctx}
        page={pagination.current_page}
        totalPages={pagination.total_pages}
        href={(n) => `${ctx.path(withQuery(listingPath, { reviews_page: n > 1 ? n : undefined }))}#reviews`}
      />
      {access === 'write' || outcome.sent || outcome.error ? (
        <div class="review-form">
          <h3>{t.write_review}</h3>
          <Outcome outcome={outcome} sentText={t.review_sent} />
          {access === 'write' ? (
            <form class="form" method="post" action={ctx.path(`${listingPath}/reviews`)}>
              <CsrfField ctx={ctx} />
              <Honeypot idPrefix="review" />
              <SelectField
                form={form}
                idPrefix="review"
                name="rating"
                label={t.rating}
                required
                options={[5, 4, 3, 2, 1].map((n) => [String(n), fill(t.rating_value, { rating: ctx.format.number(n) })] as const)}
              >
                <option value="">{t.choose}</option>
              </SelectField>
              <Field form={form} idPrefix="review" name="title" label={t.review_title} maxLength={200} />
              <TextArea form={form} idPrefix="review" name="content" label={t.review_content} required maxLength={5000} />
              <button class="button" type="submit">
                {t.review_send}
              </button>
            </form>
          ) : null}
        </div>
      ) : null}
      {access === 'sign-in' ? (
        <p class="no-print">
          <a class="button button--quiet" href={ctx.path(signInPath)}>
            {t.review_sign_in}
          </a>
        </p>
      ) : null}
    </section>
  );
}
