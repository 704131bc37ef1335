import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../components/ui';
import { type AlertFields, FREQUENCIES } from './query';

/** Name, alert frequency and e-mail switch of a saved search: shared by the "save a search" page and SaveSearchButton. */
export function AlertFieldset<T extends AlertFields>({
  register,
  errors,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<AlertFields>;
}) {
  const { t } = useTranslation();
  // The form's values extend AlertFields, so these three names are fields of it.
  const reg = register as unknown as UseFormRegister<AlertFields>;
  return (
    <>
      <Field label={t('saved-searches.name')} hint={t('saved-searches.name_hint')} error={errors.name?.message}>
        {(props) => <input {...props} {...reg('name')} maxLength={200} />}
      </Field>
      <Field label={t('saved-searches.frequency')} error={errors.frequency?.message}>
        {(props) => (
          <select {...props} {...reg('frequency')}>
            {FREQUENCIES.map((frequency) => (
              <option key={frequency} value={frequency}>
                {t(`saved-searches.frequency_${frequency}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="saved-searches-check">
        <label>
          <input type="checkbox" {...reg('email_alerts')} /> {t('saved-searches.email_alerts')}
        </label>
        {errors.email_alerts?.message ? <small className="field-error">{errors.email_alerts.message}</small> : null}
      </div>
    </>
  );
}
