import type { AnswerData } from '@realty-api/client';
import { type HttpError, useCustom, useDelete, useList, useUpdate } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, ErrorNotice, Field, Forbidden, isForbidden, PageHeader, QueryStatus } from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { BILLING_PERIODS, emptyPackageForm, formToPackageBody, type PackageFormValues, type PackageRecord, packageToForm } from './billing';
import './billing-admin.css';
import { formatMoney } from '../../format';

type Outcome = { text: string; error?: HttpError } | null;

/** Membership packages for administrators (docs/api.md 10): all of them, hidden ones too; create, change, hide, delete. */
export default function PackagesPage() {
  const { t, i18n } = useTranslation();
  const { result, query } = useList<PackageRecord, HttpError>({
    resource: 'admin-packages',
    pagination: { mode: 'off' },
    meta: { query: { include_hidden: true } },
  });
  const settings = useCustom<Pick<AnswerData<'/realty-api/v1/payments/settings', 'get'>, 'currency'>>({
    url: '/payments/settings',
    method: 'get',
  });
  const currency = settings.result?.data?.currency ?? 'USD';
  const [editing, setEditing] = useState<PackageRecord | 'new' | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const { mutate: update } = useUpdate<PackageRecord, HttpError>();
  const { mutate: remove } = useDelete<{ id: number; deleted: boolean; hidden?: boolean }, HttpError>();

  if (isForbidden(query.error)) return <Forbidden />;

  const setVisible = (record: PackageRecord, visible: boolean) =>
    update(
      {
        resource: 'admin-packages',
        id: record.id,
        values: { visible },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: () => setOutcome({ text: t(visible ? 'billing-admin.shown' : 'billing-admin.hidden_done', { title: record.title }) }),
        onError: (error) => setOutcome({ text: '', error }),
      },
    );
  const deletePackage = (record: PackageRecord) =>
    remove(
      { resource: 'admin-packages', id: record.id, successNotification: false, errorNotification: false },
      {
        onSuccess: ({ data }) => {
          setOutcome({ text: t(data.deleted ? 'billing-admin.deleted' : 'billing-admin.hidden_instead', { title: record.title }) });
          if (editing !== null && editing !== 'new' && editing.id === record.id) setEditing(null);
        },
        onError: (error) => setOutcome({ text: '', error }),
      },
    );

  return (
    <section>
      <PageHeader title={t('billing-admin.packages_title')}>
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          {t('billing-admin.new_package')}
        </button>
      </PageHeader>
      <div role="status">
        {outcome && !outcome.error ? <p className="notice notice-ok">{outcome.text}</p> : null}
        {outcome?.error ? <ErrorNotice error={outcome.error} /> : null}
      </div>
      <QueryStatus query={query} />
      <div className="billing-layout">
        <div className="table-scroll">
          <DataTable
            columns={[
              t('billing-admin.order'),
              t('billing-admin.package_title'),
              t('billing-admin.total_price'),
              t('billing-admin.billing'),
              t('billing-admin.credits'),
              t('billing-admin.state'),
              t('common.actions'),
            ]}
            caption={t('billing-admin.packages_title')}
          >
            {result.data.map((record) => (
              <tr key={record.id}>
                <td>{record.order.toLocaleString(i18n.language)}</td>
                <th scope="row">
                  {record.title}
                  {record.popular ? <span className="tag billing-tag">{t('billing-admin.popular')}</span> : null}
                </th>
                <td>
                  {formatMoney(record.total_price, record.currency, i18n.language)}
                  {record.tax_rate > 0 ? (
                    <div className="muted">
                      {t('billing-admin.price_and_tax', {
                        price: formatMoney(record.price, record.currency, i18n.language),
                        rate: record.tax_rate.toLocaleString(i18n.language),
                      })}
                    </div>
                  ) : null}
                </td>
                <td>
                  {record.billing_period === 'one_time'
                    ? t('billing-admin.period_one_time')
                    : t('billing-admin.every', {
                        number: record.billing_frequency.toLocaleString(i18n.language),
                        period: t(`billing-admin.period_${record.billing_period}`),
                      })}
                </td>
                <td>
                  {t('billing-admin.listings_credits', {
                    number:
                      record.listings_included === null
                        ? t('billing-admin.unlimited')
                        : record.listings_included.toLocaleString(i18n.language),
                  })}
                  <br />
                  {t('billing-admin.featured_credits', { number: record.featured_included.toLocaleString(i18n.language) })}
                </td>
                <td>
                  <span className={record.visible ? 'tag' : 'tag billing-tag-muted'}>
                    {t(record.visible ? 'billing-admin.visible' : 'billing-admin.hidden')}
                  </span>
                </td>
                <td>
                  <div className="row">
                    <button
                      type="button"
                      onClick={() => setEditing(record)}
                      aria-label={t('billing-admin.edit_named', { title: record.title })}
                    >
                      {t('billing-admin.edit')}
                    </button>
                    <button
                      type="button"
                      onClick={() => setVisible(record, !record.visible)}
                      aria-label={t(record.visible ? 'billing-admin.hide_named' : 'billing-admin.show_named', { title: record.title })}
                    >
                      {t(record.visible ? 'billing-admin.hide' : 'billing-admin.show')}
                    </button>
                    <ConfirmButton
                      label={t('common.delete')}
                      ariaLabel={t('billing-admin.delete_named', { title: record.title })}
                      question={t('billing-admin.confirm_delete', { title: record.title })}
                      confirmLabel={t('billing-admin.confirm_delete_button')}
                      onConfirm={() => deletePackage(record)}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </DataTable>
          {!query.isLoading && result.data.length === 0 ? <p className="muted">{t('common.nothing_here')}</p> : null}
        </div>
        {editing ? (
          <PackageEditor
            key={editing === 'new' ? 'new' : editing.id}
            record={editing === 'new' ? undefined : editing}
            currency={currency}
            onDone={(title) => {
              setOutcome({ text: t('billing-admin.saved', { title }) });
              setEditing(null);
            }}
            onCancel={() => setEditing(null)}
          />
        ) : null}
      </div>
    </section>
  );
}

function PackageEditor({
  record,
  currency,
  onDone,
  onCancel,
}: {
  record: PackageRecord | undefined;
  currency: string;
  onDone: (title: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
    refineCore: { onFinish, formLoading, mutation },
  } = useForm<PackageRecord, HttpError, PackageFormValues>({
    defaultValues: record ? packageToForm(record) : emptyPackageForm(currency),
    warnWhenUnsavedChanges: false,
    refineCoreProps: {
      resource: 'admin-packages',
      action: record ? 'edit' : 'create',
      ...(record ? { id: record.id } : {}),
      redirect: false,
      queryOptions: { enabled: false },
      successNotification: false,
      errorNotification: false,
      onMutationSuccess: ({ data }) => onDone(data.title),
    },
  });
  const unlimited = watch('unlimited');
  const period = watch('billing_period');
  const error = mutation.error;
  const fieldErrorShown = error?.errors && Object.keys(error.errors).length > 0;
  const submit = handleSubmit((values) => onFinish(formToPackageBody(values) as unknown as PackageFormValues).catch(() => undefined));
  const title = record ? t('billing-admin.edit_package', { title: record.title }) : t('billing-admin.new_package');
  const number = { valueAsNumber: false } as const;

  return (
    <form className="card stack billing-editor" onSubmit={(event) => void submit(event)} aria-label={title} noValidate>
      <h2>{title}</h2>
      {error && !fieldErrorShown ? <ErrorNotice error={error} /> : null}
      <Field label={t('billing-admin.package_title')} error={errors.title?.message}>
        {(props) => <input {...props} {...register('title', { required: t('billing-admin.required') })} maxLength={200} />}
      </Field>
      <Field label={t('billing-admin.description')} error={errors.description?.message}>
        {(props) => <textarea {...props} {...register('description')} rows={3} maxLength={5000} />}
      </Field>
      <div className="billing-pair">
        <Field label={t('billing-admin.price')} error={errors.price?.message} hint={t('billing-admin.price_hint')}>
          {(props) => <input {...props} inputMode="decimal" {...register('price', { ...number, required: t('billing-admin.required') })} />}
        </Field>
        <Field label={t('billing-admin.currency')} error={errors.currency?.message}>
          {(props) => <input {...props} {...register('currency')} maxLength={3} className="billing-short" autoCapitalize="characters" />}
        </Field>
      </div>
      <Field label={t('billing-admin.tax_rate')} error={errors.tax_rate?.message}>
        {(props) => <input {...props} inputMode="decimal" {...register('tax_rate')} />}
      </Field>
      <fieldset className="boxed-fieldset">
        <legend>{t('billing-admin.listings_included')}</legend>
        <label className="row">
          <input type="checkbox" {...register('unlimited')} />
          {t('billing-admin.unlimited')}
        </label>
        <Field label={t('billing-admin.listings_number')} error={errors.listings_included?.message}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={0}
              step={1}
              disabled={unlimited}
              {...register('listings_included', {
                validate: (value, all) => all.unlimited || value.trim() !== '' || t('billing-admin.required'),
              })}
            />
          )}
        </Field>
      </fieldset>
      <Field label={t('billing-admin.featured_included')} error={errors.featured_included?.message}>
        {(props) => <input {...props} type="number" min={0} step={1} {...register('featured_included')} />}
      </Field>
      <div className="billing-pair">
        <Field label={t('billing-admin.billing_period')} error={errors.billing_period?.message}>
          {(props) => (
            <select {...props} {...register('billing_period')}>
              {BILLING_PERIODS.map((value) => (
                <option key={value} value={value}>
                  {t(`billing-admin.period_${value}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('billing-admin.billing_frequency')} error={errors.billing_frequency?.message}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={1}
              max={365}
              step={1}
              disabled={period === 'one_time'}
              {...register('billing_frequency')}
            />
          )}
        </Field>
      </div>
      <Field label={t('billing-admin.order')} error={errors.order?.message}>
        {(props) => <input {...props} type="number" step={1} {...register('order')} />}
      </Field>
      <label className="row">
        <input type="checkbox" {...register('visible')} />
        {t('billing-admin.visible_label')}
      </label>
      <label className="row">
        <input type="checkbox" {...register('popular')} />
        {t('billing-admin.popular_label')}
      </label>
      <div className="row">
        <button type="submit" className="primary" disabled={formLoading}>
          {formLoading ? t('common.saving') : record ? t('common.save') : t('billing-admin.create')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
