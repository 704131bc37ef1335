import { useCustomMutation, useTable } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorNotice, Forbidden, isForbidden, PageHeader, Pager, QueryStatus } from '../../components/ui';
import './favorites.css';
import { placeOf, type PropertySummary, thumbnailOf } from './listing';
import { formatListingPrice } from '../../format';

/** The caller's favorite listings, newest first, as cards: picture, title (to the listing), price, place; removable. */
export default function FavoritesPage() {
  const { t, i18n } = useTranslation();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount } = useTable<PropertySummary>({
    resource: 'favorites',
    pagination: { pageSize: 12 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
    syncWithLocation: true,
  });
  const { mutate: post, mutation } = useCustomMutation();
  const [removed, setRemoved] = useState<string | null>(null);
  const [pending, setPending] = useState<number | null>(null);

  // The last card of the last page removed: show the page before it instead of an empty one.
  const emptyPage = !tableQuery.isFetching && result.data.length === 0 && currentPage > 1;
  useEffect(() => {
    if (emptyPage) setCurrentPage(currentPage - 1);
  }, [emptyPage, currentPage, setCurrentPage]);

  if (isForbidden(tableQuery.error)) return <Forbidden />;

  const remove = (listing: PropertySummary) => {
    setPending(listing.id);
    setRemoved(null);
    post(
      {
        url: `/favorite-property/${listing.id}`,
        method: 'post',
        values: { favorite: false },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: () => {
          setRemoved(listing.title);
          void tableQuery.refetch();
        },
        onSettled: () => setPending(null),
      },
    );
  };

  return (
    <section>
      <PageHeader title={t('favorites.title')} />
      <div role="status" className="favorites-status">
        {removed ? <p className="notice notice-ok">{t('favorites.removed', { title: removed })}</p> : null}
      </div>
      <ErrorNotice error={mutation.error} />
      <QueryStatus query={tableQuery} isEmpty={result.data.length === 0} empty={t('favorites.empty')} />
      {result.data.length > 0 ? (
        <ul className="favorites-grid" aria-label={t('favorites.listings')}>
          {result.data.map((listing) => {
            const picture = thumbnailOf(listing);
            const price = formatListingPrice(listing, i18n.language, { maximumFractionDigits: 0 }, t);
            const place = placeOf(listing);
            return (
              <li key={listing.id} className="favorites-card">
                {picture ? (
                  <img className="thumb favorites-thumb" src={picture.url} alt={picture.alt} width={150} height={150} loading="lazy" />
                ) : (
                  <div className="thumb favorites-thumb favorites-no-photo">{t('favorites.no_photo')}</div>
                )}
                <div className="favorites-body">
                  <h2 className="favorites-title">
                    <Link to={`/explore/${listing.id}`}>
                      <bdi>{listing.title}</bdi>
                    </Link>
                  </h2>
                  <p className="favorites-price">{price ? <bdi>{price}</bdi> : t('common.price_on_request')}</p>
                  {place ? (
                    <p className="muted favorites-place">
                      <bdi>{place}</bdi>
                    </p>
                  ) : null}
                  <button
                    type="button"
                    className="danger"
                    aria-label={t('favorites.remove_of', { title: listing.title })}
                    disabled={pending === listing.id}
                    onClick={() => remove(listing)}
                  >
                    {t('favorites.remove')}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
