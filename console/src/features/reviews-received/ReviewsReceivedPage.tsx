import { useTable } from '@refinedev/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, ErrorNotice, Forbidden, isForbidden, Loading, PageHeader, Pager } from '../../components/ui';
import { REVIEW_TARGET_TYPES, type UserReview } from '../../api/reviews';
import { ReviewRating, ReviewTarget } from '../../components/ReviewParts';
import { fromCrudFilters, RECEIVED_RESOURCE, targetFilter, targetPath, toCrudFilters } from './received';
import './reviews-received.css';
import { formatDate } from '../../format';

const PAGE_SIZE = 10;

/**
 * Reviews others wrote about the caller's listings, agent records and agency, newest first, paged, optionally of one
 * kind of target; read-only (the API has no replies).
 */
export default function ReviewsReceivedPage() {
  const { t, i18n } = useTranslation();
  const filterId = useId();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount, filters, setFilters } = useTable<UserReview>({
    resource: RECEIVED_RESOURCE,
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    syncWithLocation: true,
  });
  const selected = fromCrudFilters(filters);
  const reviews = result.data;
  const loading = tableQuery.isLoading;

  if (isForbidden(tableQuery.error)) return <Forbidden />;
  const number = (value: number) => value.toLocaleString(i18n.language);

  return (
    <section>
      <PageHeader title={t('reviews-received.title')}>
        <div className="reviews-received-filter">
          <label htmlFor={filterId}>{t('reviews-received.filter')}</label>
          <select
            id={filterId}
            value={selected}
            onChange={(event) => {
              setFilters(toCrudFilters(targetFilter(event.target.value)), 'replace');
              setCurrentPage(1);
            }}
          >
            <option value="">{t('reviews-received.filter_all')}</option>
            {REVIEW_TARGET_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`reviews-received.filter_${type}`)}
              </option>
            ))}
          </select>
        </div>
      </PageHeader>
      <p className="muted">{t('reviews-received.intro')}</p>
      <ErrorNotice error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />
      {loading ? <Loading /> : null}
      {!loading && !tableQuery.error && reviews.length === 0 ? (
        <p className="muted" role="status">
          {selected === '' ? t('reviews-received.nothing') : t('reviews-received.nothing_filtered')}
        </p>
      ) : null}
      {reviews.length > 0 ? (
        <DataTable
          columns={[
            t('common.review_col_rating'),
            t('common.review_col_review'),
            t('reviews-received.col_target'),
            t('common.review_col_date'),
          ]}
          caption={t('reviews-received.title')}
          className="reviews-received-table"
        >
          {reviews.map((review) => (
            <tr key={review.id}>
              <td className="review-rating">
                <ReviewRating rating={review.rating} label={t('reviews-received.rating', { rating: number(review.rating) })} />
              </td>
              <td className="review-text">
                {review.title ? <strong dir="auto">{review.title}</strong> : <span className="muted">{t('common.review_no_title')}</span>}
                <p className="review-content" dir="auto">
                  {review.content}
                </p>
                <p className="muted review-meta">
                  {t('reviews-received.by', { author: review.author.display_name })}
                  {' · '}
                  {t('common.review_reactions', { likes: number(review.likes), dislikes: number(review.dislikes) })}
                </p>
              </td>
              <td>
                <span className="tag">{t(`common.review_kind_${review.target_type}`)}</span>{' '}
                <ReviewTarget title={review.target_title} path={targetPath(review)} unavailable={t('common.review_unavailable')} />
              </td>
              <td>
                <time dateTime={review.created_at}>{formatDate(review.created_at, i18n.language)}</time>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
