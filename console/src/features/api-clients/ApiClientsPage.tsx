import { useCustom } from '@refinedev/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../components/ConfirmButton';
import { OutcomeNotice, useOneShotActions } from '../../components/one-shot-actions';
import { DataTable, Field, Forbidden, isForbidden, PageHeader, QueryStatus } from '../../components/ui';
import { formatDateTime } from '../../format';
import { addressesOf, type ApiClient, SCOPES, scopeKey } from './api-clients';
import './api-clients.css';

/**
 * Machine clients (docs/machine-clients.md) for administrators: make one with its scopes, addresses and budget
 * (its secret is shown once), give it a new secret, revoke it, delete it.
 */
export default function ApiClientsPage() {
  const { t, i18n } = useTranslation();
  const list = useCustom<{ api_clients: ApiClient[]; total_api_clients: number }>({ url: '/api-clients', method: 'get' });
  const { outcome, call, pending } = useOneShotActions(() => void list.query.refetch());
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [scopes, setScopes] = useState<string[]>(['listings:read']);
  const [addresses, setAddresses] = useState('');
  const [rateLimit, setRateLimit] = useState('');

  if (isForbidden(list.query.error)) return <Forbidden />;
  const clients = list.result?.data?.api_clients ?? [];
  const when = (value: string) => formatDateTime(value, i18n.language);

  const create = (event: FormEvent) => {
    event.preventDefault();
    const values = {
      name,
      description,
      scopes,
      allowed_addresses: addressesOf(addresses),
      ...(rateLimit.trim() === '' ? {} : { rate_limit_per_minute: Number(rateLimit) }),
    };
    call({ url: '/api-clients', method: 'post', values }, (data) => {
      setName('');
      setDescription('');
      setAddresses('');
      setRateLimit('');
      return {
        text: t('api-clients.created', { name: String(data.name) }),
        shownOnce: shownOnce(String(data.client_id), String(data.secret)),
      };
    });
  };
  const shownOnce = (clientId: string, secret: string) => [
    { label: t('api-clients.client_id'), value: clientId },
    { label: t('api-clients.secret_once'), value: secret, secret: true },
  ];
  const rotate = (client: ApiClient) =>
    call({ url: `/api-clients/${client.id}/rotate-secret`, method: 'post' }, (data) => ({
      text: t('api-clients.rotated', { name: client.name, until: when(String(data.previous_secret_expires_at)) }),
      shownOnce: shownOnce(client.client_id, String(data.secret)),
    }));
  const revoke = (client: ApiClient) =>
    call({ url: `/api-clients/${client.id}/revoke`, method: 'post' }, () => ({
      text: t('api-clients.revoked_done', { name: client.name }),
    }));
  const remove = (client: ApiClient) =>
    call({ url: `/api-clients/${client.id}`, method: 'delete' }, () => ({ text: t('api-clients.deleted', { name: client.name }) }));

  return (
    <section>
      <PageHeader title={t('api-clients.title')} />
      <p className="muted">{t('api-clients.intro')}</p>
      <OutcomeNotice outcome={outcome} />

      <form className="card stack api-clients-new" onSubmit={create} aria-labelledby="api-clients-new-heading">
        <h2 id="api-clients-new-heading">{t('api-clients.new')}</h2>
        <Field label={t('api-clients.name')}>
          {(props) => <input {...props} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label={t('api-clients.description')}>
          {(props) => <input {...props} maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <fieldset className="api-clients-scopes">
          <legend>{t('api-clients.scopes')}</legend>
          {SCOPES.map((scope) => (
            <label key={scope}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) =>
                  setScopes((current) => (e.target.checked ? [...current, scope] : current.filter((other) => other !== scope)))
                }
              />
              <span>
                <code dir="ltr">{scope}</code> {t(scopeKey(scope))}
              </span>
            </label>
          ))}
        </fieldset>
        <Field label={t('api-clients.addresses')} hint={t('api-clients.addresses_hint')}>
          {(props) => <textarea {...props} rows={2} dir="ltr" value={addresses} onChange={(e) => setAddresses(e.target.value)} />}
        </Field>
        <Field label={t('api-clients.rate_limit')} hint={t('api-clients.rate_limit_hint')}>
          {(props) => (
            <input
              {...props}
              type="number"
              inputMode="numeric"
              min={1}
              max={100000}
              value={rateLimit}
              onChange={(e) => setRateLimit(e.target.value)}
            />
          )}
        </Field>
        <div>
          <button type="submit" className="primary" disabled={pending || scopes.length === 0}>
            {t('api-clients.add')}
          </button>
        </div>
      </form>

      <QueryStatus query={list.query} />
      {clients.length === 0 && list.query.isSuccess ? <p className="muted">{t('api-clients.none')}</p> : null}
      {clients.length > 0 ? (
        <DataTable
          columns={[t('api-clients.name'), t('api-clients.scopes'), t('api-clients.state'), t('api-clients.secrets'), t('common.actions')]}
          caption={t('api-clients.clients')}
        >
          {clients.map((client) => (
            <tr key={client.id}>
              <th scope="row">
                <span dir="auto">{client.name}</span>
                <div className="muted">
                  <code dir="ltr">{client.client_id}</code>
                </div>
                {client.description ? (
                  <div className="muted" dir="auto">
                    {client.description}
                  </div>
                ) : null}
              </th>
              <td>
                <span dir="ltr">{client.scopes.join(', ')}</span>
                {client.allowed_addresses ? (
                  <div className="muted">{t('api-clients.from', { addresses: client.allowed_addresses.join(', ') })}</div>
                ) : null}
                <div className="muted">{t('api-clients.per_minute', { n: client.rate_limit_per_minute })}</div>
              </td>
              <td>
                {client.revoked_at ? (
                  <span className="tag api-clients-revoked">{t('api-clients.revoked', { when: when(client.revoked_at) })}</span>
                ) : (
                  <span className="tag">{t('api-clients.active')}</span>
                )}
                <div className="muted">
                  {client.last_used_at ? t('api-clients.last_used', { when: when(client.last_used_at) }) : t('api-clients.never_used')}
                </div>
              </td>
              <td>
                {client.secrets.map((secret) => (
                  <div key={secret.hint}>
                    <code dir="ltr">{secret.hint}</code>{' '}
                    {secret.expires_at ? (
                      <span className="muted">{t('api-clients.secret_until', { when: when(secret.expires_at) })}</span>
                    ) : null}
                  </div>
                ))}
              </td>
              <td>
                <div className="row api-clients-actions">
                  {client.revoked_at ? null : (
                    <>
                      <ConfirmButton
                        label={t('api-clients.rotate')}
                        question={t('api-clients.confirm_rotate', { name: client.name })}
                        confirmLabel={t('api-clients.rotate')}
                        onConfirm={() => rotate(client)}
                        busy={pending}
                      />
                      <ConfirmButton
                        label={t('api-clients.revoke')}
                        ariaLabel={t('api-clients.revoke_named', { name: client.name })}
                        question={t('api-clients.confirm_revoke', { name: client.name })}
                        confirmLabel={t('api-clients.revoke')}
                        onConfirm={() => revoke(client)}
                        busy={pending}
                      />
                    </>
                  )}
                  <ConfirmButton
                    label={t('common.delete')}
                    ariaLabel={t('api-clients.delete_named', { name: client.name })}
                    question={t('api-clients.confirm_delete', { name: client.name })}
                    confirmLabel={t('common.delete')}
                    onConfirm={() => remove(client)}
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
