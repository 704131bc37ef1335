import type { HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from '../../components/ui';
import { AlertFieldset } from './AlertFieldset';
import { type AlertFields, createBody, DEFAULT_ALERTS } from './query';
import type { SavedSearch } from './types';

/** The form of "Save this search" (SaveSearchButton): a name and the alerts, saved as a saved search of `savable`. */
export default function SaveSearchForm({
  id,
  savable,
  onSaved,
  onCancel,
}: {
  id: string;
  savable: Record<string, string>;
  onSaved: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
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
        reset(DEFAULT_ALERTS);
        onSaved(answer.data.name);
      },
    },
  });

  // The form opened: its first field takes the focus.
  useEffect(() => {
    setFocus('name');
  }, [setFocus]);

  // The API's body, not the form's values: the alert fields keep their names, so field errors still land on them.
  const submit = handleSubmit((values) => void onFinish(createBody(values, savable) as unknown as AlertFields));

  return (
    <form id={id} className="saved-searches-popover stack" onSubmit={(event) => void submit(event)} noValidate>
      <AlertFieldset register={register} errors={errors} />
      <ErrorNotice error={mutation.error} />
      <div className="row">
        <button type="submit" className="primary" disabled={formLoading}>
          {formLoading ? t('common.saving') : t('saved-searches.submit')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
