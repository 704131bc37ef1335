import { type HttpError, useGetIdentity, useOne } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { Identity } from '../../api/session';
import { ErrorNotice, Forbidden, isForbidden, NotFound, PageHeader, QueryStatus } from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { canMarkPaid, type InvoiceRecord } from './billing';
import { StatusTag, useInvoiceActions } from './InvoicesPage';
import './billing-admin.css';
import { formatDateTime, formatMoney } from '../../format';

/** One invoice (GET /users/invoices/{id}) with its administrator actions. */
export default function InvoicePage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const { data: identity } = useGetIdentity<Identity>();
  const { result: invoice, query } = useOne<InvoiceRecord, HttpError>({
    resource: 'admin-invoices',
    id: id ?? '',
    queryOptions: { enabled: Boolean(id) },
  });
  const [outcome, setOutcome] = useState<{ text: string; error?: HttpError } | null>(null);
  const { markPaid, archive, busy } = useInvoiceActions(setOutcome);

  if (isForbidden(query.error)) return <Forbidden />;
  if (query.error?.statusCode === 404 || query.error?.statusCode === 400) return <NotFound />;
  const money = (amount: number) => (invoice ? formatMoney(amount, invoice.currency, i18n.language) : '');
  const date = (value: string | null) => (value ? formatDateTime(value, i18n.language, 'long') : '—');

  return (
    <section>
      <PageHeader title={invoice ? t('common.invoice_title', { number: invoice.number }) : t('billing-admin.invoice')}>
        <Link to="/invoices">{t('billing-admin.back_to_invoices')}</Link>
      </PageHeader>
      <div role="status">
        {outcome && !outcome.error ? <p className="notice notice-ok">{outcome.text}</p> : null}
        {outcome?.error ? <ErrorNotice error={outcome.error} /> : null}
      </div>
      <QueryStatus query={query} />
      {invoice ? (
        <div className="card stack billing-invoice">
          <dl className="billing-facts">
            <dt>{t('billing-admin.status')}</dt>
            <dd>
              <StatusTag status={invoice.status} />
            </dd>
            <dt>{t('billing-admin.buyer')}</dt>
            <dd>
              {invoice.buyer.display_name} — {invoice.buyer.email}
              {invoice.buyer.id !== null ? ` (${t('billing-admin.user_number', { id: invoice.buyer.id })})` : ''}
            </dd>
            <dt>{t('billing-admin.item')}</dt>
            <dd>
              {invoice.item.title} ({t(`common.invoice_item_${invoice.item.type}`)} #{invoice.item.id})
            </dd>
            <dt>{t('billing-admin.amount')}</dt>
            <dd>{money(invoice.amount)}</dd>
            <dt>{t('billing-admin.tax')}</dt>
            <dd>
              {money(invoice.tax)} ({invoice.tax_rate.toLocaleString(i18n.language)} %)
            </dd>
            <dt>{t('billing-admin.total')}</dt>
            <dd>
              <strong>{money(invoice.total)}</strong>
            </dd>
            <dt>{t('billing-admin.method')}</dt>
            <dd>{t(`common.payment_method_${invoice.payment_method}`)}</dd>
            <dt>{t('billing-admin.recurring')}</dt>
            <dd>{invoice.recurring ? t('common.yes') : t('common.no')}</dd>
            <dt>{t('billing-admin.created_at')}</dt>
            <dd>{date(invoice.created_at)}</dd>
            <dt>{t('billing-admin.paid_at')}</dt>
            <dd>{date(invoice.paid_at)}</dd>
          </dl>
          {identity?.role === 'administrator' ? (
            <div className="row">
              {canMarkPaid(invoice) ? (
                <button type="button" className="primary" disabled={busy} onClick={() => markPaid(invoice)}>
                  {t('billing-admin.mark_paid')}
                </button>
              ) : null}
              <ConfirmButton
                label={t('billing-admin.archive')}
                question={t('billing-admin.confirm_archive', { number: invoice.number })}
                confirmLabel={t('billing-admin.confirm_archive_button')}
                onConfirm={() => archive(invoice, () => void navigate('/invoices', { state: { archived: invoice.number } }))}
              />
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
