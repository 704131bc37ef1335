import { useTable } from '@refinedev/core';
import { formatDateTime, formatListingPrice } from '../../format';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorNotice, Forbidden, isForbidden, Loading, PageHeader, Pager } from '../../components/ui';
import { DisapproveDialog, ReportRegions, type Target, useModeration } from './actions';
import { keepVisible, pageSelectionState, togglePage } from './bulk';
import { QUEUE_PAGE_SIZE, QUEUE_QUERY, QUEUE_RESOURCE, type QueueListing, thumbnailOf } from './queue';
import { SubmissionRule } from './SubmissionRule';
import './moderation.css';

/** Listings awaiting approval, newest first: approve or disapprove one, or several at once. */
export default function ModerationPage() {
  const { t, i18n } = useTranslation();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount } = useTable<QueueListing>({
    resource: QUEUE_RESOURCE,
    pagination: { pageSize: QUEUE_PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
    meta: { query: QUEUE_QUERY },
    syncWithLocation: true,
    queryOptions: { retry: false },
  });
  const { run, busy, report } = useModeration();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [disapproving, setDisapproving] = useState<Target[] | null>(null);
  const selectAll = useRef<HTMLInputElement>(null);
  const captionId = useId();

  const rows = result.data;
  const visible = useMemo(() => rows.map((row) => row.id), [rows]);
  const pageState = pageSelectionState(selected, visible);
  const targets = rows.filter((row) => selected.has(row.id)).map((row): Target => ({ id: row.id, title: row.title }));

  // Rows that left the page (approved, or another page shown) leave the selection.
  const visibleKey = visible.join(',');
  useEffect(() => setSelected((current) => keepVisible(current, visibleKey === '' ? [] : visibleKey.split(',').map(Number))), [visibleKey]);
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = pageState === 'some';
  }, [pageState]);

  if (isForbidden(tableQuery.error)) return <Forbidden />;

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const approve = (list: Target[]) => void run('approve', list);
  const disapprove = (reason: string) => {
    const list = disapproving ?? [];
    void run('disapprove', list, reason).then(() => setDisapproving(null));
  };

  return (
    <section>
      <PageHeader title={t('moderation.title')} />
      <p className="muted">{t('moderation.intro')}</p>
      <SubmissionRule />
      <ReportRegions report={report} />
      <ErrorNotice error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />

      <div className="row moderation-bulk" role="group" aria-label={t('moderation.bulk_actions')}>
        <span>{t('moderation.selected', { n: targets.length })}</span>
        <button type="button" className="primary" disabled={busy || targets.length === 0} onClick={() => approve(targets)}>
          {t('moderation.approve_selected')}
        </button>
        <button type="button" className="danger" disabled={busy || targets.length === 0} onClick={() => setDisapproving(targets)}>
          {t('moderation.disapprove_selected')}
        </button>
        {busy ? <span className="muted">{t('moderation.working')}</span> : null}
      </div>

      {tableQuery.isLoading ? <Loading /> : null}
      {!tableQuery.isLoading && !tableQuery.error && rows.length === 0 ? <p>{t('moderation.empty')}</p> : null}
      {rows.length > 0 ? (
        <table className="data moderation-table" aria-labelledby={captionId}>
          <caption id={captionId} className="visually-hidden">
            {t('moderation.table_caption')}
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <input
                  ref={selectAll}
                  type="checkbox"
                  aria-label={t('moderation.select_page')}
                  checked={pageState === 'all'}
                  onChange={() => setSelected((current) => togglePage(current, visible))}
                />
              </th>
              <th scope="col">{t('moderation.photo')}</th>
              <th scope="col">{t('moderation.listing')}</th>
              <th scope="col">{t('moderation.author')}</th>
              <th scope="col">{t('moderation.submitted')}</th>
              <th scope="col">{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((listing) => {
              const thumbnail = thumbnailOf(listing);
              const titleId = `${captionId}-title-${listing.id}`;
              const target = { id: listing.id, title: listing.title };
              return (
                <tr key={listing.id} className={selected.has(listing.id) ? 'moderation-selected' : undefined}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t('moderation.select_one', { title: listing.title })}
                      checked={selected.has(listing.id)}
                      onChange={() => toggle(listing.id)}
                    />
                  </td>
                  <td>
                    {thumbnail ? (
                      <img className="thumb moderation-thumb" src={thumbnail} alt="" width={64} height={64} loading="lazy" />
                    ) : (
                      <span className="thumb moderation-thumb moderation-no-photo">{t('moderation.no_photo')}</span>
                    )}
                  </td>
                  <td>
                    <Link id={titleId} to={`/moderation/${listing.id}`} className="moderation-title">
                      {listing.title}
                    </Link>
                    {listing.price != null && listing.currency ? (
                      <div className="muted">
                        <bdi>
                          {formatListingPrice(
                            { ...listing, price: listing.price, currency: listing.currency },
                            i18n.language,
                            { maximumFractionDigits: 0 },
                            t,
                          )}
                        </bdi>
                      </div>
                    ) : null}
                  </td>
                  <td>{listing.author?.display_name || t('moderation.no_author')}</td>
                  <td>
                    <time dateTime={listing.created_at}>{formatDateTime(listing.created_at, i18n.language)}</time>
                  </td>
                  <td>
                    <div className="row moderation-actions">
                      <button
                        type="button"
                        className="primary"
                        aria-describedby={titleId}
                        disabled={busy}
                        onClick={() => approve([target])}
                      >
                        {t('moderation.approve')}
                      </button>
                      <button
                        type="button"
                        className="danger"
                        aria-describedby={titleId}
                        disabled={busy}
                        onClick={() => setDisapproving([target])}
                      >
                        {t('moderation.disapprove')}
                      </button>
                      <Link to={`/moderation/${listing.id}`} aria-describedby={titleId}>
                        {t('moderation.view')}
                      </Link>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
      <DisapproveDialog targets={disapproving} busy={busy} onCancel={() => setDisapproving(null)} onSubmit={disapprove} />
    </section>
  );
}
