import { type HttpError, useCustom, useCustomMutation, useInvalidate, useList, useTable } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DataTable, ErrorNotice, Forbidden, isForbidden, Loading, PageHeader, Pager, QueryStatus } from '../../components/ui';
import {
  type CheckoutAnswer,
  checkoutBody,
  checkoutRedirect,
  type Credits,
  creditsOf,
  type FlatPackage,
  hasPackage,
  INVOICE_STATUSES,
  type InvoiceRecord,
  invoiceStatusFilter,
  type PackageRecord,
  payableMethods,
  type PaymentSettings,
} from './money';
import { useBillingText } from './text';
import './membership.css';
import { formatDate, formatMoney } from '../../format';

/** The caller's package and credits, the packages on sale with their checkout, and the caller's invoices. */
export default function MembershipPage() {
  const { t } = useTranslation();
  const { query: currentQuery } = useCustom<FlatPackage>({ url: '/users/package', method: 'get' });
  // Stripe Checkout sends the buyer back here with ?payment=success or ?payment=cancelled (STRIPE_SUCCESS_URL).
  const payment = useSearchParams()[0].get('payment');
  if (isForbidden(currentQuery.error)) return <Forbidden />;
  return (
    <section className="stack">
      <PageHeader title={t('membership.title')} />
      <div role="status">
        {payment === 'success' ? <p className="notice notice-ok">{t('membership.payment_returned')}</p> : null}
        {payment === 'cancelled' ? <p className="notice">{t('membership.payment_cancelled')}</p> : null}
      </div>
      <CurrentPackage
        current={currentQuery.data?.data}
        loading={currentQuery.isLoading}
        error={currentQuery.error}
        onRetry={() => void currentQuery.refetch()}
      />
      <Packages onPurchased={() => void currentQuery.refetch()} />
      <Invoices />
    </section>
  );
}

function CreditsText({ credits, total }: { credits: Credits; total?: Credits }) {
  const { t, i18n } = useTranslation();
  const show = (value: Credits) =>
    value.kind === 'unlimited'
      ? t('membership.unlimited')
      : value.kind === 'none'
        ? t('membership.none')
        : value.value.toLocaleString(i18n.language);
  if (!total || total.kind !== 'count' || credits.kind !== 'count') return <>{show(credits)}</>;
  return <>{t('membership.left_of', { left: show(credits), total: show(total) })}</>;
}

function CurrentPackage({
  current,
  loading,
  error,
  onRetry,
}: {
  current: FlatPackage | undefined;
  loading: boolean;
  error: HttpError | null;
  onRetry: () => void;
}) {
  const { t, i18n } = useTranslation();
  const billing = useBillingText();
  return (
    <section className="card stack" aria-labelledby="membership-current">
      <h2 id="membership-current">{t('membership.current')}</h2>
      <ErrorNotice error={error} onRetry={onRetry} />
      {loading ? <Loading /> : null}
      {!loading && current && !hasPackage(current) ? <p>{t('membership.no_package')}</p> : null}
      {hasPackage(current) ? (
        <dl className="membership-facts">
          <div>
            <dt>{t('membership.package')}</dt>
            <dd>{current.package_title}</dd>
          </div>
          <div>
            <dt>{t('membership.listings_left')}</dt>
            <dd>
              <CreditsText credits={creditsOf(current.package_remaining_listings)} total={creditsOf(current.package_listings)} />
            </dd>
          </div>
          <div>
            <dt>{t('membership.featured_left')}</dt>
            <dd>
              <CreditsText
                credits={creditsOf(current.package_remaining_featured_listings)}
                total={creditsOf(current.package_featured_listings)}
              />
            </dd>
          </div>
          <div>
            <dt>{t('membership.billing')}</dt>
            <dd>
              {current.package_billing_period
                ? billing(current.package_billing_period, current.package_billing_frequency ?? 1)
                : t('membership.none')}
            </dd>
          </div>
          <div>
            <dt>{t('membership.expires')}</dt>
            <dd>
              {current.package_expired_date ? (
                <time dateTime={current.package_expired_date}>{formatDate(current.package_expired_date, i18n.language, 'long')}</time>
              ) : (
                t('membership.never')
              )}
            </dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}

function Packages({ onPurchased }: { onPurchased: () => void }) {
  const { t } = useTranslation();
  const { result, query } = useList<PackageRecord>({ resource: 'membership-packages', pagination: { mode: 'off' } });
  const { query: settingsQuery } = useCustom<PaymentSettings>({ url: '/payments/settings', method: 'get' });
  const methods = payableMethods(settingsQuery.data?.data);
  const { mutate, mutation } = useCustomMutation<CheckoutAnswer>();
  const invalidate = useInvalidate();
  const [outcome, setOutcome] = useState<CheckoutAnswer | null>(null);
  const [unsafe, setUnsafe] = useState(false);
  const [buying, setBuying] = useState<number | null>(null);

  const buy = (pack: PackageRecord, method: string | undefined) => {
    setOutcome(null);
    setUnsafe(false);
    setBuying(pack.id);
    mutate(
      {
        url: '/payments/checkout',
        method: 'post',
        values: checkoutBody(pack, method),
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          const target = checkoutRedirect(data);
          if (target) {
            // Only the Stripe Checkout address the API answered, and only over https (money.ts checkoutRedirect).
            window.location.assign(target);
            return;
          }
          setUnsafe(Boolean(data.checkout_url));
          setOutcome(data);
          setBuying(null);
          void invalidate({ resource: 'membership-invoices', invalidates: ['list'] });
          onPurchased();
        },
        onError: () => setBuying(null),
      },
    );
  };

  return (
    <section className="stack" aria-labelledby="membership-packages">
      <h2 id="membership-packages">{t('membership.packages')}</h2>
      <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      <ErrorNotice error={mutation.error as HttpError | null} />
      <div role="status" aria-live="polite">
        {outcome ? <CheckoutOutcome outcome={outcome} unsafe={unsafe} /> : null}
      </div>
      {query.isLoading ? <Loading /> : null}
      {!query.isLoading && result.data.length === 0 ? <p className="muted">{t('membership.no_packages')}</p> : null}
      <ul className="membership-packages">
        {result.data.map((pack) => (
          <PackageCard
            key={pack.id}
            pack={pack}
            methods={methods}
            busy={buying === pack.id && mutation.isPending}
            disabled={mutation.isPending}
            onBuy={buy}
          />
        ))}
      </ul>
    </section>
  );
}

function PackageCard({
  pack,
  methods,
  busy,
  disabled,
  onBuy,
}: {
  pack: PackageRecord;
  methods: string[];
  busy: boolean;
  disabled: boolean;
  onBuy: (pack: PackageRecord, method: string | undefined) => void;
}) {
  const { t, i18n } = useTranslation();
  const billing = useBillingText();
  const [method, setMethod] = useState<string | undefined>(undefined);
  const free = pack.total_price === 0;
  const chosen = method ?? methods[0];
  return (
    <li className={pack.popular ? 'card membership-package membership-popular' : 'card membership-package'}>
      <div className="card-head">
        <h3>{pack.title}</h3>
        {pack.popular ? <span className="tag">{t('membership.popular')}</span> : null}
      </div>
      <p className="membership-price">
        {free ? t('membership.free') : formatMoney(pack.total_price, pack.currency, i18n.language)}{' '}
        <span className="muted">{billing(pack.billing_period, pack.billing_frequency)}</span>
      </p>
      {!free && pack.tax_rate > 0 ? (
        <p className="muted">
          {t('membership.tax_included', {
            rate: pack.tax_rate.toLocaleString(i18n.language),
            price: formatMoney(pack.price, pack.currency, i18n.language),
          })}
        </p>
      ) : null}
      {pack.description ? <p dir="auto">{pack.description}</p> : null}
      <ul className="membership-includes">
        <li>
          {t('membership.includes_listings', {
            count_text: pack.listings_included === null ? t('membership.unlimited') : pack.listings_included.toLocaleString(i18n.language),
          })}
        </li>
        <li>{t('membership.includes_featured', { count_text: pack.featured_included.toLocaleString(i18n.language) })}</li>
      </ul>
      <div className="row">
        {!free && methods.length > 0 ? (
          <label>
            {t('membership.pay_with')}{' '}
            <select value={chosen} onChange={(event) => setMethod(event.target.value)}>
              {methods.map((value) => (
                <option key={value} value={value}>
                  {t(`common.payment_method_${value}`)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <button
          type="button"
          className="primary"
          disabled={disabled || (!free && methods.length === 0)}
          onClick={() => onBuy(pack, free ? undefined : chosen)}
        >
          {busy ? t('membership.buying') : t('membership.buy', { title: pack.title })}
        </button>
      </div>
    </li>
  );
}

function CheckoutOutcome({ outcome, unsafe }: { outcome: CheckoutAnswer; unsafe: boolean }) {
  const { t } = useTranslation();
  const { invoice } = outcome;
  return (
    <div className={unsafe ? 'notice notice-error membership-outcome' : 'notice notice-ok membership-outcome'}>
      <strong>
        {invoice.status === 'paid'
          ? t('membership.activated', { title: invoice.item.title })
          : t('membership.ordered', { number: invoice.number })}
      </strong>
      {unsafe ? <p>{t('membership.unsafe_checkout')}</p> : null}
      {outcome.instructions ? (
        <div className="membership-instructions">
          <h3>{t('membership.bank_instructions')}</h3>
          <p dir="auto">{outcome.instructions}</p>
        </div>
      ) : null}
      <Link to={`/membership/invoices/${invoice.id}`}>{t('membership.see_invoice', { number: invoice.number })}</Link>
    </div>
  );
}

function Invoices() {
  const { t, i18n } = useTranslation();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount, filters, setFilters } = useTable<InvoiceRecord>({
    resource: 'membership-invoices',
    pagination: { pageSize: 10 },
    sorters: { mode: 'off' },
    syncWithLocation: false,
  });
  const status = (filters.find((filter) => 'field' in filter && filter.field === 'status')?.value as string | undefined) ?? '';
  const date = (value: string | null) => (value ? formatDate(value, i18n.language) : '—');

  return (
    <section className="stack" aria-labelledby="membership-invoices">
      <div className="row membership-invoices-head">
        <h2 id="membership-invoices">{t('membership.invoices')}</h2>
        <label>
          {t('membership.status_filter')}{' '}
          <select
            value={status}
            onChange={(event) =>
              setFilters([{ field: 'status', operator: 'eq', value: invoiceStatusFilter(event.target.value) }], 'replace')
            }
          >
            <option value="">{t('common.all')}</option>
            {INVOICE_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`common.invoice_status_${value}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryStatus query={tableQuery} isEmpty={result.data.length === 0} empty={t('membership.no_invoices')} />
      {result.data.length > 0 ? (
        <DataTable
          columns={[
            t('membership.number'),
            t('membership.date'),
            t('membership.item'),
            t('membership.total'),
            t('membership.status'),
            t('membership.method'),
          ]}
          caption={t('membership.invoices')}
        >
          {result.data.map((invoice) => (
            <tr key={invoice.id}>
              <td>
                <Link to={`/membership/invoices/${invoice.id}`}>{invoice.number}</Link>
              </td>
              <td>
                <time dateTime={invoice.created_at}>{date(invoice.created_at)}</time>
              </td>
              <td>{invoice.item.title}</td>
              <td>{formatMoney(invoice.total, invoice.currency, i18n.language)}</td>
              <td>
                <span className={`tag membership-status-${invoice.status}`}>{t(`common.invoice_status_${invoice.status}`)}</span>
              </td>
              <td>{t(`common.payment_method_${invoice.payment_method}`)}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
