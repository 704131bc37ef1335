import { type HttpError, useCustomMutation, useDelete, useGetIdentity, useInvalidate, useTable } from '@refinedev/core';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Identity } from '../../api/session';
import { DataTable, ErrorNotice, Forbidden, isForbidden, PageHeader, Pager, QueryStatus } from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import {
  canMarkPaid,
  INVOICE_STATUSES,
  type InvoiceFilterValues,
  invoiceFilters,
  invoiceFilterValues,
  type InvoiceRecord,
  NO_INVOICE_FILTERS,
} from './billing';
import './billing-admin.css';
import { formatDateTime, formatMoney } from '../../format';

type Outcome = { text: string; error?: HttpError } | null;

/** Marking a bank transfer paid and archiving, for both the list and the detail page (administrators). */
export function useInvoiceActions(onOutcome: (outcome: Outcome) => void) {
  const { t } = useTranslation();
  const invalidate = useInvalidate();
  const { mutate: post, mutation: posting } = useCustomMutation();
  const { mutate: remove } = useDelete();
  const markPaid = (invoice: InvoiceRecord) =>
    post(
      { url: `/users/invoices/${invoice.id}/mark-paid`, method: 'post', values: {}, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          onOutcome({ text: t('billing-admin.marked_paid', { number: invoice.number }) });
          void invalidate({ resource: 'admin-invoices', invalidates: ['list', 'detail'], id: invoice.id });
        },
        onError: (error) => onOutcome({ text: '', error }),
      },
    );
  const archive = (invoice: InvoiceRecord, after?: () => void) =>
    remove(
      // The list only: the archived invoice answers 404 from now on.
      { resource: 'admin-invoices', id: invoice.id, successNotification: false, errorNotification: false, invalidates: ['list'] },
      {
        onSuccess: () => {
          onOutcome({ text: t('billing-admin.archived', { number: invoice.number }) });
          after?.();
        },
        onError: (error) => onOutcome({ text: '', error }),
      },
    );
  return { markPaid, archive, busy: posting.isPending };
}

export function StatusTag({ status }: { status: InvoiceRecord['status'] }) {
  const { t } = useTranslation();
  return <span className={`tag billing-status billing-status-${status}`}>{t(`common.invoice_status_${status}`)}</span>;
}

/** Every user's invoices, for administrators and managers (docs/api.md 10): filters, paging, actions. */
export default function InvoicesPage() {
  const { t, i18n } = useTranslation();
  const { data: identity } = useGetIdentity<Identity>();
  const admin = identity?.role === 'administrator';
  const { tableQuery, result, currentPage, setCurrentPage, pageCount, filters, setFilters } = useTable<InvoiceRecord, HttpError>({
    resource: 'admin-invoices',
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    syncWithLocation: true,
  });
  const [form, setForm] = useState<InvoiceFilterValues>(() => invoiceFilterValues(filters));
  const [rangeError, setRangeError] = useState(false);
  // Archiving from the invoice's own page comes back here with the result.
  const archived = (useLocation().state as { archived?: string } | null)?.archived;
  const [outcome, setOutcome] = useState<Outcome>(archived ? { text: t('billing-admin.archived', { number: archived }) } : null);
  const { markPaid, archive, busy } = useInvoiceActions(setOutcome);
  const id = useId();

  if (isForbidden(tableQuery.error)) return <Forbidden />;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = invoiceFilters(form);
    setRangeError(next === 'range');
    if (next !== 'range') setFilters(next, 'replace');
  };
  const clear = () => {
    setForm(NO_INVOICE_FILTERS);
    setRangeError(false);
    setFilters([], 'replace');
  };
  const date = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '—');

  return (
    <section>
      <PageHeader title={t('billing-admin.invoices_title')} />
      <form className="billing-filters" onSubmit={apply} aria-label={t('billing-admin.filters')}>
        <div className="field">
          <label htmlFor={`${id}-status`}>{t('billing-admin.status')}</label>
          <select
            id={`${id}-status`}
            value={form.status}
            onChange={(event) => setForm({ ...form, status: event.target.value as InvoiceFilterValues['status'] })}
          >
            <option value="">{t('common.all')}</option>
            {INVOICE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`common.invoice_status_${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-user`}>{t('billing-admin.user_id')}</label>
          <input
            id={`${id}-user`}
            inputMode="numeric"
            pattern="[0-9]*"
            className="billing-short"
            value={form.user_id}
            onChange={(event) => setForm({ ...form, user_id: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-from`}>{t('billing-admin.start_date')}</label>
          <input
            id={`${id}-from`}
            type="date"
            value={form.start_date}
            onChange={(event) => setForm({ ...form, start_date: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>{t('billing-admin.end_date')}</label>
          <input
            id={`${id}-to`}
            type="date"
            value={form.end_date}
            aria-invalid={rangeError}
            aria-describedby={rangeError ? `${id}-range` : undefined}
            onChange={(event) => setForm({ ...form, end_date: event.target.value })}
          />
          {rangeError ? (
            <small id={`${id}-range`} className="field-error">
              {t('billing-admin.range_error')}
            </small>
          ) : null}
        </div>
        <div className="row billing-filter-actions">
          <button type="submit" className="primary">
            {t('common.apply')}
          </button>
          <button type="button" onClick={clear}>
            {t('common.clear')}
          </button>
        </div>
      </form>
      <div role="status">
        {outcome && !outcome.error ? <p className="notice notice-ok">{outcome.text}</p> : null}
        {outcome?.error ? <ErrorNotice error={outcome.error} /> : null}
      </div>
      <QueryStatus query={tableQuery} />
      <DataTable
        columns={[
          t('billing-admin.number'),
          t('billing-admin.buyer'),
          t('billing-admin.item'),
          t('billing-admin.total'),
          t('billing-admin.status'),
          t('billing-admin.method'),
          t('billing-admin.created_at'),
          t('billing-admin.paid_at'),
          t('common.actions'),
        ]}
        caption={t('billing-admin.invoices_title')}
      >
        {result.data.map((invoice) => (
          <tr key={invoice.id}>
            <th scope="row">
              <Link to={`/invoices/${invoice.id}`} aria-label={t('billing-admin.view_named', { number: invoice.number })}>
                {invoice.number}
              </Link>
            </th>
            <td>
              {invoice.buyer.display_name}
              <div className="muted">{invoice.buyer.email}</div>
              {invoice.buyer.id !== null ? <div className="muted">{t('billing-admin.user_number', { id: invoice.buyer.id })}</div> : null}
            </td>
            <td>
              {invoice.item.title}
              <div className="muted">{t(`common.invoice_item_${invoice.item.type}`)}</div>
            </td>
            <td>{formatMoney(invoice.total, invoice.currency, i18n.language)}</td>
            <td>
              <StatusTag status={invoice.status} />
            </td>
            <td>{t(`common.payment_method_${invoice.payment_method}`)}</td>
            <td>{date(invoice.created_at)}</td>
            <td>{date(invoice.paid_at)}</td>
            <td>
              {admin ? (
                <div className="row">
                  {canMarkPaid(invoice) ? (
                    <button
                      type="button"
                      disabled={busy}
                      onClick={() => markPaid(invoice)}
                      aria-label={t('billing-admin.mark_paid_named', { number: invoice.number })}
                    >
                      {t('billing-admin.mark_paid')}
                    </button>
                  ) : null}
                  <ConfirmButton
                    label={t('billing-admin.archive')}
                    ariaLabel={t('billing-admin.archive_named', { number: invoice.number })}
                    question={t('billing-admin.confirm_archive', { number: invoice.number })}
                    confirmLabel={t('billing-admin.confirm_archive_button')}
                    onConfirm={() => archive(invoice)}
                  />
                </div>
              ) : null}
            </td>
          </tr>
        ))}
      </DataTable>
      {!tableQuery.isLoading && result.data.length === 0 ? <p className="muted">{t('common.nothing_here')}</p> : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
