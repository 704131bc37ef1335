import { useForgotPassword, useUpdatePassword } from '@refinedev/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Field } from '../../components/ui';
import { AuthFrame } from './SignIn';

/** Asks for the reset mail; the answer is the same whether or not the address has an account (no enumeration). */
export function ForgotPassword() {
  const { t } = useTranslation();
  const { mutate, isPending } = useForgotPassword<{ email: string }>();
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email'));
    mutate(
      { email },
      {
        onSuccess: (result) => {
          setSent(result.success);
          setError(result.success ? null : (result.error?.message ?? null));
        },
      },
    );
  };
  return (
    <AuthFrame title={t('auth.forgot_title')}>
      {sent ? (
        <p role="status">{t('auth.link_sent')}</p>
      ) : (
        <form onSubmit={submit} className="stack">
          <p>{t('auth.forgot_text')}</p>
          <Field label={t('auth.email')}>{(props) => <input {...props} name="email" type="email" autoComplete="email" required />}</Field>
          {error ? (
            <p className="notice notice-error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit" className="primary" disabled={isPending}>
            {t('auth.send_link')}
          </button>
        </form>
      )}
      <p>
        <Link to="/login">{t('auth.back_to_sign_in')}</Link>
      </p>
    </AuthFrame>
  );
}

/** The page the reset mail links to (`/console/reset-password?token=…`): sets the new password. */
export function ResetPassword() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const { mutate, isPending } = useUpdatePassword<{ token: string; password: string }>();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    if (password !== String(form.get('repeat'))) {
      setError(t('auth.passwords_differ'));
      return;
    }
    mutate(
      { token: token ?? '', password },
      {
        onSuccess: (result) => {
          setDone(result.success);
          setError(result.success ? null : (result.error?.message ?? null));
        },
      },
    );
  };
  return (
    <AuthFrame title={t('auth.reset_title')}>
      {!token ? (
        <p className="notice notice-error">{t('auth.missing_token')}</p>
      ) : done ? (
        <p role="status">{t('auth.password_set')}</p>
      ) : (
        <form onSubmit={submit} className="stack">
          <Field label={t('auth.new_password')}>
            {(props) => (
              <input {...props} name="password" type="password" minLength={8} maxLength={128} autoComplete="new-password" required />
            )}
          </Field>
          <Field label={t('auth.repeat_password')}>
            {(props) => (
              <input {...props} name="repeat" type="password" minLength={8} maxLength={128} autoComplete="new-password" required />
            )}
          </Field>
          {error ? (
            <p className="notice notice-error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit" className="primary" disabled={isPending}>
            {t('auth.set_password')}
          </button>
        </form>
      )}
      <p>
        <Link to="/login">{t('auth.back_to_sign_in')}</Link>
      </p>
    </AuthFrame>
  );
}
