import { type HttpError, useCustom, useTable } from '@refinedev/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DataTable, ErrorNotice, Forbidden, isForbidden, Loading, NotFound, PageHeader, Pager } from '../../components/ui';
import { placeOf, type PropertySummary, termNames } from '../favorites/listing';
import { useLiveNotifications } from '../notifications/live';
import { MatchAlert, matchOf } from './MatchAlert';
import './saved-searches.css';
import { MATCHES_RESOURCE, type SavedSearch } from './types';
import { formatBedrooms, formatListingPrice } from '../../format';

const PER_PAGE = 20;

/** The current results of one saved search (GET /saved-searches/{id}/matches), paged; the page sits in the address. */
export default function MatchesPage() {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const { latest } = useLiveNotifications();

  const {
    tableQuery: query,
    result,
    currentPage,
    setCurrentPage,
    pageCount,
  } = useTable<PropertySummary, HttpError>({
    resource: MATCHES_RESOURCE,
    meta: { params: { id } },
    pagination: { pageSize: PER_PAGE },
    sorters: { mode: 'off' },
    syncWithLocation: true,
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

  const properties = result.data;
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
        <DataTable
          columns={[
            t('saved-searches.col_listing'),
            t('saved-searches.col_type'),
            t('saved-searches.col_city'),
            t('saved-searches.col_price'),
            t('saved-searches.col_beds'),
          ]}
          caption={title}
        >
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
                <bdi>{formatListingPrice(listing, i18n.language, { maximumFractionDigits: 0 }, t) ?? t('common.price_on_request')}</bdi>
              </td>
              <td>{listing.bedrooms !== null ? formatBedrooms(listing.bedrooms, i18n.language, t) : ''}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
