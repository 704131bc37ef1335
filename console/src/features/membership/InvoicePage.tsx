import { useOne } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorNotice, Forbidden, isForbidden, Loading, NotFound } from '../../components/ui';
import { type InvoiceRecord } from './money';
import './membership.css';
import { formatDate, formatMoney } from '../../format';

/** One invoice, laid out for printing: the shell's header and navigation are hidden on paper (membership.css). */
export default function InvoicePage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const { result: invoice, query } = useOne<InvoiceRecord>({
    resource: 'membership-invoices',
    id: id ?? '',
    queryOptions: { enabled: Boolean(id) },
  });
  if (query.isLoading) return <Loading />;
  if (isForbidden(query.error)) return <Forbidden />;
  if ((query.error as { statusCode?: number } | null)?.statusCode === 404) return <NotFound />;
  if (query.error || !invoice) return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;

  const money = (amount: number) => formatMoney(amount, invoice.currency, i18n.language);
  const date = (value: string) => formatDate(value, i18n.language, 'long');
  return (
    <article className="membership-invoice">
      <div className="row membership-noprint">
        <Link to="/membership">{t('membership.back')}</Link>
        <button type="button" className="primary" onClick={() => window.print()}>
          {t('membership.print')}
        </button>
      </div>
      <header className="membership-invoice-head">
        <div>
          <p className="muted">{t('common.app_name')}</p>
          <h1>{t('common.invoice_title', { number: invoice.number })}</h1>
        </div>
        <span className={`tag membership-status-${invoice.status}`}>{t(`common.invoice_status_${invoice.status}`)}</span>
      </header>
      <dl className="membership-facts">
        <div>
          <dt>{t('membership.billed_to')}</dt>
          <dd>
            {invoice.buyer.display_name}
            <br />
            <span dir="ltr">{invoice.buyer.email}</span>
          </dd>
        </div>
        <div>
          <dt>{t('membership.date')}</dt>
          <dd>
            <time dateTime={invoice.created_at}>{date(invoice.created_at)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('membership.paid_on')}</dt>
          <dd>{invoice.paid_at ? <time dateTime={invoice.paid_at}>{date(invoice.paid_at)}</time> : t('membership.not_paid')}</dd>
        </div>
        <div>
          <dt>{t('membership.method')}</dt>
          <dd>{t(`common.payment_method_${invoice.payment_method}`)}</dd>
        </div>
      </dl>
      <table className="data membership-lines">
        <caption className="visually-hidden">{t('membership.lines')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('membership.item')}</th>
            <th scope="col" className="membership-amount">
              {t('membership.amount')}
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              {invoice.item.title}
              <div className="muted">
                {t(`common.invoice_item_${invoice.item.type}`)}
                {invoice.recurring ? ` · ${t('membership.recurring')}` : ''}
              </div>
            </td>
            <td className="membership-amount">{money(invoice.amount)}</td>
          </tr>
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">
              {invoice.tax_rate !== undefined
                ? t('membership.tax_rate', { rate: invoice.tax_rate.toLocaleString(i18n.language) })
                : t('membership.tax')}
            </th>
            <td className="membership-amount">{money(invoice.tax)}</td>
          </tr>
          <tr className="membership-total">
            <th scope="row">{t('membership.total')}</th>
            <td className="membership-amount">{money(invoice.total)}</td>
          </tr>
        </tfoot>
      </table>
    </article>
  );
}
