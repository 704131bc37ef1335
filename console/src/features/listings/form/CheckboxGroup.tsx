import { useId } from 'react';
import { type FieldPath, useController, useFormContext } from 'react-hook-form';
import { useFieldError } from './fields';
import type { ListingFormValues } from './form-values';

export interface CheckboxOption {
  value: string;
  label: string;
  depth?: number;
}

/** A group of checkboxes whose checked values (ids as text) are one array field of the form. */
export function CheckboxGroup({
  name,
  legend,
  options,
  loading,
  emptyText,
}: {
  name: FieldPath<ListingFormValues>;
  legend: string;
  options: readonly CheckboxOption[];
  loading?: boolean;
  emptyText: string;
}) {
  const { control } = useFormContext<ListingFormValues>();
  const { field } = useController({ control, name });
  const errorOf = useFieldError();
  const id = useId();
  const selected = (field.value as string[] | undefined) ?? [];
  const error = errorOf(name);
  const toggle = (value: string, checked: boolean) =>
    field.onChange(checked ? [...selected.filter((item) => item !== value), value] : selected.filter((item) => item !== value));

  return (
    <fieldset className="listings-checkboxes" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {options.length === 0 && !loading ? <p className="muted">{emptyText}</p> : null}
      <ul>
        {options.map((option) => (
          <li key={option.value} className={option.depth ? `listings-depth-${Math.min(option.depth, 3)}` : undefined}>
            <label>
              <input
                type="checkbox"
                name={name}
                value={option.value}
                checked={selected.includes(option.value)}
                onChange={(event) => toggle(option.value, event.target.checked)}
                onBlur={field.onBlur}
              />{' '}
              {option.label}
            </label>
          </li>
        ))}
      </ul>
      {error ? (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      ) : null}
    </fieldset>
  );
}
