import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { session } from '../../api/session';
import { Field } from '../../components/ui';
import { toHttpError } from '../../refine/data-provider';
import { AuthFrame } from './SignIn';

/** Roles a person may choose when signing up (the API's REGISTRATION_ROLES; docs/api.md 0.3). */
const SELF_SERVICE_ROLES = ['buyer', 'seller', 'owner', 'agent', 'agency'] as const;

/** Signing up with one of the self-service roles; the new account is signed in. */
export function SignUp() {
  const { t } = useTranslation();
  return (
    <AuthFrame title={t('auth.sign_up_title')}>
      <AccountForm submitLabel={t('auth.sign_up')} send={(fields) => session.signUp(fields)}>
        <Field label={t('auth.role')}>
          {(props) => (
            <select {...props} name="role" defaultValue="buyer">
              {SELF_SERVICE_ROLES.map((role) => (
                <option key={role} value={role}>
                  {t(`common.role_${role}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </AccountForm>
      <p>
        <Link to="/login">{t('auth.have_account')}</Link>
      </p>
    </AuthFrame>
  );
}

/**
 * The first run's set-up page (`/console/setup#token=…`, the link `serve` prints while no administrator exists):
 * creates the first administrator and signs in. The token travels in the fragment, which no server log sees.
 */
export function FirstRun() {
  const { t } = useTranslation();
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token'));
  return (
    <AuthFrame title={t('auth.setup_title')}>
      {token ? (
        <>
          <p>{t('auth.setup_text')}</p>
          <AccountForm submitLabel={t('auth.setup_submit')} send={(fields) => session.setUp({ ...fields, token })} />
        </>
      ) : (
        <p className="notice notice-error">{t('auth.setup_missing_token')}</p>
      )}
    </AuthFrame>
  );
}

/** Username, e-mail and a password typed twice, sent by `send`; on success the console opens signed in. */
function AccountForm({
  submitLabel,
  send,
  children,
}: {
  submitLabel: string;
  send: (fields: Record<string, string>) => Promise<unknown>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<{ message: string; fields: string[] } | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (form.get('password') !== form.get('repeat')) {
      setError({ message: t('auth.passwords_differ'), fields: [] });
      return;
    }
    form.delete('repeat');
    const fields = Object.fromEntries([...form.entries()].map(([name, value]) => [name, String(value)]));
    setPending(true);
    setError(null);
    try {
      await send({ ...fields, session: 'cookie' });
      window.location.replace('/console/');
    } catch (failure) {
      const { message, errors } = toHttpError(failure);
      setError({ message, fields: Object.entries(errors ?? {}).map(([field, text]) => `${field}: ${String(text)}`) });
      setPending(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} className="stack">
      <Field label={t('auth.username')} hint={t('auth.username_hint')}>
        {(props) => <input {...props} name="username" pattern="[A-Za-z0-9_.\-]{3,60}" autoComplete="username" required />}
      </Field>
      <Field label={t('auth.email')}>{(props) => <input {...props} name="email" type="email" autoComplete="email" required />}</Field>
      {children}
      <Field label={t('auth.new_password')}>
        {(props) => <input {...props} name="password" type="password" minLength={8} maxLength={128} autoComplete="new-password" required />}
      </Field>
      <Field label={t('auth.repeat_password')}>
        {(props) => <input {...props} name="repeat" type="password" minLength={8} maxLength={128} autoComplete="new-password" required />}
      </Field>
      {error ? (
        <div className="notice notice-error" role="alert">
          <p>{error.message}</p>
          {error.fields.length > 0 ? (
            <ul>
              {error.fields.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <button type="submit" className="primary" disabled={pending}>
        {submitLabel}
      </button>
    </form>
  );
}
