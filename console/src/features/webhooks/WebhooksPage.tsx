import { useCustom } from '@refinedev/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmButton } from '../../components/ConfirmButton';
import { OutcomeNotice, useOneShotActions } from '../../components/one-shot-actions';
import { DataTable, Field, Forbidden, isForbidden, PageHeader, QueryStatus } from '../../components/ui';
import { EVENT_TYPES, eventKeys, LISTING_EVENT_TYPES, pauseKey, stateKey, type WebhookEndpoint, type WebhookSettings } from './webhooks';
import './webhooks.css';

/**
 * The outbound webhooks (docs/webhooks.md) for administrators: add an endpoint (its signing secret is shown once),
 * send a test, turn it off and on, rotate its secret, delete it, and open its deliveries.
 */
export default function WebhooksPage() {
  const { t } = useTranslation();
  const list = useCustom<{ webhooks: WebhookEndpoint[]; total_webhooks: number }>({ url: '/webhooks', method: 'get' });
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([...LISTING_EVENT_TYPES]);
  const settings = useCustom<WebhookSettings>({ url: '/webhooks/settings', method: 'get' });
  const { outcome, call, pending } = useOneShotActions(() => {
    void list.query.refetch();
    void settings.query.refetch();
  });

  if (isForbidden(list.query.error)) return <Forbidden />;
  const endpoints = list.result?.data?.webhooks ?? [];

  const create = (event: FormEvent) => {
    event.preventDefault();
    call({ url: '/webhooks', method: 'post', values: { url: url.trim(), events, description } }, (data) => {
      setUrl('');
      setDescription('');
      return {
        text: t('webhooks.created', { url: String(data.url) }),
        shownOnce: [{ label: t('webhooks.secret_once'), value: String(data.secret), secret: true }],
      };
    });
  };
  const test = (endpoint: WebhookEndpoint) =>
    call({ url: `/webhooks/${endpoint.id}/test`, method: 'post' }, (data) => ({
      text: data.delivered
        ? t('webhooks.test_delivered', { status: String(data.response_status), ms: String(data.latency_ms) })
        : t('webhooks.test_failed', { reason: String(data.error ?? data.response_status ?? '') }),
    }));
  const toggle = (endpoint: WebhookEndpoint) =>
    call({ url: `/webhooks/${endpoint.id}`, method: 'patch', values: { enabled: !endpoint.enabled } }, () => ({
      text: t(endpoint.enabled ? 'webhooks.disabled_done' : 'webhooks.enabled_done', { url: endpoint.url }),
    }));
  const rotate = (endpoint: WebhookEndpoint) =>
    call({ url: `/webhooks/${endpoint.id}/rotate-secret`, method: 'post' }, (data) => ({
      text: t('webhooks.rotated', { url: endpoint.url }),
      shownOnce: [{ label: t('webhooks.secret_once'), value: String(data.secret), secret: true }],
    }));
  const sending = settings.result?.data;
  const flipPause = (paused: boolean) =>
    call({ url: '/webhooks/settings', method: 'put', values: { deliveries_paused: paused } }, () => ({
      text: t(paused ? 'webhooks.paused_done' : 'webhooks.resumed_done'),
    }));
  const remove = (endpoint: WebhookEndpoint) =>
    call({ url: `/webhooks/${endpoint.id}`, method: 'delete' }, () => ({ text: t('webhooks.deleted', { url: endpoint.url }) }));

  return (
    <section>
      <PageHeader title={t('webhooks.title')} />
      <p className="muted">{t('webhooks.intro')}</p>
      <OutcomeNotice outcome={outcome} />

      {sending ? (
        <section className="card stack webhooks-sending" aria-labelledby="webhooks-sending-heading">
          <h2 id="webhooks-sending-heading">{t('webhooks.pause_heading')}</h2>
          <p>
            <span className={sending.deliveries_paused ? 'tag webhooks-off' : 'tag'}>{t(pauseKey(sending))}</span>
          </p>
          <div>
            <button type="button" disabled={pending} onClick={() => flipPause(!sending.paused_by_switch)}>
              {t(sending.paused_by_switch ? 'webhooks.resume' : 'webhooks.pause')}
            </button>
          </div>
        </section>
      ) : null}

      <form className="card stack webhooks-new" onSubmit={create} aria-labelledby="webhooks-new-heading">
        <h2 id="webhooks-new-heading">{t('webhooks.new')}</h2>
        <Field label={t('webhooks.url')} hint={t('webhooks.url_hint')}>
          {(props) => (
            <input
              {...props}
              type="url"
              inputMode="url"
              required
              maxLength={2000}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              dir="ltr"
            />
          )}
        </Field>
        <Field label={t('webhooks.description')}>
          {(props) => <input {...props} maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <fieldset className="webhooks-events">
          <legend>{t('webhooks.events')}</legend>
          {EVENT_TYPES.map((type) => (
            <label key={type}>
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) =>
                  setEvents((current) => (e.target.checked ? [...current, type] : current.filter((other) => other !== type)))
                }
              />
              <span>{t(eventKeys([type])[0]!)}</span>
            </label>
          ))}
        </fieldset>
        <div>
          <button type="submit" className="primary" disabled={pending || events.length === 0}>
            {t('webhooks.add')}
          </button>
        </div>
      </form>

      <QueryStatus query={list.query} />
      {endpoints.length === 0 && list.query.isSuccess ? <p className="muted">{t('webhooks.none')}</p> : null}
      {endpoints.length > 0 ? (
        <DataTable
          columns={[t('webhooks.url'), t('webhooks.events'), t('webhooks.state'), t('common.actions')]}
          caption={t('webhooks.endpoints')}
        >
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id}>
              <th scope="row">
                <Link to={`/webhooks/${endpoint.id}`} dir="ltr">
                  {endpoint.url}
                </Link>
                {endpoint.description ? (
                  <div className="muted" dir="auto">
                    {endpoint.description}
                  </div>
                ) : null}
              </th>
              <td>
                {eventKeys(endpoint.events)
                  .map((key) => t(key))
                  .join(', ')}
              </td>
              <td>
                <span className={endpoint.enabled ? 'tag' : 'tag webhooks-off'}>{t(stateKey(endpoint))}</span>
              </td>
              <td>
                <div className="row webhooks-actions">
                  <button type="button" disabled={pending} onClick={() => test(endpoint)}>
                    {t('webhooks.test')}
                  </button>
                  <button type="button" disabled={pending} onClick={() => toggle(endpoint)}>
                    {t(endpoint.enabled ? 'webhooks.disable' : 'webhooks.enable')}
                  </button>
                  <ConfirmButton
                    label={t('webhooks.rotate')}
                    question={t('webhooks.confirm_rotate', { url: endpoint.url })}
                    confirmLabel={t('webhooks.rotate')}
                    onConfirm={() => rotate(endpoint)}
                    busy={pending}
                  />
                  <ConfirmButton
                    label={t('common.delete')}
                    ariaLabel={t('webhooks.delete_named', { url: endpoint.url })}
                    question={t('webhooks.confirm_delete', { url: endpoint.url })}
                    confirmLabel={t('common.delete')}
                    onConfirm={() => remove(endpoint)}
                    busy={pending}
                  />
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
