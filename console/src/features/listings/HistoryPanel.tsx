import type { AnswerData } from '@realty-api/client';
import { useCustom } from '@refinedev/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, QueryStatus } from '../../components/ui';
import { StateTag } from './StateTag';
import { formatDateTime } from '../../format';

/** The listing's state moves, oldest first (GET /properties/{id}/history); `from: null` is its creation. */
export function HistoryPanel({ id, version }: { id: number; version: string }) {
  const { t, i18n } = useTranslation();
  const { query } = useCustom<AnswerData<'/realty-api/v1/properties/{id}/history', 'get'>>({
    url: `/properties/${id}/history`,
    method: 'get',
    errorNotification: false,
  });
  // A move changes the state: read the history again.
  useEffect(() => {
    void query.refetch();
  }, [version]);
  const history = query.data?.data?.history ?? [];
  return (
    <section className="card listings-history" aria-labelledby="listings-history-heading">
      <h2 id="listings-history-heading">{t('listings.history')}</h2>
      <QueryStatus query={query} />
      {history.length > 0 ? (
        <DataTable
          columns={[t('listings.when'), t('listings.from_state'), t('listings.to_state'), t('listings.by'), t('listings.reason')]}
          caption={t('listings.history')}
        >
          {history.map((entry, index) => (
            <tr key={`${entry.at}-${index}`}>
              <td>
                <time dateTime={entry.at}>{formatDateTime(entry.at, i18n.language)}</time>
              </td>
              <td>{entry.from ? <StateTag state={entry.from} /> : t('listings.created')}</td>
              <td>
                <StateTag state={entry.to} />
              </td>
              <td>{entry.actor?.display_name ?? t('listings.deleted_user')}</td>
              <td>{entry.reason}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
