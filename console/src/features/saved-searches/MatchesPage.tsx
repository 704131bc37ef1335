import { useCustom } from '@refinedev/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Pagination } from '../../api/client';
import { ErrorNotice, Forbidden, isForbidden, Loading, NotFound, PageHeader, Pager } from '../../components/ui';
import { formatPrice, placeOf, type PropertySummary, termNames } from '../favorites/listing';
import { useLiveNotifications } from '../notifications/live';
import { MatchAlert, matchOf } from './MatchAlert';
import './saved-searches.css';
import type { SavedSearch } from './types';

const PER_PAGE = 20;

/**
 * The current results of one saved search (GET /saved-searches/{id}/matches), paged. The route's id sits inside its
 * path, which Refine's list resources cannot express, hence useCustom with the page in the address.
 */
export default function MatchesPage() {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const { latest } = useLiveNotifications();

  const { query, result } = useCustom<{ properties: PropertySummary[]; pagination: Pagination }>({
    url: `/saved-searches/${id}/matches`,
    method: 'get',
    config: { query: { page, per_page: PER_PAGE } },
    queryOptions: { enabled: valid },
  });
  // The search's name and description: GET /saved-searches/{id} (another user's or a deleted one is a 404, as for the matches).
  const { result: saved } = useCustom<SavedSearch>({ url: `/saved-searches/${id}`, method: 'get', queryOptions: { enabled: valid } });
  const record = saved.data;

  // A new match of this search announced live: read its results again.
  const liveMatch = matchOf(latest);
  const refetch = query.refetch;
  useEffect(() => {
    if (liveMatch?.savedSearchId === id) void refetch();
  }, [latest?.id, liveMatch?.savedSearchId, id, refetch]);

  if (!valid || query.error?.statusCode === 404) return <NotFound />;
  if (isForbidden(query.error)) return <Forbidden />;

  const properties = result.data?.properties ?? [];
  const pagination = result.data?.pagination;
  const title = record ? t('saved-searches.matches_of', { name: record.name }) : t('saved-searches.matches_title');

  return (
    <section>
      <PageHeader title={title}>
        <Link to="/saved-searches">{t('saved-searches.back')}</Link>
      </PageHeader>
      {record ? <p className="muted">{record.display_text}</p> : null}
      <MatchAlert />
      <ErrorNotice error={query.error} onRetry={() => void refetch()} />
      {query.isLoading ? <Loading /> : null}
      {!query.isLoading && !query.error && properties.length === 0 ? <p className="muted">{t('saved-searches.no_matches')}</p> : null}
      {properties.length > 0 ? (
        <div className="saved-searches-scroll">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t('saved-searches.col_listing')}</th>
                <th scope="col">{t('saved-searches.col_type')}</th>
                <th scope="col">{t('saved-searches.col_city')}</th>
                <th scope="col">{t('saved-searches.col_price')}</th>
                <th scope="col">{t('saved-searches.col_beds')}</th>
              </tr>
            </thead>
            <tbody>
              {properties.map((listing) => (
                <tr key={listing.id}>
                  <td>
                    <Link to={`/explore/${listing.id}`}>
                      <bdi>{listing.title}</bdi>
                    </Link>
                  </td>
                  <td>{termNames(listing.property_type)}</td>
                  <td>{placeOf(listing)}</td>
                  <td>
                    <bdi>{formatPrice(listing, i18n.language) ?? t('saved-searches.price_on_request')}</bdi>
                  </td>
                  <td>{listing.bedrooms ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager
        currentPage={page}
        pageCount={pagination?.total_pages ?? 1}
        total={pagination?.total_records}
        onPage={(next) => setSearch(next > 1 ? { page: String(next) } : {})}
      />
    </section>
  );
}
