import { type HttpError, useDelete, useTable } from '@refinedev/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorNotice, Forbidden, isForbidden, Loading, PageHeader, Pager } from '../../components/ui';
import { MY_REVIEWS_RESOURCE, type MyReview, pageAfterDeletion, reviewName, stars, targetPath } from './reviews';
import './my-reviews.css';

const PAGE_SIZE = 10;

interface Outcome {
  ok: boolean;
  text: string;
}

/** The reviews the caller wrote, newest first, paged; each can be deleted after a confirmation. */
export default function MyReviewsPage() {
  const { t, i18n } = useTranslation();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount } = useTable<MyReview>({
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

  const nameOf = (review: MyReview) => reviewName(review, t('my-reviews.this_review'));
  const deleteReview = (review: MyReview) => {
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
        <div className="my-reviews-scroll">
          <table className="data my-reviews-table">
            <thead>
              <tr>
                <th scope="col">{t('my-reviews.col_rating')}</th>
                <th scope="col">{t('my-reviews.col_review')}</th>
                <th scope="col">{t('my-reviews.col_target')}</th>
                <th scope="col">{t('my-reviews.col_date')}</th>
                <th scope="col">{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {reviews.map((review) => {
                const name = nameOf(review);
                return (
                  <tr key={review.id}>
                    <td className="my-reviews-rating">
                      <span className="my-reviews-stars" aria-hidden="true">
                        {stars(review.rating)}
                      </span>{' '}
                      <span className="my-reviews-rating-text">
                        {t('my-reviews.rating', { rating: review.rating.toLocaleString(i18n.language) })}
                      </span>
                    </td>
                    <td className="my-reviews-review">
                      {review.title ? (
                        <strong dir="auto">{review.title}</strong>
                      ) : (
                        <span className="muted">{t('my-reviews.no_title')}</span>
                      )}
                      <p className="my-reviews-content" dir="auto">
                        {review.content}
                      </p>
                      <p className="muted my-reviews-reactions">
                        {t('my-reviews.reactions', {
                          likes: review.likes.toLocaleString(i18n.language),
                          dislikes: review.dislikes.toLocaleString(i18n.language),
                        })}
                      </p>
                    </td>
                    <td>
                      <span className="tag">{t(`my-reviews.kind_${review.target_type}`)}</span> <Target review={review} />
                    </td>
                    <td>
                      <time dateTime={review.created_at}>
                        {new Date(review.created_at).toLocaleDateString(i18n.language, { dateStyle: 'medium' })}
                      </time>
                    </td>
                    <td>
                      {confirming === review.id ? (
                        <ConfirmDelete
                          name={name}
                          busy={removal.isPending}
                          onConfirm={() => deleteReview(review)}
                          onCancel={() => setConfirming(null)}
                        />
                      ) : (
                        <button
                          type="button"
                          className="danger"
                          disabled={removal.isPending}
                          aria-label={t('my-reviews.delete_named', { name })}
                          onClick={() => {
                            setOutcome(null);
                            setConfirming(review.id);
                          }}
                        >
                          {t('common.delete')}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}

/** The reviewed record: a link to a listing the caller may still see, a name, or "no longer available". */
function Target({ review }: { review: MyReview }) {
  const { t } = useTranslation();
  if (review.target_title === null) return <span className="muted">{t('my-reviews.unavailable')}</span>;
  const path = targetPath(review);
  const title = <bdi>{review.target_title}</bdi>;
  return path ? <Link to={path}>{title}</Link> : title;
}

/** The confirmation step of a deletion, which takes the focus so that keyboard users land on it. */
function ConfirmDelete({ name, busy, onConfirm, onCancel }: { name: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="my-reviews-confirm" role="group" aria-label={t('my-reviews.confirm', { name })}>
      <span>{t('my-reviews.confirm', { name })}</span>
      <div className="row">
        <button type="button" className="danger" disabled={busy} onClick={onConfirm}>
          {t('my-reviews.confirm_button')}
        </button>
        <button ref={cancel} type="button" disabled={busy} onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}
