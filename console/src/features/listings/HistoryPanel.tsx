import { useCustom } from '@refinedev/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice, Loading } from '../../components/ui';
import { StateTag } from './StateTag';
import type { HistoryEntry } from './types';

/** The listing's state moves, oldest first (GET /properties/{id}/history); `from: null` is its creation. */
export function HistoryPanel({ id, version }: { id: number; version: string }) {
  const { t, i18n } = useTranslation();
  const { query } = useCustom<{ history: HistoryEntry[] }>({ url: `/properties/${id}/history`, method: 'get', errorNotification: false });
  // A move changes the state: read the history again.
  useEffect(() => {
    void query.refetch();
  }, [version]);
  const history = query.data?.data?.history ?? [];
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className="card listings-history" aria-labelledby="listings-history-heading">
      <h2 id="listings-history-heading">{t('listings.history')}</h2>
      <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      {query.isLoading ? <Loading /> : null}
      {history.length > 0 ? (
        <table className="data">
          <thead>
            <tr>
              <th scope="col">{t('listings.when')}</th>
              <th scope="col">{t('listings.from_state')}</th>
              <th scope="col">{t('listings.to_state')}</th>
              <th scope="col">{t('listings.by')}</th>
              <th scope="col">{t('listings.reason')}</th>
            </tr>
          </thead>
          <tbody>
            {history.map((entry, index) => (
              <tr key={`${entry.at}-${index}`}>
                <td>
                  <time dateTime={entry.at}>{date.format(new Date(entry.at))}</time>
                </td>
                <td>{entry.from ? <StateTag state={entry.from} /> : t('listings.created')}</td>
                <td>
                  <StateTag state={entry.to} />
                </td>
                <td>{entry.actor?.display_name ?? t('listings.deleted_user')}</td>
                <td>{entry.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
