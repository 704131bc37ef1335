import { type HttpError, useOne } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DataTable, Forbidden, isForbidden, NotFound, PageHeader, QueryStatus } from '../../components/ui';
import { COUNT_NAMES, errorsLine, IMPORTS_RESOURCE, type ImportRunDetailRecord, inputOf, isUnderWay } from './imports';
import './imports.css';
import { formatDateTime } from '../../format';

/** How often a run under way is read again, for its counts and report as the job writes them (about every second). */
const REFRESH_MS = 3000;

/**
 * One import run (GET /imports/{id}): its state and counts, the records it rejected and why, and the warnings:
 * values left out of records that were imported without them, each with its place, field and reason.
 */
export default function ImportRunPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const { result: run, query } = useOne<ImportRunDetailRecord, HttpError>({
    resource: IMPORTS_RESOURCE,
    id: id ?? '',
    queryOptions: {
      enabled: Boolean(id),
      retry: false,
      refetchInterval: (state) => (state.state.data && isUnderWay(state.state.data.data) ? REFRESH_MS : false),
    },
  });
  if (isForbidden(query.error)) return <Forbidden />;
  if (query.error?.statusCode === 404 || query.error?.statusCode === 400) return <NotFound />;
  const number = (value: number) => value.toLocaleString(i18n.language);
  const date = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '—');

  return (
    <section>
      <PageHeader title={run ? t('imports.run_number', { id: run.id }) : t('imports.run')}>
        <Link to="/imports">{t('imports.back')}</Link>
      </PageHeader>
      <QueryStatus query={query} />
      {run ? (
        <>
          <div className="card stack">
            <dl className="imports-facts">
              <dt>{t('imports.state')}</dt>
              <dd>
                <span className={`tag imports-state-${run.state}`}>{t(`imports.state_${run.state}`)}</span>
                {run.dry_run ? <span className="tag">{t('imports.dry_run')}</span> : null}
                {run.strict ? <span className="tag">{t('imports.strict')}</span> : null}
              </dd>
              <dt>{t('imports.format')}</dt>
              <dd>{run.format}</dd>
              <dt>{t('imports.source')}</dt>
              <dd dir="auto">{run.source}</dd>
              <dt>{t('imports.input')}</dt>
              <dd dir="auto">{inputOf(run)}</dd>
              <dt>{t('imports.started_at')}</dt>
              <dd>{date(run.started_at)}</dd>
              <dt>{t('imports.finished_at')}</dt>
              <dd>{date(run.finished_at)}</dd>
            </dl>
            {run.error ? (
              <p className="notice notice-error" role="alert" dir="auto">
                {run.error}
              </p>
            ) : null}
            <ul className="imports-counts" aria-label={t('imports.counts')}>
              {COUNT_NAMES.map((name) => (
                <li key={name}>
                  <strong>{number(run.counts[name])}</strong> {t(`imports.${name}`)}
                </li>
              ))}
            </ul>
          </div>

          <h2>{t('imports.rejections_title')}</h2>
          {run.rejections.length === 0 ? <p className="muted">{t('imports.no_rejections')}</p> : null}
          {run.rejections.length > 0 ? (
            <DataTable columns={[t('imports.at'), t('imports.key'), t('imports.errors')]} caption={t('imports.rejections_title')}>
              {run.rejections.map((rejection, n) => (
                <tr key={n}>
                  <th scope="row">{rejection.at}</th>
                  <td dir="auto">{rejection.key ?? '—'}</td>
                  <td dir="auto">{errorsLine(rejection)}</td>
                </tr>
              ))}
            </DataTable>
          ) : null}
          {run.rejections_truncated ? (
            <p className="muted">{t('imports.rejections_truncated', { shown: number(run.rejections.length) })}</p>
          ) : null}

          <h2>{t('imports.warnings_title')}</h2>
          <p className="muted">{t('imports.warnings_intro')}</p>
          {run.warnings.length === 0 ? <p className="muted">{t('imports.no_warnings')}</p> : null}
          {run.warnings.length > 0 ? (
            <DataTable
              columns={[t('imports.at'), t('imports.key'), t('imports.field'), t('imports.reason')]}
              caption={t('imports.warnings_title')}
            >
              {run.warnings.map((warning, n) => (
                <tr key={n}>
                  <th scope="row">{warning.at}</th>
                  <td dir="auto">{warning.key ?? '—'}</td>
                  <td>
                    <code>{warning.field}</code>
                  </td>
                  <td dir="auto">{warning.reason}</td>
                </tr>
              ))}
            </DataTable>
          ) : null}
          {run.warnings_truncated ? (
            <p className="muted">{t('imports.warnings_truncated', { shown: number(run.warnings.length) })}</p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
