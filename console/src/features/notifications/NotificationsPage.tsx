import { useCustomMutation, useDelete, useTable } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { PageHeader, Pager, QueryStatus } from '../../components/ui';
import { type NotificationRecord, useLiveNotifications } from './live';
import { formatDateTime } from '../../format';

/** The caller's notifications, newest first: filter by read state, mark one or all read, delete. */
export function NotificationsPage() {
  const { t, i18n } = useTranslation();
  const { refresh } = useLiveNotifications();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount, filters, setFilters } = useTable<NotificationRecord>({
    resource: 'notifications',
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { initial: [{ field: 'status', operator: 'eq', value: 'all' }] },
    syncWithLocation: true,
  });
  const { mutate: post } = useCustomMutation();
  const { mutate: remove } = useDelete();
  const status = (filters.find((filter) => 'field' in filter && filter.field === 'status')?.value as string | undefined) ?? 'all';
  const after = { onSuccess: () => refresh() };
  const markRead = (id?: number) =>
    post(
      {
        url: id === undefined ? '/notifications/mark-all-read' : `/notifications/${id}/read`,
        method: 'post',
        values: {},
        successNotification: false,
      },
      {
        onSuccess: () => {
          refresh();
          void tableQuery.refetch();
        },
      },
    );

  return (
    <section>
      <PageHeader title={t('notifications.title')}>
        <label>
          {t('notifications.show')}{' '}
          <select
            value={status}
            onChange={(event) => setFilters([{ field: 'status', operator: 'eq', value: event.target.value }], 'replace')}
          >
            <option value="all">{t('common.all')}</option>
            <option value="unread">{t('notifications.unread')}</option>
            <option value="read">{t('notifications.read')}</option>
          </select>
        </label>
        <button type="button" onClick={() => markRead()}>
          {t('notifications.mark_all_read')}
        </button>
      </PageHeader>
      <QueryStatus query={tableQuery} isEmpty={result.data.length === 0} empty={t('common.nothing_here')} />
      <ul className="card-list">
        {result.data.map((notification) => (
          <li key={notification.id} className={notification.is_read ? 'card' : 'card card-unread'}>
            <div className="card-head">
              <strong>{notification.title}</strong>
              {!notification.is_read ? <span className="tag">{t('notifications.new_badge')}</span> : null}
              <time className="muted" dateTime={notification.created_at}>
                {formatDateTime(notification.created_at, i18n.language)}
              </time>
            </div>
            <p>{notification.message}</p>
            <div className="row">
              {!notification.is_read ? (
                <button type="button" onClick={() => markRead(notification.id)}>
                  {t('notifications.mark_read')}
                </button>
              ) : null}
              <button
                type="button"
                className="danger"
                onClick={() => remove({ resource: 'notifications', id: notification.id, successNotification: false }, after)}
              >
                {t('common.delete')}
              </button>
            </div>
          </li>
        ))}
      </ul>
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
