import { type HttpError, useList } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ErrorNotice, Field, PageHeader } from '../../components/ui';
import { AlertFieldset } from './AlertFieldset';
import { MatchAlert } from './MatchAlert';
import { createBody, DEFAULT_ALERTS, EMPTY_SEARCH, type SaveSearchFormValues, searchProblem, searchQuery } from './query';
import './saved-searches.css';
import type { SavedSearch, Term } from './types';

const BEDROOMS = [1, 2, 3, 4, 5];

/** The terms of one listing endpoint for a picker (all of them: the lists are short). */
function useTerms(resource: string) {
  const { result } = useList<Term>({ resource, pagination: { mode: 'off' } });
  return result.data;
}

/** Saves a search from a name, its filters (keyword, type, status, city, price range, bedrooms) and how alerts go out. */
export default function NewSavedSearchPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<'empty_query' | null>(null);
  const types = useTerms('saved-searches-types');
  const statuses = useTerms('saved-searches-statuses');
  const cities = useTerms('saved-searches-cities');
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
    refineCore: { onFinish, formLoading, mutation },
  } = useForm<SavedSearch, HttpError, SaveSearchFormValues>({
    defaultValues: { ...DEFAULT_ALERTS, query: { ...EMPTY_SEARCH } },
    refineCoreProps: {
      resource: 'saved-searches',
      action: 'create',
      redirect: false,
      successNotification: false,
      errorNotification: false,
      onMutationSuccess: (answer) => void navigate('/saved-searches', { state: { created: answer.data.name } }),
    },
  });

  const submit = handleSubmit((values) => {
    const found = searchProblem(values.query);
    if (found === 'price_range') {
      setError('query.min_price', { message: t('saved-searches.price_range') });
      return;
    }
    setProblem(found);
    if (found) return;
    // The API's body, not the form's shape: its field errors (`query.keyword`, `name`) still match the form's names.
    void onFinish(createBody(values, searchQuery(values.query)) as unknown as SaveSearchFormValues);
  });

  const queryErrors = errors.query;
  return (
    <section>
      <PageHeader title={t('saved-searches.new_title')}>
        <Link to="/saved-searches">{t('saved-searches.back')}</Link>
      </PageHeader>
      <MatchAlert />
      <form className="saved-searches-form stack" onSubmit={(event) => void submit(event)} noValidate>
        <fieldset className="saved-searches-fieldset">
          <legend>{t('saved-searches.criteria')}</legend>
          <div className="saved-searches-grid">
            <Field label={t('saved-searches.keyword')} error={queryErrors?.keyword?.message}>
              {(props) => <input {...props} type="search" maxLength={200} {...register('query.keyword')} />}
            </Field>
            <Field label={t('saved-searches.type')} error={queryErrors?.type?.message}>
              {(props) => (
                <select {...props} {...register('query.type')}>
                  <option value="">{t('saved-searches.any')}</option>
                  {types.map((term) => (
                    <option key={term.id} value={term.slug}>
                      {term.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('saved-searches.status')} error={queryErrors?.status?.message}>
              {(props) => (
                <select {...props} {...register('query.status')}>
                  <option value="">{t('saved-searches.any')}</option>
                  {statuses.map((term) => (
                    <option key={term.id} value={term.slug}>
                      {term.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('saved-searches.city')} error={queryErrors?.city?.message}>
              {(props) => (
                <select {...props} {...register('query.city')}>
                  <option value="">{t('saved-searches.any')}</option>
                  {cities.map((term) => (
                    <option key={term.id} value={term.slug}>
                      {term.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('saved-searches.min_price')} error={queryErrors?.min_price?.message}>
              {(props) => <input {...props} type="number" min={0} step="any" inputMode="numeric" {...register('query.min_price')} />}
            </Field>
            <Field label={t('saved-searches.max_price')} error={queryErrors?.max_price?.message}>
              {(props) => <input {...props} type="number" min={0} step="any" inputMode="numeric" {...register('query.max_price')} />}
            </Field>
            <Field label={t('saved-searches.min_beds')} error={queryErrors?.min_beds?.message}>
              {(props) => (
                <select {...props} {...register('query.min_beds')}>
                  <option value="">{t('saved-searches.any')}</option>
                  {BEDROOMS.map((count) => (
                    <option key={count} value={String(count)}>
                      {t('saved-searches.beds_or_more', { count })}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        </fieldset>
        <fieldset className="saved-searches-fieldset">
          <legend>{t('saved-searches.alerts')}</legend>
          <div className="saved-searches-grid">
            <AlertFieldset register={register} errors={errors} />
          </div>
        </fieldset>
        {problem ? (
          <p className="notice notice-error" role="alert">
            {t(`saved-searches.${problem}`)}
          </p>
        ) : null}
        <ErrorNotice error={mutation.error} />
        <div className="row">
          <button type="submit" className="primary" disabled={formLoading}>
            {formLoading ? t('common.saving') : t('saved-searches.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
