import type { HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice, Field, PageHeader } from '../../components/ui';
import {
  type BroadcastAnswer,
  type BroadcastFormValues,
  EMPTY_BROADCAST,
  formToBroadcastBody,
  NOTIFICATION_TYPES,
  ROLES,
} from './broadcast';
import './broadcast.css';

const SHOWN_FIELDS = ['title', 'message', 'type', 'user_id', 'role'];

/** An administrator's notification (POST /notifications, docs/api.md 8) to one user, a role or everyone. */
export default function BroadcastPage() {
  const { t, i18n } = useTranslation();
  const [answer, setAnswer] = useState<BroadcastAnswer | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
    refineCore: { onFinish, formLoading, mutation },
  } = useForm<BroadcastAnswer, HttpError, BroadcastFormValues>({
    defaultValues: EMPTY_BROADCAST,
    warnWhenUnsavedChanges: false,
    refineCoreProps: {
      resource: 'broadcast-notifications',
      action: 'create',
      redirect: false,
      successNotification: false,
      errorNotification: false,
      invalidates: [],
      onMutationSuccess: ({ data }) => setAnswer(data),
    },
  });
  const target = watch('target');
  const error = mutation.error;
  const unshown = error && Object.keys(error.errors ?? {}).some((field) => !SHOWN_FIELDS.includes(field));
  const submit = handleSubmit((values) => {
    setAnswer(null);
    return onFinish(formToBroadcastBody(values) as unknown as BroadcastFormValues).catch(() => undefined);
  });
  const errorOf = (field: string) => (errors as Record<string, { message?: string } | undefined>)[field]?.message;
  const number = (value: number) => value.toLocaleString(i18n.language);

  return (
    <section>
      <PageHeader title={t('broadcast.title')} />
      <p className="muted">{t('broadcast.intro')}</p>
      <form className="card stack broadcast-form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('broadcast.title')}>
        <Field label={t('broadcast.message_title')} error={errorOf('title')}>
          {(props) => <input {...props} maxLength={200} {...register('title', { required: t('broadcast.required') })} />}
        </Field>
        <Field label={t('broadcast.message')} error={errorOf('message')}>
          {(props) => <textarea {...props} rows={5} maxLength={5000} {...register('message', { required: t('broadcast.required') })} />}
        </Field>
        <Field label={t('broadcast.type')} error={errorOf('type')}>
          {(props) => (
            <select {...props} {...register('type')}>
              {NOTIFICATION_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`broadcast.type_${type}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset className="boxed-fieldset">
          <legend>{t('broadcast.target')}</legend>
          <label className="row">
            <input type="radio" value="all" {...register('target')} />
            {t('broadcast.target_all')}
          </label>
          <label className="row">
            <input type="radio" value="role" {...register('target')} />
            {t('broadcast.target_role')}
          </label>
          {target === 'role' ? (
            <Field label={t('broadcast.role')} error={errorOf('role')}>
              {(props) => (
                <select {...props} {...register('role')}>
                  {ROLES.map((role) => (
                    <option key={role} value={role}>
                      {t(`broadcast.role_${role}`)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
          <label className="row">
            <input type="radio" value="user" {...register('target')} />
            {t('broadcast.target_user')}
          </label>
          {target === 'user' ? (
            <Field label={t('broadcast.user_id')} error={errorOf('user_id')}>
              {(props) => (
                <input
                  {...props}
                  inputMode="numeric"
                  {...register('user_id', {
                    validate: (value, all) =>
                      all.target !== 'user' || /^[1-9][0-9]{0,9}$/.test(value.trim()) || t('broadcast.user_id_invalid'),
                  })}
                />
              )}
            </Field>
          ) : null}
        </fieldset>
        {error && (unshown || Object.keys(error.errors ?? {}).length === 0) ? <ErrorNotice error={error} /> : null}
        <div className="row">
          <button type="submit" className="primary" disabled={formLoading}>
            {formLoading ? t('broadcast.sending') : t('broadcast.send')}
          </button>
        </div>
      </form>
      <div role="status" className="broadcast-answer">
        {answer ? (
          <p className="notice notice-ok">
            {answer.queued
              ? t('broadcast.queued', { number: number(answer.created), id: answer.broadcast_id ?? '—' })
              : t('broadcast.created', { number: number(answer.created) })}
          </p>
        ) : null}
      </div>
    </section>
  );
}
