import { useTable } from '@refinedev/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, Forbidden, isForbidden, PageHeader, Pager, QueryStatus } from '../../components/ui';
import { thumbnailOf } from './format';
import './listings.css';
import { LISTINGS_RESOURCE } from './resources';
import { StateTag } from './StateTag';
import { LISTING_STATES, type ListingSummary } from './types';
import { formatDateTime, formatListingPrice } from '../../format';

const filterValue = (filters: readonly unknown[], field: string): string =>
  String(
    (
      filters.find((filter) => typeof filter === 'object' && filter !== null && 'field' in filter && filter.field === field) as
        { value?: unknown } | undefined
    )?.value ?? '',
  );

/** The caller's listings in every state (GET /users/my-properties): state filter, keyword, paging, links to edit. */
export default function MyListingsPage() {
  const { t, i18n } = useTranslation();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount, filters, setFilters } = useTable<ListingSummary>({
    resource: LISTINGS_RESOURCE,
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    filters: {
      initial: [
        { field: 'status', operator: 'eq', value: 'all' },
        { field: 'keyword', operator: 'eq', value: '' },
      ],
    },
    syncWithLocation: true,
  });
  const status = filterValue(filters, 'status') || 'all';
  const keyword = filterValue(filters, 'keyword');
  const [draftKeyword, setDraftKeyword] = useState(keyword);
  useEffect(() => setDraftKeyword(keyword), [keyword]);

  const setFilter = (field: 'status' | 'keyword', value: string) => {
    setFilters([{ field, operator: 'eq', value }], 'merge');
    setCurrentPage(1);
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilter('keyword', draftKeyword.trim());
  };

  if (isForbidden(tableQuery.error)) return <Forbidden />;

  return (
    <section className="listings-page">
      <PageHeader title={t('listings.my_listings')}>
        <Link to="/listings/new" className="button-link">
          {t('listings.new_listing')}
        </Link>
      </PageHeader>
      <div className="row listings-filters">
        <label>
          {t('listings.state_filter')}{' '}
          <select value={status} onChange={(event) => setFilter('status', event.target.value)}>
            <option value="all">{t('common.all')}</option>
            {LISTING_STATES.map((state) => (
              <option key={state} value={state}>
                {t(`common.listing_state_${state}`)}
              </option>
            ))}
          </select>
        </label>
        <form className="row" role="search" onSubmit={search}>
          <label>
            {t('listings.keyword')}{' '}
            <input type="search" value={draftKeyword} maxLength={200} onChange={(event) => setDraftKeyword(event.target.value)} />
          </label>
          <button type="submit">{t('common.search')}</button>
          {keyword ? (
            <button type="button" onClick={() => setFilter('keyword', '')}>
              {t('common.clear')}
            </button>
          ) : null}
        </form>
      </div>
      <QueryStatus query={tableQuery} isEmpty={result.data.length === 0} empty={t('listings.no_listings')} />
      {result.data.length > 0 ? (
        <DataTable
          columns={[
            t('listings.photo'),
            t('listings.title'),
            t('listings.listing_state'),
            t('listings.price'),
            t('listings.updated'),
            t('common.actions'),
          ]}
          caption={t('listings.my_listings')}
          className="listings-table"
        >
          {result.data.map((listing) => {
            const thumbnail = thumbnailOf(listing);
            return (
              <tr key={listing.id}>
                <td>
                  {thumbnail ? (
                    <img className="thumb listings-thumb" src={thumbnail} alt="" width={64} height={48} loading="lazy" />
                  ) : (
                    <span className="thumb listings-thumb listings-thumb-empty" aria-hidden="true" />
                  )}
                </td>
                <td>
                  <Link to={`/listings/${listing.id}/edit`}>{listing.title}</Link>
                  {listing.reference ? <div className="muted">{listing.reference}</div> : null}
                </td>
                <td>
                  <StateTag state={listing.status} />
                </td>
                <td>{formatListingPrice(listing, i18n.language, { minimumFractionDigits: 0, maximumFractionDigits: 2 }, t)}</td>
                <td>
                  <time dateTime={listing.updated_at}>{formatDateTime(listing.updated_at, i18n.language)}</time>
                </td>
                <td>
                  <Link to={`/listings/${listing.id}/edit`} aria-label={t('listings.edit_named', { title: listing.title })}>
                    {t('listings.edit')}
                  </Link>
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
