import { useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/ui';
import { TextInput, useFieldError } from './fields';
import { EMPTY_FLOOR_PLAN, type ListingFormValues } from './form-values';

/** Title/value rows of `additional_features`: add, edit, remove. */
export function AdditionalFeatures() {
  const { t } = useTranslation();
  const { control } = useFormContext<ListingFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'additional_features' });
  return (
    <div className="stack">
      {fields.length === 0 ? <p className="muted">{t('listings.no_additional_features')}</p> : null}
      {fields.map((row, index) => (
        <div
          key={row.id}
          role="group"
          aria-label={t('listings.additional_feature_n', { position: index + 1 })}
          className="listings-row-item"
        >
          <div className="listings-grid">
            <TextInput name={`additional_features.${index}.title`} label={t('listings.feature_title')} maxLength={200} />
            <TextInput name={`additional_features.${index}.value`} label={t('listings.feature_value')} maxLength={500} />
          </div>
          <button type="button" className="danger" onClick={() => remove(index)}>
            {t('listings.remove_row')}
          </button>
        </div>
      ))}
      <div>
        <button type="button" onClick={() => append({ title: '', value: '' })}>
          {t('listings.add_additional_feature')}
        </button>
      </div>
    </div>
  );
}

/** Rows of `floor_plans` with every field of a floor plan (docs/api.md 4.1). */
export function FloorPlans() {
  const { t } = useTranslation();
  const { control, register } = useFormContext<ListingFormValues>();
  const errorOf = useFieldError();
  const { fields, append, remove } = useFieldArray({ control, name: 'floor_plans' });
  return (
    <div className="stack">
      {fields.length === 0 ? <p className="muted">{t('listings.no_floor_plans')}</p> : null}
      {fields.map((row, index) => (
        <div key={row.id} role="group" aria-label={t('listings.floor_plan_n', { position: index + 1 })} className="listings-row-item">
          <div className="listings-grid">
            <TextInput name={`floor_plans.${index}.title`} label={t('listings.plan_title')} maxLength={200} />
            <TextInput name={`floor_plans.${index}.rooms`} label={t('listings.rooms')} type="number" />
            <TextInput name={`floor_plans.${index}.bathrooms`} label={t('listings.bathrooms')} type="number" />
            <TextInput name={`floor_plans.${index}.price`} label={t('listings.price')} type="number" />
            <TextInput name={`floor_plans.${index}.price_postfix`} label={t('listings.price_postfix')} maxLength={50} />
            <TextInput name={`floor_plans.${index}.size`} label={t('listings.size')} type="number" />
            <TextInput name={`floor_plans.${index}.size_postfix`} label={t('listings.size_postfix')} maxLength={50} />
            <TextInput name={`floor_plans.${index}.image_url`} label={t('listings.plan_image_url')} type="url" maxLength={2000} />
          </div>
          <Field label={t('listings.plan_description')} error={errorOf(`floor_plans.${index}.description`)}>
            {(props) => <textarea {...props} rows={2} maxLength={5000} {...register(`floor_plans.${index}.description`)} />}
          </Field>
          <button type="button" className="danger" onClick={() => remove(index)}>
            {t('listings.remove_floor_plan')}
          </button>
        </div>
      ))}
      <div>
        <button type="button" onClick={() => append({ ...EMPTY_FLOOR_PLAN })}>
          {t('listings.add_floor_plan')}
        </button>
      </div>
    </div>
  );
}
