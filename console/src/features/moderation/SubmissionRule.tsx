import type { Schemas } from '@realty-api/client';
import { type HttpError, useGetIdentity, useOne, useUpdate } from '@refinedev/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Identity } from '../../api/session';
import { ErrorNotice } from '../../components/ui';
import { SUBMISSION_FIELD_LABELS } from '../listings/form/submission';

/** The fields an administrator may require (the site settings' `submission_fields`, docs/api.md 14); the title always is. */
const FIELDS = Object.keys(SUBMISSION_FIELD_LABELS).filter((field) => field !== 'title');

/**
 * What a listing needs before it is submitted for approval (PUT /site-settings `submission_fields`), for
 * administrators: the API refuses a submission without them, naming each; none are required by default.
 */
export function SubmissionRule() {
  const { t } = useTranslation();
  const { data: identity } = useGetIdentity<Identity>();
  const isAdministrator = identity?.role === 'administrator';
  const { result: settings } = useOne<Pick<Schemas['SiteSettings'], 'submission_fields'>>({
    resource: 'site-settings',
    id: 'current',
    queryOptions: { enabled: isAdministrator },
  });
  const { mutate, mutation } = useUpdate<{ submission_fields: string[] }, HttpError>();
  const [chosen, setChosen] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<{ saved: boolean; error?: HttpError } | null>(null);
  const stored = settings?.submission_fields;
  useEffect(() => {
    if (stored) setChosen(stored);
  }, [stored]);
  if (!isAdministrator) return null;

  const toggle = (field: string, on: boolean) => setChosen((current) => (on ? [...current, field] : current.filter((f) => f !== field)));
  const save = (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    mutate(
      {
        resource: 'site-settings',
        id: 'current',
        // In the order of the list, so that the stored setting reads the same whatever the clicks' order.
        values: { submission_fields: FIELDS.filter((field) => chosen.includes(field)) },
        successNotification: false,
        errorNotification: false,
      },
      { onSuccess: () => setOutcome({ saved: true }), onError: (error) => setOutcome({ saved: false, error }) },
    );
  };

  return (
    <form className="card stack moderation-rule" onSubmit={save} aria-labelledby="moderation-rule-heading">
      <h2 id="moderation-rule-heading">{t('moderation.rule_title')}</h2>
      <p className="muted">{t('moderation.rule_intro')}</p>
      <fieldset className="moderation-rule-fields">
        <legend className="visually-hidden">{t('moderation.rule_title')}</legend>
        {FIELDS.map((field) => (
          <label key={field}>
            <input type="checkbox" checked={chosen.includes(field)} onChange={(event) => toggle(field, event.target.checked)} />
            <span>{t(SUBMISSION_FIELD_LABELS[field]!)}</span>
          </label>
        ))}
      </fieldset>
      <div className="row">
        <button type="submit" className="primary" disabled={mutation.isPending || !stored}>
          {t('moderation.rule_save')}
        </button>
        <span role="status">{outcome?.saved ? t('common.saved') : ''}</span>
      </div>
      {outcome?.error ? <ErrorNotice error={outcome.error} /> : null}
    </form>
  );
}
