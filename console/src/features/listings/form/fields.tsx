import type { ReactNode } from 'react';
import { type FieldPath, get, type RegisterOptions, useFormContext } from 'react-hook-form';
import { Field } from '../../../components/ui';
import type { ListingFormValues } from './form-values';

/** The message of a field's error (the form's own check, or the API's 400 `errors`), or undefined. */
export function useFieldError() {
  const {
    formState: { errors },
  } = useFormContext<ListingFormValues>();
  return (path: string): string | undefined => {
    const error = get(errors, path) as { message?: unknown } | undefined;
    return error && typeof error.message === 'string' && error.message !== '' ? error.message : undefined;
  };
}

interface InputProps {
  name: FieldPath<ListingFormValues>;
  label: string;
  type?: 'text' | 'number' | 'url' | 'integer';
  hint?: string;
  required?: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  step?: string;
  className?: string;
  /** Shown but not editable (its value is still sent: react-hook-form drops a disabled field's). */
  readOnly?: boolean;
  rules?: RegisterOptions<ListingFormValues>;
}

/** A labelled text or number input bound to the form; numbers stay text until toRequestBody reads them. */
export function TextInput({
  name,
  label,
  type = 'text',
  hint,
  required,
  maxLength,
  min,
  max,
  step,
  className,
  readOnly,
  rules,
}: InputProps) {
  const { register } = useFormContext<ListingFormValues>();
  const errorOf = useFieldError();
  const numeric = type === 'number' || type === 'integer';
  return (
    <div className={className}>
      <Field label={label} error={errorOf(name)} {...(hint ? { hint } : {})}>
        {(props) => (
          <input
            {...props}
            type={numeric ? 'number' : type}
            inputMode={type === 'integer' ? 'numeric' : numeric ? 'decimal' : undefined}
            step={numeric ? (step ?? (type === 'integer' ? '1' : 'any')) : undefined}
            min={min ?? (numeric ? 0 : undefined)}
            max={max}
            maxLength={maxLength}
            required={required}
            readOnly={readOnly}
            {...register(name, rules)}
          />
        )}
      </Field>
    </div>
  );
}

/** A labelled select bound to the form with fixed options. */
export function SelectInput({
  name,
  label,
  options,
}: {
  name: FieldPath<ListingFormValues>;
  label: string;
  options: readonly { value: string; label: string }[];
}) {
  const { register } = useFormContext<ListingFormValues>();
  const errorOf = useFieldError();
  return (
    <Field label={label} error={errorOf(name)}>
      {(props) => (
        <select {...props} {...register(name)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A titled part of the form. */
export function FormSection({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <fieldset className="listings-section" id={id}>
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}
