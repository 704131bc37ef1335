import { useTranslation } from 'react-i18next';
import { type FieldPath, useFormContext, useWatch } from 'react-hook-form';
import { Field } from '../../../components/ui';
import { TERM_RESOURCES } from '../resources';
import type { TermRecord } from '../types';
import { useFieldError } from './fields';
import type { ListingFormValues } from './form-values';
import { type Chosen, choosePlace, type Level, LEVELS, type PlaceLists, placeOptions } from './places';
import { useTerms } from './TermPickers';

const RESOURCE: Record<Level, string> = {
  country: TERM_RESOURCES.countries.name,
  state: TERM_RESOURCES.states.name,
  city: TERM_RESOURCES.cities.name,
  area: TERM_RESOURCES.areas.name,
};

/**
 * Country, state, city and area as selects chained both ways (places.ts): each lists the places under the
 * nearest place chosen above it; choosing a place fills the levels above from its parents and clears those
 * below. Countries and states are listed whole (few, and what a city's country is read from); cities and areas
 * by the API's filter once their parent is chosen.
 */
export function LocationPicker() {
  const { control, setValue } = useFormContext<ListingFormValues>();
  const [country = '', state = '', city = '', area = ''] = useWatch({ control, name: ['country', 'state', 'city', 'area'] });
  const chosen: Chosen = { country, state, city, area };
  const loaded = {
    country: useTerms(RESOURCE.country),
    state: useTerms(RESOURCE.state),
    city: useTerms(RESOURCE.city, state ? { state } : {}),
    area: useTerms(RESOURCE.area, city ? { city } : {}),
  };
  const lists: PlaceLists = { country: loaded.country.terms, state: loaded.state.terms, city: loaded.city.terms, area: loaded.area.terms };
  const options = placeOptions(lists, chosen);
  const choose = (level: Level, value: string) => {
    const next = choosePlace(lists, chosen, level, value);
    for (const each of LEVELS) if (next[each] !== chosen[each]) setValue(each, next[each], { shouldDirty: true });
  };
  return (
    <div className="listings-grid">
      {LEVELS.map((level) => (
        <PlaceSelect
          key={level}
          level={level}
          value={chosen[level]}
          options={options[level]}
          loading={loaded[level].loading}
          onChoose={(value) => choose(level, value)}
        />
      ))}
    </div>
  );
}

function PlaceSelect({
  level,
  value,
  options,
  loading,
  onChoose,
}: {
  level: Level;
  value: string;
  options: readonly TermRecord[];
  loading: boolean;
  onChoose: (value: string) => void;
}) {
  const { t } = useTranslation();
  const { register } = useFormContext<ListingFormValues>();
  const errorOf = useFieldError();
  // The chosen place stays an option while the list loads or when it lies outside the filter.
  const shown: readonly TermRecord[] =
    value !== '' && !options.some((term) => String(term.id) === value)
      ? [
          { id: Number(value), name: loading ? t('common.loading') : `#${value}`, slug: '', description: '', count: 0, parent: 0 },
          ...options,
        ]
      : options;
  const { ref, name, onBlur } = register(level as FieldPath<ListingFormValues>);
  return (
    <Field label={t(`listings.place_${level}`)} error={errorOf(level)}>
      {(props) => (
        <select {...props} name={name} ref={ref} value={value} onBlur={onBlur} onChange={(event) => onChoose(event.target.value)}>
          <option value="">{t('listings.no_place')}</option>
          {shown.map((term) => (
            <option key={term.id} value={String(term.id)}>
              {term.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
