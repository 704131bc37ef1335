import { useLogin } from '@refinedev/core';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { session } from '../../api/session';
import { Field } from '../../components/ui';
import { LanguageSwitch } from '../../layout/LanguageSwitch';
import { type Provider, providerAnswer, providerSignInUrl, type SocialConfig } from './social';

export function SignIn() {
  const { t } = useTranslation();
  const { mutate: login, isPending } = useLogin<{ email: string; password: string }>();
  const [error, setError] = useState<string | null>(null);
  const [social, setSocial] = useState<SocialConfig | null>(null);

  useEffect(() => {
    api<SocialConfig>('/social/config')
      .then(setSocial)
      .catch(() => setSocial(null));
    // Back from Google or Facebook with a credential in the fragment: trade it for a session.
    const answer = providerAnswer(window.location.hash);
    if (answer) {
      history.replaceState(null, '', window.location.pathname);
      session
        .signInWith(answer.provider, answer.credential)
        .then(() => window.location.replace('/console/'))
        .catch(() => setError(t('auth.social_failed', { provider: answer.provider })));
    }
  }, [t]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    login(
      { email: String(form.get('login')), password: String(form.get('password')) },
      { onSuccess: (result) => setError(result.success ? null : (result.error?.message ?? null)) },
    );
  };
  const go = (provider: Provider) => {
    if (social) window.location.assign(providerSignInUrl(provider, social, window.location.origin));
  };

  return (
    <AuthFrame title={t('auth.sign_in_title')}>
      <form onSubmit={submit} className="stack" noValidate>
        <Field label={t('auth.login')}>{(props) => <input {...props} name="login" autoComplete="username" required />}</Field>
        <Field label={t('auth.password')}>
          {(props) => <input {...props} name="password" type="password" autoComplete="current-password" required />}
        </Field>
        {error ? (
          <p className="notice notice-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={isPending}>
          {isPending ? t('auth.signing_in') : t('auth.sign_in')}
        </button>
      </form>
      {social?.google.enabled || social?.facebook.enabled ? (
        <div className="stack social">
          <p className="muted">{t('auth.or')}</p>
          {social.google.enabled ? (
            <button type="button" onClick={() => go('google')}>
              {t('auth.with_google')}
            </button>
          ) : null}
          {social.facebook.enabled ? (
            <button type="button" onClick={() => go('facebook')}>
              {t('auth.with_facebook')}
            </button>
          ) : null}
        </div>
      ) : null}
      <p>
        <Link to="/forgot-password">{t('auth.forgot')}</Link>
      </p>
      <p>
        <Link to="/sign-up">{t('auth.no_account')}</Link>
      </p>
    </AuthFrame>
  );
}

/** The frame of the pages shown before signing in: title, language switch, a card. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="auth-page" id="main">
      <div className="auth-card">
        <div className="auth-head">
          <p className="brand">{t('common.app_name')}</p>
          <LanguageSwitch />
        </div>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
