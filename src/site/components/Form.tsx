import type { ComponentChildren } from 'preact';
import { HONEYPOT_FIELD, type FieldMessages } from '../forms.js';
import type { PageContext } from '../page.js';

/** What a form was posted with, to fill it again, and the messages of its fields after a failed post. */
export interface FormState {
  readonly values: Readonly<Record<string, string>>;
  readonly errors: FieldMessages;
}

export const EMPTY_FORM: FormState = { values: {}, errors: {} };

interface FieldProps {
  form: FormState;
  /** Unique on the page: the input's id is `${idPrefix}-${name}`. */
  idPrefix: string;
  name: string;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'password' | 'number' | 'date' | 'time' | 'search' | 'url';
  required?: boolean;
  autocomplete?: string;
  maxLength?: number;
  min?: number;
  max?: number;
  step?: number | 'any';
  /** The value when the form was not posted yet. */
  initial?: string;
  hint?: string;
}

/** A labelled input with its error beside it (linked by aria-describedby), keeping what was typed. */
export function Field({
  form,
  idPrefix,
  name,
  label,
  type = 'text',
  required,
  autocomplete,
  maxLength,
  min,
  max,
  step,
  initial,
  hint,
}: FieldProps) {
  const id = `${idPrefix}-${name}`;
  const error = form.errors[name];
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field" data-invalid={error ? '' : undefined}>
      <label for={id}>{label}</label>
      {hint ? (
        <p class="muted" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        value={form.values[name] ?? initial ?? ''}
        required={required}
        autocomplete={autocomplete}
        maxLength={maxLength}
        min={min}
        max={max}
        step={step}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described}
      />
      {error ? (
        <p class="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled text area, as Field. */
export function TextArea({ form, idPrefix, name, label, required, maxLength, initial }: Omit<FieldProps, 'type'>) {
  const id = `${idPrefix}-${name}`;
  const error = form.errors[name];
  return (
    <div class="field" data-invalid={error ? '' : undefined}>
      <label for={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        required={required}
        maxLength={maxLength}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {form.values[name] ?? initial ?? ''}
      </textarea>
      {error ? (
        <p class="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The honeypot field (forms.ts): hidden from people and assistive technology, filled by bots. */
export function Honeypot({ idPrefix }: { idPrefix: string }) {
  return (
    <div class="trap" aria-hidden="true">
      <label for={`${idPrefix}-${HONEYPOT_FIELD}`}>Website</label>
      <input id={`${idPrefix}-${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autocomplete="off" value="" />
    </div>
  );
}

/** The signed-in visitor's CSRF token (session.ts), which every signed-in form posts back. */
export function CsrfField({ ctx }: { ctx: PageContext }) {
  return ctx.visitor ? <input type="hidden" name="csrf" value={ctx.visitor.csrfToken} /> : null;
}

/** A message above a form: what a post achieved, or why it failed as a whole. */
export function FormNotice({ kind = 'success', children }: { kind?: 'success' | 'error'; children: ComponentChildren }) {
  return (
    <p class={kind === 'error' ? 'form-notice form-notice--error' : 'form-notice'} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}
