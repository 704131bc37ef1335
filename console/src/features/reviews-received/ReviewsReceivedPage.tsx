import { useCustom, useGetIdentity, useList } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Identity } from '../../api/session';
import { ErrorNotice, Forbidden, isForbidden, Loading, PageHeader, Pager } from '../../components/ui';
import {
  findTarget,
  type ListingSummary,
  REVIEW_SORTS,
  type ReviewSort,
  type ReviewsAnswer,
  type ReviewTarget,
  reviewsPath,
  reviewTargets,
  stars,
  targetKey,
} from './targets';
import './reviews-received.css';

const PAGE_SIZE = 10;

/** Reviews others wrote about the caller's agency, agent record and listings; read-only (the API has no replies). */
export default function ReviewsReceivedPage() {
  const { t } = useTranslation();
  const { data: identity, isLoading: identityLoading } = useGetIdentity<Identity>();
  const { result: listings, query: listingsQuery } = useList<ListingSummary>({
    resource: 'reviews-received-listings',
    pagination: { currentPage: 1, pageSize: 100 },
    meta: { query: { status: 'all' } },
  });
  const [selected, setSelected] = useState<string | null>(null);
  const targets = reviewTargets(identity, listings.data);
  const target = findTarget(targets, selected);

  if (isForbidden(listingsQuery.error)) return <Forbidden />;
  const label = (option: ReviewTarget) =>
    option.type === 'property'
      ? t('reviews-received.target_property', { title: option.title, reviews: option.reviews })
      : t(`reviews-received.target_${option.type}`);

  return (
    <section>
      <PageHeader title={t('reviews-received.title')}>
        {targets.length > 0 ? (
          <label>
            {t('reviews-received.reviews_of')}{' '}
            <select value={target ? targetKey(target) : ''} onChange={(event) => setSelected(event.target.value)}>
              {targets.map((option) => (
                <option key={targetKey(option)} value={targetKey(option)}>
                  {label(option)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </PageHeader>
      <ErrorNotice error={listingsQuery.error} onRetry={() => void listingsQuery.refetch()} />
      {identityLoading || listingsQuery.isLoading ? <Loading /> : null}
      {!identityLoading && !listingsQuery.isLoading && targets.length === 0 ? (
        <p className="muted">{t('reviews-received.nothing')}</p>
      ) : null}
      {target ? (
        <TargetReviews
          key={targetKey(target)}
          target={target}
          name={target.type === 'property' ? t('reviews-received.listing_named', { title: target.title }) : label(target)}
        />
      ) : null}
    </section>
  );
}

function TargetReviews({ target, name }: { target: ReviewTarget; name: string }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<ReviewSort>('d_date');
  const { result, query } = useCustom<ReviewsAnswer>({
    url: reviewsPath(target),
    method: 'get',
    config: { query: { page, per_page: PAGE_SIZE, sort_by: sort } },
  });
  const answer = query.data?.data;
  const number = (value: number) => value.toLocaleString(i18n.language, { maximumFractionDigits: 1 });

  return (
    <div className="stack">
      <div className="row reviews-received-summary">
        <h2>{name}</h2>
        {answer ? (
          <p role="status">
            {answer.rating !== null && answer.reviews_count > 0
              ? t('reviews-received.average', { rating: number(answer.rating), total: number(answer.reviews_count) })
              : t('reviews-received.no_reviews')}
          </p>
        ) : null}
        <label>
          {t('reviews-received.sort')}{' '}
          <select
            value={sort}
            onChange={(event) => {
              setSort(event.target.value as ReviewSort);
              setPage(1);
            }}
          >
            {REVIEW_SORTS.map((value) => (
              <option key={value} value={value}>
                {t(`reviews-received.sort_${value}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      {query.isLoading ? <Loading /> : null}
      <ul className="card-list">
        {(result.data?.reviews ?? []).map((review) => (
          <li key={review.id} className="card">
            <article className="stack reviews-received-review">
              <div className="card-head">
                <span className="reviews-received-stars" aria-hidden="true">
                  {stars(review.rating)}
                </span>
                <span className="visually-hidden">{t('reviews-received.rating', { rating: review.rating })}</span>
                {review.title ? <h3 dir="auto">{review.title}</h3> : null}
              </div>
              <p className="reviews-received-text" dir="auto">
                {review.content}
              </p>
              <p className="muted">
                {t('reviews-received.by', { author: review.author?.display_name || t('reviews-received.deleted_user') })}
                {' · '}
                <time dateTime={review.created_at}>
                  {new Date(review.created_at).toLocaleDateString(i18n.language, { dateStyle: 'long' })}
                </time>
                {' · '}
                {t('reviews-received.reactions', { likes: number(review.likes), dislikes: number(review.dislikes) })}
              </p>
            </article>
          </li>
        ))}
      </ul>
      {answer ? (
        <Pager currentPage={page} pageCount={answer.pagination.total_pages} total={answer.pagination.total_records} onPage={setPage} />
      ) : null}
    </div>
  );
}
