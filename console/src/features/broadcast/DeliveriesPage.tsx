import { type HttpError, useCustomMutation, useInvalidate, useTable } from '@refinedev/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, ErrorNotice, Forbidden, isForbidden, PageHeader, Pager, QueryStatus } from '../../components/ui';
import { type DeliveryRecord, type RetryAllAnswer, retryAllBody } from './broadcast';
import './broadcast.css';

const STATUSES = ['dead', 'pending', 'sent'] as const;
const CHANNELS = ['email', 'notification_email', 'notification_push', 'stripe_subscription'] as const;

/**
 * The outbox's messages for administrators (GET /notifications/deliveries, docs/api.md 8): the dead ones by
 * default, with why they failed; retry one (POST /notifications/deliveries/{id}/retry) or all of them, of the
 * channel shown (POST /notifications/deliveries/retry).
 */
export default function DeliveriesPage() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount, filters, setFilters } = useTable<DeliveryRecord, HttpError>({
    resource: 'broadcast-deliveries',
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { initial: [{ field: 'status', operator: 'eq', value: 'dead' }] },
    syncWithLocation: true,
  });
  const filterValue = (field: string) =>
    (filters.find((filter) => 'field' in filter && filter.field === field)?.value as string | undefined) ?? '';
  const status = filterValue('status') || 'dead';
  const channel = filterValue('channel');
  const setFilter = (field: string, value: string) =>
    setFilters(
      [
        { field: 'status', operator: 'eq', value: field === 'status' ? value : status },
        { field: 'channel', operator: 'eq', value: field === 'channel' ? value : channel },
      ],
      'replace',
    );

  const { mutateAsync: post } = useCustomMutation<DeliveryRecord>();
  const { mutateAsync: postAll } = useCustomMutation<RetryAllAnswer>();
  const invalidate = useInvalidate();
  const [busy, setBusy] = useState<number | 'all' | null>(null);
  const [outcome, setOutcome] = useState<{ text: string; error?: HttpError } | null>(null);

  if (isForbidden(tableQuery.error)) return <Forbidden />;

  const retryRequest = (deliveryId: number) =>
    post({
      url: `/notifications/deliveries/${deliveryId}/retry`,
      method: 'post',
      values: {},
      successNotification: false,
      errorNotification: false,
    });
  const refresh = () => invalidate({ resource: 'broadcast-deliveries', invalidates: ['list'] });

  const retryOne = async (delivery: DeliveryRecord) => {
    setBusy(delivery.id);
    try {
      await retryRequest(delivery.id);
      setOutcome({ text: t('broadcast.retried_one', { id: delivery.id }) });
    } catch (error) {
      setOutcome({ text: '', error: error as HttpError });
    } finally {
      setBusy(null);
      void refresh();
    }
  };

  const retryAll = async () => {
    setBusy('all');
    setOutcome(null);
    try {
      const answer = await postAll({
        url: '/notifications/deliveries/retry',
        method: 'post',
        values: retryAllBody(channel),
        successNotification: false,
        errorNotification: false,
      });
      const { retried } = answer.data;
      setOutcome({ text: t('broadcast.requeued', { count: retried, number: retried.toLocaleString(i18n.language) }) });
    } catch (error) {
      setOutcome({ text: '', error: error as HttpError });
    } finally {
      setBusy(null);
      void refresh();
    }
  };

  const date = (value: string | null) =>
    value ? new Date(value).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }) : '—';

  return (
    <section>
      <PageHeader title={t('broadcast.deliveries_title')}>
        <button
          type="button"
          className="primary"
          disabled={busy !== null || status !== 'dead' || result.data.length === 0}
          onClick={() => void retryAll()}
        >
          {busy === 'all' ? t('broadcast.retrying_all') : t('broadcast.retry_all')}
        </button>
      </PageHeader>
      <p className="muted">{t('broadcast.deliveries_intro')}</p>
      <div className="row broadcast-filters">
        <div className="field">
          <label htmlFor={`${id}-status`}>{t('broadcast.status')}</label>
          <select id={`${id}-status`} value={status} onChange={(event) => setFilter('status', event.target.value)}>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`broadcast.status_${value}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-channel`}>{t('broadcast.channel')}</label>
          <select id={`${id}-channel`} value={channel} onChange={(event) => setFilter('channel', event.target.value)}>
            <option value="">{t('common.all')}</option>
            {CHANNELS.map((value) => (
              <option key={value} value={value}>
                {t(`broadcast.channel_${value}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div role="status" className="broadcast-answer">
        {outcome && !outcome.error ? <p className="notice notice-ok">{outcome.text}</p> : null}
        {outcome?.error ? <ErrorNotice error={outcome.error} /> : null}
      </div>
      <QueryStatus query={tableQuery} />
      <DataTable
        columns={[
          t('broadcast.id'),
          t('broadcast.channel'),
          t('broadcast.status'),
          t('broadcast.attempts'),
          t('broadcast.last_error'),
          t('broadcast.created_at'),
          t('broadcast.available_at'),
          t('broadcast.sent_at'),
          t('common.actions'),
        ]}
        caption={t('broadcast.deliveries_title')}
      >
        {result.data.map((delivery) => (
          <tr key={delivery.id}>
            <th scope="row">{delivery.id}</th>
            <td>{t(`broadcast.channel_${delivery.channel}`, { defaultValue: delivery.channel })}</td>
            <td>
              <span className={`tag broadcast-status-${delivery.status}`}>{t(`broadcast.status_${delivery.status}`)}</span>
            </td>
            <td>{delivery.attempts.toLocaleString(i18n.language)}</td>
            <td className="broadcast-error" dir="auto">
              {delivery.last_error ?? '—'}
            </td>
            <td>{date(delivery.created_at)}</td>
            <td>{delivery.status === 'pending' ? date(delivery.available_at) : '—'}</td>
            <td>{date(delivery.sent_at)}</td>
            <td>
              {delivery.status === 'dead' ? (
                <button
                  type="button"
                  disabled={busy !== null}
                  onClick={() => void retryOne(delivery)}
                  aria-label={t('broadcast.retry_named', { id: delivery.id })}
                >
                  {t('broadcast.retry')}
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </DataTable>
      {!tableQuery.isLoading && result.data.length === 0 ? <p className="muted">{t('broadcast.no_deliveries')}</p> : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
