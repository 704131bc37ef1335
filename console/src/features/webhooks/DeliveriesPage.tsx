import { type HttpError, useCustom, useCustomMutation } from '@refinedev/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DataTable, ErrorNotice, Field, Forbidden, isForbidden, NotFound, PageHeader, Pager, QueryStatus } from '../../components/ui';
import { formatDateTime, formatNumber } from '../../format';
import { recordKey, type WebhookDelivery, type WebhookEndpoint } from './webhooks';
import './webhooks.css';

const PAGE_SIZE = 20;
const STATUSES = ['pending', 'delivered', 'failed'] as const;

/**
 * One endpoint's deliveries (GET /webhooks/{id}/deliveries, newest first): each event's status, attempts and the
 * receiver's last answer; a pending or failed one can be retried now, and every event since a change-log
 * number sent again (replay).
 */
export default function DeliveriesPage() {
  const { t, i18n } = useTranslation();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const endpoint = useCustom<WebhookEndpoint>({ url: `/webhooks/${id}`, method: 'get', queryOptions: { enabled: valid, retry: false } });
  const deliveries = useCustom<{ deliveries: WebhookDelivery[]; pagination: { total_pages: number; total_records: number } }>({
    url: `/webhooks/${id}/deliveries`,
    method: 'get',
    config: { query: { page, per_page: PAGE_SIZE, ...(status ? { status } : {}) } },
    queryOptions: { enabled: valid, retry: false },
  });
  const { mutate, mutation } = useCustomMutation();
  const [outcome, setOutcome] = useState<{ text: string; error?: HttpError } | null>(null);
  const [fromSequence, setFromSequence] = useState('');

  if (!valid || (endpoint.query.error as HttpError | null)?.statusCode === 404) return <NotFound />;
  if (isForbidden(endpoint.query.error)) return <Forbidden />;

  const post = (url: string, values: object, text: (data: Record<string, unknown>) => string) => {
    setOutcome(null);
    mutate(
      { url, method: 'post', values, successNotification: false, errorNotification: false },
      {
        onSuccess: (answer) => {
          setOutcome({ text: text(answer.data as Record<string, unknown>) });
          void deliveries.query.refetch();
        },
        onError: (error) => setOutcome({ text: '', error }),
      },
    );
  };
  const replay = (event: FormEvent) => {
    event.preventDefault();
    post(`/webhooks/${id}/replay`, { from_sequence: Number(fromSequence) }, (data) =>
      t('webhooks.replayed', { n: formatNumber(Number(data.queued), i18n.language) }),
    );
  };
  const rows = deliveries.result?.data?.deliveries ?? [];
  const pagination = deliveries.result?.data?.pagination;
  const date = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '—');

  return (
    <section>
      <p>
        <Link to="/webhooks">{t('webhooks.back')}</Link>
      </p>
      <PageHeader title={t('webhooks.deliveries_of', { url: endpoint.result?.data?.url ?? `#${id}` })} />
      <div role="status">
        {outcome && !outcome.error ? <p className="notice notice-ok">{outcome.text}</p> : null}
        {outcome?.error ? <ErrorNotice error={outcome.error} /> : null}
      </div>
      <form className="card row webhooks-replay" onSubmit={replay} aria-labelledby="webhooks-replay-heading">
        <h2 id="webhooks-replay-heading">{t('webhooks.replay')}</h2>
        <Field label={t('webhooks.from_sequence')} hint={t('webhooks.from_sequence_hint')}>
          {(props) => (
            <input
              {...props}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              required
              value={fromSequence}
              onChange={(e) => setFromSequence(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={mutation.isPending || fromSequence === ''}>
          {t('webhooks.replay_button')}
        </button>
      </form>
      <Field label={t('webhooks.status_filter')}>
        {(props) => (
          <select
            {...props}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(1);
            }}
          >
            <option value="">{t('common.all')}</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`webhooks.delivery_${value}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <QueryStatus query={deliveries.query} />
      {rows.length === 0 && deliveries.query.isSuccess ? <p className="muted">{t('webhooks.no_deliveries')}</p> : null}
      {rows.length > 0 ? (
        <DataTable
          columns={[
            t('webhooks.event'),
            t('webhooks.sequence'),
            t('webhooks.record'),
            t('webhooks.state'),
            t('webhooks.attempts'),
            t('webhooks.answer'),
            t('webhooks.when'),
            t('common.actions'),
          ]}
          caption={t('webhooks.deliveries')}
        >
          {rows.map((delivery) => (
            <tr key={delivery.id}>
              <th scope="row">
                <code>{delivery.event.type}</code>
              </th>
              <td>{formatNumber(delivery.event.sequence, i18n.language)}</td>
              <td>{t(recordKey(delivery.record), { id: delivery.record.id })}</td>
              <td>
                <span className={delivery.status === 'failed' ? 'tag webhooks-off' : 'tag'}>
                  {t(`webhooks.delivery_${delivery.status}`)}
                </span>
              </td>
              <td>{formatNumber(delivery.attempts, i18n.language)}</td>
              <td>
                {delivery.response_status ?? '—'}
                {delivery.latency_ms !== null ? ` · ${t('webhooks.ms', { ms: formatNumber(delivery.latency_ms, i18n.language) })}` : ''}
                {delivery.error ? (
                  <div className="muted" dir="ltr">
                    {delivery.error}
                  </div>
                ) : null}
              </td>
              <td>
                {delivery.status === 'pending' ? date(delivery.next_attempt_at) : date(delivery.finished_at ?? delivery.last_attempt_at)}
              </td>
              <td>
                {delivery.status === 'delivered' ? null : (
                  <button
                    type="button"
                    disabled={mutation.isPending}
                    onClick={() => post(`/webhooks/${id}/deliveries/${delivery.id}/retry`, {}, () => t('webhooks.retried'))}
                  >
                    {t('webhooks.retry')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      {pagination && pagination.total_pages > 1 ? (
        <Pager currentPage={page} pageCount={pagination.total_pages} onPage={setPage} total={pagination.total_records} />
      ) : null}
    </section>
  );
}
