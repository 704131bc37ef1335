import type { AnswerData } from '@realty-api/client';
import { type HttpError, useCustomMutation, useInvalidate, useInvalidateAuthStore } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { session } from '../../api/session';
import { ErrorNotice, Field, isForbidden, Forbidden, Loading, PageHeader } from '../../components/ui';
import {
  AVATAR_TYPES,
  avatarProblem,
  emailChanged,
  type PasswordFormValues,
  passwordBody,
  PROFILE_LANGUAGES,
  profileChanges,
  type ProfileFormValues,
  type ProfileRecord,
  profileToForm,
} from './profile-form';
import { DeleteAccountCard } from './DeleteAccountCard';
import './profile.css';

/** Refreshes the header's name and picture after a change of the profile. */
function useIdentityRefresh() {
  const invalidateAuth = useInvalidateAuthStore();
  return async () => {
    await session.reloadIdentity().catch(() => undefined);
    await invalidateAuth();
  };
}

/** The caller's own account: details, picture, password, and deleting it. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const {
    refineCore: { query, onFinish, formLoading },
    register,
    handleSubmit,
    watch,
    setValue,
    formState: { errors },
  } = useForm<ProfileRecord, HttpError, ProfileFormValues>({
    defaultValues: profileToForm(undefined),
    refineCoreProps: {
      resource: 'profile',
      action: 'edit',
      id: 'me',
      redirect: false,
      successNotification: false,
      errorNotification: false,
    },
    warnWhenUnsavedChanges: false,
  });
  const refreshIdentity = useIdentityRefresh();
  const [saved, setSaved] = useState<'saved' | 'unchanged' | null>(null);
  const profile = query?.data?.data;
  const askCurrent = profile !== undefined && emailChanged(watch('email') ?? '', profile);

  if (query?.isLoading) return <Loading />;
  if (isForbidden(query?.error)) return <Forbidden />;

  const submit = handleSubmit(async (values) => {
    setSaved(null);
    const body = profileChanges(values, profile);
    if (Object.keys(body).length === 0) {
      setSaved('unchanged');
      return;
    }
    try {
      await onFinish(body as ProfileFormValues);
      setValue('current_password', '');
      await refreshIdentity();
      setSaved('saved');
    } catch {
      // The API's field messages are on their fields (formState.errors); the rest shows below the form.
    }
  });

  return (
    <section className="profile-page">
      <PageHeader title={t('profile.title')} />
      <ErrorNotice error={query?.error} onRetry={() => void query?.refetch()} />
      {profile ? <p className="muted">{t('profile.signed_in_as', { username: profile.username, role: profile.role })}</p> : null}

      <div className="profile-grid">
        <form className="card stack" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="profile-details">
          <h2 id="profile-details">{t('profile.details')}</h2>
          <div className="profile-two">
            <Field label={t('profile.first_name')} error={errors.first_name?.message}>
              {(props) => <input {...props} autoComplete="given-name" {...register('first_name')} />}
            </Field>
            <Field label={t('profile.last_name')} error={errors.last_name?.message}>
              {(props) => <input {...props} autoComplete="family-name" {...register('last_name')} />}
            </Field>
          </div>
          <Field label={t('profile.display_name')} error={errors.display_name?.message}>
            {(props) => <input {...props} {...register('display_name', { required: t('profile.required') })} />}
          </Field>
          <Field label={t('profile.email')} error={errors.email?.message}>
            {(props) => <input {...props} type="email" autoComplete="email" {...register('email', { required: t('profile.required') })} />}
          </Field>
          {askCurrent ? (
            <Field
              label={t('profile.current_password')}
              error={errors.current_password?.message}
              hint={t('profile.current_password_for_email')}
            >
              {(props) => (
                <input
                  {...props}
                  type="password"
                  autoComplete="current-password"
                  {...register('current_password', { validate: (value) => (askCurrent && !value ? t('profile.required') : true) })}
                />
              )}
            </Field>
          ) : null}
          <div className="profile-two">
            <Field label={t('profile.phone')} error={errors.phone?.message}>
              {(props) => <input {...props} type="tel" autoComplete="tel" {...register('phone')} />}
            </Field>
            <Field label={t('profile.mobile')} error={errors.mobile?.message}>
              {(props) => <input {...props} type="tel" {...register('mobile')} />}
            </Field>
          </div>
          <Field label={t('profile.whatsapp')} error={errors.whatsapp?.message}>
            {(props) => <input {...props} type="tel" {...register('whatsapp')} />}
          </Field>
          <Field label={t('profile.website')} error={errors.website?.message} hint={t('profile.website_hint')}>
            {(props) => <input {...props} type="url" autoComplete="url" {...register('website')} />}
          </Field>
          <Field label={t('profile.bio')} error={errors.bio?.message}>
            {(props) => <textarea {...props} rows={4} maxLength={5000} {...register('bio')} />}
          </Field>
          <Field label={t('profile.language')} error={errors.language?.message}>
            {(props) => (
              <select {...props} {...register('language')}>
                {PROFILE_LANGUAGES.map((code) => (
                  <option key={code} value={code}>
                    {t(`profile.language_${code || 'none'}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div className="row">
            <button type="submit" className="primary" disabled={formLoading}>
              {formLoading ? t('common.saving') : t('profile.save_profile')}
            </button>
          </div>
          <div role="status">
            {saved === 'saved' ? <p className="notice notice-ok">{t('profile.profile_saved')}</p> : null}
            {saved === 'unchanged' ? <p className="muted">{t('profile.nothing_changed')}</p> : null}
          </div>
        </form>

        <div className="stack">
          <AvatarCard profile={profile} />
          <PasswordCard />
          <DeleteAccountCard />
        </div>
      </div>
    </section>
  );
}

function AvatarCard({ profile }: { profile: ProfileRecord | undefined }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  // A new key empties the file input after an upload.
  const [inputKey, setInputKey] = useState(0);
  const { mutate, mutation } = useCustomMutation<AnswerData<'/realty-api/v1/users/upload-avatar', 'post'>>();
  const invalidate = useInvalidate();
  const refreshIdentity = useIdentityRefresh();

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    setDone(false);
    const why = chosen ? avatarProblem(chosen) : null;
    setProblem(why === 'type' ? t('profile.avatar_type') : why === 'size' ? t('profile.avatar_size') : null);
    setFile(why ? null : chosen);
  };

  const upload = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    const form = new FormData();
    form.append('avatar', file);
    setProblem(null);
    mutate(
      { url: '/users/upload-avatar', method: 'post', values: form as never, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          setFile(null);
          setInputKey((key) => key + 1);
          setDone(true);
          void invalidate({ resource: 'profile', invalidates: ['detail'], id: 'me' });
          void refreshIdentity();
        },
        onError: (error: HttpError) => {
          setProblem(
            error.statusCode === 415 ? t('profile.avatar_type') : error.statusCode === 413 ? t('profile.avatar_size') : error.message,
          );
        },
      },
    );
  };

  const current = preview ?? (profile?.avatar_url || null);
  return (
    <form className="card stack" onSubmit={upload} aria-labelledby="profile-avatar">
      <h2 id="profile-avatar">{t('profile.avatar')}</h2>
      <div className="profile-avatar-row">
        {current ? (
          <img className="profile-avatar" src={current} alt={preview ? t('profile.avatar_preview') : t('profile.avatar_current')} />
        ) : (
          <span className="profile-avatar image-placeholder profile-avatar-empty">{t('profile.no_avatar')}</span>
        )}
        <Field label={t('profile.choose_avatar')} error={problem ?? undefined} hint={t('profile.avatar_hint')}>
          {(props) => <input {...props} key={inputKey} type="file" accept={AVATAR_TYPES.join(',')} onChange={choose} />}
        </Field>
      </div>
      <div className="row">
        <button type="submit" className="primary" disabled={!file || mutation.isPending}>
          {mutation.isPending ? t('common.saving') : t('profile.upload_avatar')}
        </button>
      </div>
      <div role="status">{done ? <p className="notice notice-ok">{t('profile.avatar_saved')}</p> : null}</div>
    </form>
  );
}

function PasswordCard() {
  const { t } = useTranslation();
  const [done, setDone] = useState(false);
  const {
    refineCore: { onFinish, formLoading },
    register,
    handleSubmit,
    reset,
    getValues,
    formState: { errors },
  } = useForm<ProfileRecord, HttpError, PasswordFormValues>({
    defaultValues: { password: '', confirm_password: '', current_password: '' },
    refineCoreProps: {
      resource: 'profile',
      action: 'edit',
      id: 'me',
      redirect: false,
      queryOptions: { enabled: false },
      successNotification: false,
      errorNotification: false,
    },
    warnWhenUnsavedChanges: false,
  });

  const submit = handleSubmit(async (values) => {
    setDone(false);
    try {
      await onFinish(passwordBody(values) as PasswordFormValues);
      reset({ password: '', confirm_password: '', current_password: '' });
      setDone(true);
    } catch {
      // Field messages are shown on their fields.
    }
  });

  return (
    <form className="card stack" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="profile-password">
      <h2 id="profile-password">{t('profile.change_password')}</h2>
      <Field label={t('profile.current_password')} error={errors.current_password?.message}>
        {(props) => (
          <input
            {...props}
            type="password"
            autoComplete="current-password"
            {...register('current_password', { required: t('profile.required') })}
          />
        )}
      </Field>
      <Field label={t('profile.new_password')} error={errors.password?.message} hint={t('profile.password_hint')}>
        {(props) => (
          <input
            {...props}
            type="password"
            autoComplete="new-password"
            {...register('password', {
              required: t('profile.required'),
              minLength: { value: 8, message: t('profile.password_hint') },
              maxLength: { value: 128, message: t('profile.password_hint') },
            })}
          />
        )}
      </Field>
      <Field label={t('profile.confirm_password')} error={errors.confirm_password?.message}>
        {(props) => (
          <input
            {...props}
            type="password"
            autoComplete="new-password"
            {...register('confirm_password', {
              validate: (value) => value === getValues('password') || t('profile.passwords_differ'),
            })}
          />
        )}
      </Field>
      <div className="row">
        <button type="submit" className="primary" disabled={formLoading}>
          {formLoading ? t('common.saving') : t('profile.change_password')}
        </button>
      </div>
      <div role="status">{done ? <p className="notice notice-ok">{t('profile.password_saved')}</p> : null}</div>
    </form>
  );
}
