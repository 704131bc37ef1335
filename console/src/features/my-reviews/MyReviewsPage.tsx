import { type HttpError, useDelete, useTable } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable, ErrorNotice, Forbidden, isForbidden, Loading, PageHeader, Pager } from '../../components/ui';
import type { UserReview } from '../../api/reviews';
import { ReviewRating, ReviewTarget } from '../../components/ReviewParts';
import { MY_REVIEWS_RESOURCE, pageAfterDeletion, reviewName, targetPath } from './reviews';
import './my-reviews.css';
import { formatDate } from '../../format';

const PAGE_SIZE = 10;

interface Outcome {
  ok: boolean;
  text: string;
}

/** The reviews the caller wrote, newest first, paged; each can be deleted after a confirmation. */
export default function UserReviewsPage() {
  const { t, i18n } = useTranslation();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount } = useTable<UserReview>({
    resource: MY_REVIEWS_RESOURCE,
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    syncWithLocation: true,
  });
  const { mutate: remove, mutation: removal } = useDelete();
  const [confirming, setConfirming] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const reviews = result.data;
  const loading = tableQuery.isLoading;

  // The last review of a later page was deleted: show the page before it rather than an empty one.
  useEffect(() => {
    if (loading || tableQuery.isFetching) return;
    const next = pageAfterDeletion(currentPage, reviews.length, pageCount);
    if (next !== currentPage) setCurrentPage(next);
  }, [loading, tableQuery.isFetching, currentPage, reviews.length, pageCount, setCurrentPage]);

  if (isForbidden(tableQuery.error)) return <Forbidden />;

  const nameOf = (review: UserReview) => reviewName(review, t('my-reviews.this_review'));
  const deleteReview = (review: UserReview) => {
    const name = nameOf(review);
    setOutcome(null);
    remove(
      { resource: MY_REVIEWS_RESOURCE, id: review.id, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          setConfirming(null);
          setOutcome({ ok: true, text: t('my-reviews.deleted', { name }) });
        },
        onError: (error: HttpError) => {
          setConfirming(null);
          setOutcome({ ok: false, text: t('my-reviews.failed', { name, message: error.message }) });
        },
      },
    );
  };

  return (
    <section>
      <PageHeader title={t('my-reviews.title')} />
      <p className="muted">{t('my-reviews.intro')}</p>
      <div role="status" className="my-reviews-outcome">
        {outcome?.ok ? <p className="notice notice-ok">{outcome.text}</p> : null}
      </div>
      <div role="alert" className="my-reviews-outcome">
        {outcome && !outcome.ok ? <p className="notice notice-error">{outcome.text}</p> : null}
      </div>
      <ErrorNotice error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />
      {loading ? <Loading /> : null}
      {!loading && !tableQuery.error && reviews.length === 0 ? <p className="muted">{t('my-reviews.nothing')}</p> : null}
      {reviews.length > 0 ? (
        <DataTable
          columns={[
            t('common.review_col_rating'),
            t('common.review_col_review'),
            t('my-reviews.col_target'),
            t('common.review_col_date'),
            t('common.actions'),
          ]}
          caption={t('my-reviews.title')}
          className="my-reviews-table"
        >
          {reviews.map((review) => {
            const name = nameOf(review);
            return (
              <tr key={review.id}>
                <td className="review-rating">
                  <ReviewRating
                    rating={review.rating}
                    label={t('my-reviews.rating', { rating: review.rating.toLocaleString(i18n.language) })}
                  />
                </td>
                <td className="review-text">
                  {review.title ? <strong dir="auto">{review.title}</strong> : <span className="muted">{t('common.review_no_title')}</span>}
                  <p className="review-content" dir="auto">
                    {review.content}
                  </p>
                  <p className="muted review-meta">
                    {t('common.review_reactions', {
                      likes: review.likes.toLocaleString(i18n.language),
                      dislikes: review.dislikes.toLocaleString(i18n.language),
                    })}
                  </p>
                </td>
                <td>
                  <span className="tag">{t(`common.review_kind_${review.target_type}`)}</span>{' '}
                  <ReviewTarget title={review.target_title} path={targetPath(review)} unavailable={t('common.review_unavailable')} />
                </td>
                <td>
                  <time dateTime={review.created_at}>{formatDate(review.created_at, i18n.language)}</time>
                </td>
                <td>
                  <ConfirmButton
                    label={t('common.delete')}
                    ariaLabel={t('my-reviews.delete_named', { name })}
                    question={t('my-reviews.confirm', { name })}
                    confirmLabel={t('my-reviews.confirm_button')}
                    busy={removal.isPending}
                    focus="cancel"
                    stacked
                    open={confirming === review.id}
                    onOpenChange={(open) => {
                      if (open) setOutcome(null);
                      setConfirming(open ? review.id : null);
                    }}
                    onConfirm={() => deleteReview(review)}
                  />
                </td>
              </tr>
            );
          })}
        </DataTable>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
