import { type HttpError, useDelete, useTable } from '@refinedev/core';
import type { Schemas } from '@realty-api/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable, ErrorNotice, Forbidden, isForbidden, PageHeader, Pager, QueryStatus } from '../../components/ui';
import { formatDateTime } from '../../format';

/** A redirect as GET /redirects gives it. */
export type RedirectRecord = Schemas['Redirect'];

/**
 * The old addresses imports kept (GET /redirects, newest first): each path, the record it names and where it
 * answers 301 to; removing one (DELETE /redirects/{id}) makes the path a 404 again.
 */
export default function RedirectsPage() {
  const { t, i18n } = useTranslation();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount } = useTable<RedirectRecord, HttpError>({
    resource: 'redirects',
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    syncWithLocation: true,
  });
  const { mutate: remove } = useDelete<{ id: number; deleted: boolean }, HttpError>();
  const [outcome, setOutcome] = useState<{ text: string; error?: HttpError } | null>(null);

  if (isForbidden(tableQuery.error)) return <Forbidden />;

  const removeRedirect = (redirect: RedirectRecord) =>
    remove(
      { resource: 'redirects', id: redirect.id, successNotification: false, errorNotification: false },
      {
        onSuccess: () => setOutcome({ text: t('redirects.removed', { path: redirect.path }) }),
        onError: (error) => setOutcome({ text: '', error }),
      },
    );

  return (
    <section>
      <PageHeader title={t('redirects.title')} />
      <p className="muted">{t('redirects.intro')}</p>
      <div role="status">
        {outcome && !outcome.error ? <p className="notice notice-ok">{outcome.text}</p> : null}
        {outcome?.error ? <ErrorNotice error={outcome.error} /> : null}
      </div>
      <QueryStatus query={tableQuery} />
      <DataTable
        columns={[t('redirects.path'), t('redirects.record'), t('redirects.target'), t('redirects.created_at'), t('common.actions')]}
        caption={t('redirects.title')}
      >
        {result.data.map((redirect) => (
          <tr key={redirect.id}>
            <th scope="row" dir="auto">
              <code>{redirect.path}</code>
            </th>
            <td>{t(`redirects.type_${redirect.type}`, { id: redirect.record_id })}</td>
            <td dir="ltr">
              <a href={redirect.url}>{redirect.url}</a>
              {redirect.public ? null : <span className="tag"> {t('redirects.not_public')}</span>}
            </td>
            <td>{formatDateTime(redirect.created_at, i18n.language)}</td>
            <td>
              <ConfirmButton
                label={t('redirects.remove')}
                ariaLabel={t('redirects.remove_named', { path: redirect.path })}
                question={t('redirects.confirm_remove', { path: redirect.path })}
                confirmLabel={t('redirects.remove')}
                onConfirm={() => removeRedirect(redirect)}
                stacked
              />
            </td>
          </tr>
        ))}
      </DataTable>
      {!tableQuery.isLoading && result.data.length === 0 ? <p className="muted">{t('redirects.none')}</p> : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
