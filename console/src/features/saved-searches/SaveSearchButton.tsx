import type { HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ui';
import { AlertFieldset } from './AlertFieldset';
import { type AlertFields, createBody, DEFAULT_ALERTS, savableQuery } from './query';
import './saved-searches.css';
import type { SavedSearch } from './types';

/**
 * "Save this search" beside a search page's filters: opens a small form (name, alert frequency, e-mail) and saves
 * `query` — the page's search parameters; empty ones and paging are left out. Disabled while no filter is set.
 */
export function SaveSearchButton({ query }: { query: Record<string, string> }) {
  const { t } = useTranslation();
  const panelId = useId();
  const hintId = useId();
  const [open, setOpen] = useState(false);
  const [savedName, setSavedName] = useState<string | null>(null);
  const savable = savableQuery(query);
  const empty = Object.keys(savable).length === 0;
  const {
    register,
    handleSubmit,
    reset,
    setFocus,
    formState: { errors },
    refineCore: { onFinish, formLoading, mutation },
  } = useForm<SavedSearch, HttpError, AlertFields>({
    defaultValues: DEFAULT_ALERTS,
    refineCoreProps: {
      resource: 'saved-searches',
      action: 'create',
      redirect: false,
      successNotification: false,
      errorNotification: false,
      onMutationSuccess: (answer) => {
        setSavedName(answer.data.name);
        setOpen(false);
        reset(DEFAULT_ALERTS);
      },
    },
  });

  // The form opened: its first field takes the focus.
  useEffect(() => {
    if (open) setFocus('name');
  }, [open, setFocus]);

  // The API's body, not the form's values: the alert fields keep their names, so field errors still land on them.
  const submit = handleSubmit((values) => void onFinish(createBody(values, savable) as unknown as AlertFields));

  return (
    <div className="saved-searches-save">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-describedby={empty ? hintId : undefined}
        disabled={empty}
        onClick={() => {
          setSavedName(null);
          setOpen((was) => !was);
        }}
      >
        {t('saved-searches.save_this')}
      </button>
      {empty ? (
        <small id={hintId} className="muted">
          {t('saved-searches.empty_query')}
        </small>
      ) : null}
      <div role="status">
        {savedName !== null ? (
          <p className="notice notice-ok">
            {t('saved-searches.created', { name: savedName })} <Link to="/saved-searches">{t('saved-searches.view_saved')}</Link>
          </p>
        ) : null}
      </div>
      {open ? (
        <form id={panelId} className="saved-searches-popover stack" onSubmit={(event) => void submit(event)} noValidate>
          <AlertFieldset register={register} errors={errors} />
          <ErrorNotice error={mutation.error} />
          <div className="row">
            <button type="submit" className="primary" disabled={formLoading}>
              {formLoading ? t('common.saving') : t('saved-searches.submit')}
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
