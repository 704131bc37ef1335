import { type HttpError, useTable } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, Forbidden, isForbidden, PageHeader, Pager, QueryStatus } from '../../components/ui';
import { IMPORTS_RESOURCE, type ImportRunRecord, inputOf } from './imports';
import './imports.css';
import { formatDateTime } from '../../format';

/** The import runs, newest first (GET /imports): state, what was read, and the counts, warnings included. */
export default function ImportsPage() {
  const { t, i18n } = useTranslation();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount } = useTable<ImportRunRecord, HttpError>({
    resource: IMPORTS_RESOURCE,
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    syncWithLocation: true,
    queryOptions: { retry: false },
  });
  if (isForbidden(tableQuery.error)) return <Forbidden />;
  const number = (value: number) => value.toLocaleString(i18n.language);
  const date = (value: string) => formatDateTime(value, i18n.language);

  return (
    <section>
      <PageHeader title={t('imports.title')} />
      <p className="muted">{t('imports.intro')}</p>
      <QueryStatus query={tableQuery} isEmpty={result.data.length === 0} empty={t('imports.none')} />
      {result.data.length > 0 ? (
        <DataTable
          columns={[
            t('imports.run'),
            t('imports.state'),
            t('imports.format'),
            t('imports.input'),
            t('imports.created'),
            t('imports.updated'),
            t('imports.unchanged'),
            t('imports.rejected'),
            t('imports.warnings'),
            t('imports.queued_at'),
          ]}
          caption={t('imports.title')}
        >
          {result.data.map((run) => (
            <tr key={run.id}>
              <th scope="row">
                <Link to={`/imports/${run.id}`}>{t('imports.run_number', { id: run.id })}</Link>
              </th>
              <td>
                <span className={`tag imports-state-${run.state}`}>{t(`imports.state_${run.state}`)}</span>
                {run.dry_run ? <span className="tag">{t('imports.dry_run')}</span> : null}
                {run.strict ? <span className="tag">{t('imports.strict')}</span> : null}
              </td>
              <td>{run.format}</td>
              <td dir="auto">
                {run.source} — {inputOf(run)}
              </td>
              <td>{number(run.counts.created)}</td>
              <td>{number(run.counts.updated)}</td>
              <td>{number(run.counts.unchanged)}</td>
              <td>{number(run.counts.rejected)}</td>
              <td>{number(run.counts.warnings)}</td>
              <td>{date(run.created_at)}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
