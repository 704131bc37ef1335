import { type HttpError, useCustom } from '@refinedev/core';
import { lazy, type ReactNode, Suspense, useCallback, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice, Forbidden, isForbidden, Loading, PageHeader } from '../../components/ui';
import {
  type ActivityAnswer,
  activityData,
  type ChartData,
  formatDay,
  formatMonth,
  hasValues,
  type ListingStatesAnswer,
  listingStatesData,
  type RevenueAnswer,
  revenueData,
  seriesTotals,
} from './chart-data';
import './dashboard.css';
import { formatMoney } from '../../format';

const Chart = lazy(() => import('./Chart'));

const ACTIVITY_DAYS = 30;
const REVENUE_MONTHS = 12;

/** Figures for administrators and managers (docs/api.md 13): listings per state, daily activity, revenue. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const rtl = i18n.dir(language) === 'rtl';

  const states = useCustom<ListingStatesAnswer>({ url: '/stats/listings', method: 'get', errorNotification: false });
  const activity = useCustom<ActivityAnswer>({
    url: '/stats/activity',
    method: 'get',
    config: { query: { days: ACTIVITY_DAYS } },
    errorNotification: false,
  });
  const revenue = useCustom<RevenueAnswer>({
    url: '/stats/revenue',
    method: 'get',
    config: { query: { months: REVENUE_MONTHS } },
    errorNotification: false,
  });

  const statesData = useMemo(
    () =>
      states.query.data?.data
        ? listingStatesData(
            states.query.data.data,
            (state) => t(`common.listing_state_${state}`, { defaultValue: state }),
            t('dashboard.listings'),
          )
        : null,
    [states.query.data, t],
  );
  const activityChart = useMemo(
    () =>
      activity.query.data?.data
        ? activityData(activity.query.data.data, (date) => formatDay(date, language), {
            listings: t('dashboard.new_listings'),
            leads: t('dashboard.new_leads'),
          })
        : null,
    [activity.query.data, language, t],
  );
  const revenueChart = useMemo(
    () => (revenue.query.data?.data ? revenueData(revenue.query.data.data, (month) => formatMonth(month, language)) : null),
    [revenue.query.data, language],
  );
  const formatCount = useCallback((value: number) => value.toLocaleString(language), [language]);

  const errors = [states.query.error, activity.query.error, revenue.query.error];
  if (errors.some(isForbidden)) return <Forbidden />;

  return (
    <section className="dashboard">
      <PageHeader title={t('dashboard.title')}>
        <button
          type="button"
          onClick={() => {
            void states.query.refetch();
            void activity.query.refetch();
            void revenue.query.refetch();
          }}
        >
          {t('dashboard.reload')}
        </button>
      </PageHeader>

      <Panel
        title={t('dashboard.states_title')}
        error={states.query.error}
        loading={states.query.isLoading}
        onRetry={() => void states.query.refetch()}
      >
        {statesData && states.query.data ? (
          <>
            <p className="muted">{t('dashboard.states_total', { total: formatCount(states.query.data.data.total) })}</p>
            <Suspense fallback={<Loading />}>
              <Chart
                kind="bar"
                data={statesData}
                label={t('dashboard.states_chart')}
                language={language}
                rtl={rtl}
                formatValue={formatCount}
              />
            </Suspense>
            <FigureTable
              caption={t('dashboard.states_table')}
              rowHeader={t('dashboard.state')}
              data={statesData}
              format={() => formatCount}
              totals
            />
          </>
        ) : null}
      </Panel>

      <Panel
        title={t('dashboard.activity_title', { days: ACTIVITY_DAYS })}
        error={activity.query.error}
        loading={activity.query.isLoading}
        onRetry={() => void activity.query.refetch()}
      >
        {activityChart && activity.query.data ? (
          <>
            <p className="muted">
              {t('dashboard.activity_totals', {
                listings: formatCount(activity.query.data.data.totals.listings),
                leads: formatCount(activity.query.data.data.totals.leads),
              })}
            </p>
            <Suspense fallback={<Loading />}>
              <Chart
                kind="line"
                data={activityChart}
                label={t('dashboard.activity_chart', { days: ACTIVITY_DAYS })}
                language={language}
                rtl={rtl}
                formatValue={formatCount}
              />
            </Suspense>
            <FigureTable
              caption={t('dashboard.activity_table')}
              rowHeader={t('dashboard.day')}
              data={activityChart}
              format={() => formatCount}
              totals
              scroll
            />
          </>
        ) : null}
      </Panel>

      <Panel
        title={t('dashboard.revenue_title', { months: REVENUE_MONTHS })}
        error={revenue.query.error}
        loading={revenue.query.isLoading}
        onRetry={() => void revenue.query.refetch()}
      >
        {revenueChart ? (
          <>
            <p className="muted">{t('dashboard.revenue_note')}</p>
            {revenueChart.series.length === 0 ? (
              <p>{t('dashboard.revenue_none')}</p>
            ) : (
              <>
                {hasValues(revenueChart) ? (
                  <Suspense fallback={<Loading />}>
                    <Chart
                      kind="bar"
                      data={revenueChart}
                      label={t('dashboard.revenue_chart', { months: REVENUE_MONTHS })}
                      language={language}
                      rtl={rtl}
                      formatValue={formatCount}
                    />
                  </Suspense>
                ) : null}
                <FigureTable
                  caption={t('dashboard.revenue_table')}
                  rowHeader={t('dashboard.month')}
                  data={revenueChart}
                  format={(currency) => (value) => formatMoney(value, currency, language)}
                  totals
                  scroll
                />
              </>
            )}
          </>
        ) : null}
      </Panel>
    </section>
  );
}

function Panel({
  title,
  error,
  loading,
  onRetry,
  children,
}: {
  title: string;
  error: HttpError | null;
  loading: boolean;
  onRetry: () => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="card dashboard-panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ErrorNotice error={error} onRetry={onRetry} />
      {loading ? <Loading /> : children}
    </section>
  );
}

/** The chart's figures as a table: a row per label, a column per series, and the sums at the foot. */
function FigureTable({
  caption,
  rowHeader,
  data,
  format,
  totals,
  scroll,
}: {
  caption: string;
  rowHeader: string;
  data: ChartData;
  format: (seriesKey: string) => (value: number) => string;
  totals?: boolean;
  scroll?: boolean;
}) {
  const { t } = useTranslation();
  const formats = data.series.map((series) => format(series.key));
  const sums = seriesTotals(data);
  const table = (
    <table className="data dashboard-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{rowHeader}</th>
          {data.series.map((series) => (
            <th scope="col" key={series.key} className="dashboard-number">
              {series.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.keys.map((key, row) => (
          <tr key={key}>
            <th scope="row">{data.labels[row]}</th>
            {data.series.map((series, column) => (
              <td key={series.key} className="dashboard-number">
                {formats[column]!(series.values[row] ?? 0)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      {totals ? (
        <tfoot>
          <tr>
            <th scope="row">{t('dashboard.total')}</th>
            {sums.map((sum, column) => (
              <td key={data.series[column]!.key} className="dashboard-number">
                {formats[column]!(sum)}
              </td>
            ))}
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
  if (!scroll) return table;
  return (
    <div className="dashboard-scroll" role="region" aria-label={caption} tabIndex={0}>
      {table}
    </div>
  );
}
