import { type HttpError, useCustomMutation, useLogout } from '@refinedev/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice, Field } from '../../components/ui';

/** Deleting one's own account (DELETE /users/delete-profile), behind a second step that asks for the password. */
export function DeleteAccountCard() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [deleted, setDeleted] = useState(false);
  const { mutate, mutation } = useCustomMutation();
  const { mutate: logout } = useLogout();

  // The account's sessions went with it: the sign-out forgets this tab's session and shows the sign-in page.
  useEffect(() => {
    if (deleted) logout();
  }, [deleted, logout]);
  const error = mutation.error as HttpError | null;
  const fieldError = typeof error?.errors?.password === 'string' ? error.errors.password : undefined;

  const remove = (event: FormEvent) => {
    event.preventDefault();
    mutate(
      {
        url: '/users/delete-profile',
        method: 'delete',
        values: password ? { password } : {},
        successNotification: false,
        errorNotification: false,
      },
      { onSuccess: () => setDeleted(true) },
    );
  };

  return (
    <section className="card stack profile-danger" aria-labelledby="profile-delete">
      <h2 id="profile-delete">{t('profile.delete_account')}</h2>
      <p>{t('profile.delete_explained')}</p>
      {deleted ? (
        <p className="notice notice-ok" role="status">
          {t('profile.deleted')}
        </p>
      ) : !open ? (
        <div className="row">
          <button type="button" className="danger" onClick={() => setOpen(true)}>
            {t('profile.delete_account')}
          </button>
        </div>
      ) : (
        <form className="stack" onSubmit={remove}>
          <Field label={t('profile.delete_password')} error={fieldError} hint={t('profile.delete_password_hint')}>
            {(props) => (
              <input
                {...props}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            )}
          </Field>
          {error && !fieldError ? <ErrorNotice error={error} /> : null}
          <div className="row">
            <button type="submit" className="danger" disabled={mutation.isPending}>
              {t('profile.delete_for_good')}
            </button>
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                setPassword('');
                mutation.reset();
              }}
            >
              {t('common.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
