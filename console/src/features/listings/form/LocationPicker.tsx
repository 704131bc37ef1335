import { useTranslation } from 'react-i18next';
import { Controller, type FieldPath, useFormContext, useWatch } from 'react-hook-form';
import { Field } from '../../../components/ui';
import { TERM_RESOURCES } from '../resources';
import type { TermRecord } from '../types';
import { useFieldError } from './fields';
import type { ListingFormValues } from './form-values';
import { useTerms } from './TermPickers';

type Level = 'country' | 'state' | 'city' | 'area';

/** Each level, the term listing of its options, and the filter naming its parent level (docs/api.md 1.2). */
const LEVELS: { level: Level; resource: string; parentFilter?: string; parent?: Level }[] = [
  { level: 'country', resource: TERM_RESOURCES.countries.name },
  { level: 'state', resource: TERM_RESOURCES.states.name, parentFilter: 'country', parent: 'country' },
  { level: 'city', resource: TERM_RESOURCES.cities.name, parentFilter: 'state', parent: 'state' },
  { level: 'area', resource: TERM_RESOURCES.areas.name, parentFilter: 'city', parent: 'city' },
];

/**
 * Country, state, city and area as chained selects: each level lists the terms under the level above when
 * one is chosen (the term listings' `country`/`state`/`city` filters), every term otherwise; choosing a
 * place clears the levels below it.
 */
export function LocationPicker() {
  const { control } = useFormContext<ListingFormValues>();
  const values = useWatch({ control, name: ['country', 'state', 'city'] });
  const chosen: Record<string, string> = { country: values[0], state: values[1], city: values[2] };
  return (
    <div className="listings-grid">
      {LEVELS.map(({ level, resource, parentFilter, parent }) => (
        <PlaceSelect
          key={level}
          level={level}
          resource={resource}
          query={parentFilter && parent && chosen[parent] ? { [parentFilter]: chosen[parent] } : {}}
        />
      ))}
    </div>
  );
}

const BELOW: Record<Level, Level[]> = { country: ['state', 'city', 'area'], state: ['city', 'area'], city: ['area'], area: [] };

function PlaceSelect({ level, resource, query }: { level: Level; resource: string; query: Record<string, string> }) {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<ListingFormValues>();
  const errorOf = useFieldError();
  const { terms, loading } = useTerms(resource, query);
  return (
    <Controller
      control={control}
      name={level as FieldPath<ListingFormValues>}
      render={({ field }) => {
        const value = String(field.value ?? '');
        // The chosen place stays an option while the list loads or when it lies outside the filter.
        const options: TermRecord[] =
          value !== '' && !terms.some((term) => String(term.id) === value)
            ? [{ id: Number(value), name: loading ? t('common.loading') : `#${value}`, slug: '', parent: 0 }, ...terms]
            : terms;
        return (
          <Field label={t(`listings.place_${level}`)} error={errorOf(level)}>
            {(props) => (
              <select
                {...props}
                name={field.name}
                ref={field.ref}
                value={value}
                onBlur={field.onBlur}
                onChange={(event) => {
                  field.onChange(event.target.value);
                  for (const lower of BELOW[level]) setValue(lower, '', { shouldDirty: true });
                }}
              >
                <option value="">{t('listings.no_place')}</option>
                {options.map((term) => (
                  <option key={term.id} value={String(term.id)}>
                    {term.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        );
      }}
    />
  );
}
