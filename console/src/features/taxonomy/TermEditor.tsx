import type { HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorNotice, Field } from '../../components/ui';
import { resourceName, type TaxonomyDefinition, type TermRecord } from './taxonomies';
import { formToTermBody, IMAGE_FIELDS, type TermFormValues } from './term-form';

export interface TermOption {
  id: number;
  label: string;
}

/**
 * Creates or changes one term of `definition` through Refine's form: POST /terms/{taxonomy} or
 * PUT /terms/{taxonomy}/{id}; the API's field messages land beside their fields.
 */
export function TermEditor({
  definition,
  term,
  initial,
  parents,
  places,
  onDone,
  onCancel,
}: {
  definition: TaxonomyDefinition;
  /** The term being changed; absent for a new one. */
  term?: TermRecord;
  initial: TermFormValues;
  /** Terms of the same taxonomy that may be the parent (the term itself and its descendants left out). */
  parents: TermOption[];
  /** Places of the level above, for states, cities and areas. */
  places: TermOption[];
  onDone: (saved: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const mode = term ? 'edit' : 'create';
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
    refineCore: { onFinish, formLoading, mutation },
  } = useForm<TermRecord, HttpError, TermFormValues>({
    defaultValues: initial,
    warnWhenUnsavedChanges: false,
    refineCoreProps: {
      resource: resourceName(definition.name),
      action: mode,
      ...(term ? { id: term.id } : {}),
      redirect: false,
      queryOptions: { enabled: false },
      successNotification: false,
      errorNotification: false,
      onMutationSuccess: (_data, variables) => onDone(String((variables as unknown as { name: string }).name)),
    },
  });
  // The API names fields as its body does (country_id, …): read those too.
  const errorOf = (field: string): string | undefined => (errors as Record<string, { message?: string } | undefined>)[field]?.message;
  const colourSet = watch('color_set');
  // A refused save shows its errors through the form; the rejected promise needs no other handling.
  const submit = handleSubmit((values) =>
    onFinish(formToTermBody(values, definition, mode) as unknown as TermFormValues).catch(() => undefined),
  );
  const error = mutation.error;
  const fieldErrorShown = error?.errors && Object.keys(error.errors).length > 0;
  const kind = t(`taxonomy.${definition.singular}`);
  const title = term ? t('taxonomy.edit_title', { name: term.name }) : t('taxonomy.new_title', { kind });

  return (
    <form className="card stack taxonomy-editor" onSubmit={(event) => void submit(event)} aria-label={title} noValidate>
      <h2>{title}</h2>
      {error && !fieldErrorShown ? <ErrorNotice error={error} /> : null}
      <Field label={t('taxonomy.name')} error={errorOf('name')}>
        {(props) => <input {...props} {...register('name', { required: t('taxonomy.name_required') })} maxLength={200} />}
      </Field>
      <Field label={t('taxonomy.slug')} error={errorOf('slug')} hint={t('taxonomy.slug_hint')}>
        {(props) => <input {...props} {...register('slug')} maxLength={200} />}
      </Field>
      <Field label={t('taxonomy.description')} error={errorOf('description')}>
        {(props) => <textarea {...props} {...register('description')} rows={2} />}
      </Field>
      {definition.location ? (
        <Field label={t(`taxonomy.place_${definition.location.field}`)} error={errorOf(definition.location.field)}>
          {(props) => (
            <select {...props} {...register('location_parent')}>
              <option value="">{t('common.none')}</option>
              {places.map((place) => (
                <option key={place.id} value={String(place.id)}>
                  {place.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      <Field label={t('taxonomy.parent')} error={errorOf('parent')}>
        {(props) => (
          <select {...props} {...register('parent')}>
            <option value="0">{t('taxonomy.top_level')}</option>
            {parents.map((parent) => (
              <option key={parent.id} value={String(parent.id)}>
                {parent.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {definition.coloured ? (
        <fieldset className="boxed-fieldset">
          <legend>{t('taxonomy.colour')}</legend>
          <label className="row">
            <input type="checkbox" {...register('color_set')} />
            {t('taxonomy.has_colour')}
          </label>
          <Field label={t('taxonomy.colour_value')} error={errorOf('color')}>
            {(props) => <input {...props} type="color" disabled={!colourSet} {...register('color')} />}
          </Field>
        </fieldset>
      ) : null}
      {definition.place ? (
        <fieldset className="boxed-fieldset">
          <legend>{t('taxonomy.centre')}</legend>
          <p className="muted">{t('taxonomy.centre_hint')}</p>
          <div className="row">
            <Field label={t('taxonomy.latitude')} error={errorOf('latitude')}>
              {(props) => <input {...props} type="number" inputMode="decimal" step="any" min={-90} max={90} {...register('latitude')} />}
            </Field>
            <Field label={t('taxonomy.longitude')} error={errorOf('longitude')}>
              {(props) => <input {...props} type="number" inputMode="decimal" step="any" min={-180} max={180} {...register('longitude')} />}
            </Field>
          </div>
        </fieldset>
      ) : null}
      {definition.images
        ? IMAGE_FIELDS.map((field) => (
            <Field key={field} label={t(`taxonomy.${field}`)} error={errorOf(field)}>
              {(props) => <input {...props} type="url" inputMode="url" {...register(field)} placeholder="https://" />}
            </Field>
          ))
        : null}
      <div className="row">
        <button type="submit" className="primary" disabled={formLoading}>
          {formLoading ? t('common.saving') : term ? t('common.save') : t('taxonomy.create')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
