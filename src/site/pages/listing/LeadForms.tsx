import type { ComponentChildren } from 'preact';
import { CsrfField, Field, type FormState, FormNotice, Honeypot, TextArea } from '../../components/Form.js';
import type { PageContext } from '../../page.js';
import { listingText } from './listing.text.js';

/** What a form block shows besides its fields: the thank-you after a post (PRG), or why the post failed. */
export interface FormOutcome {
  readonly sent: boolean;
  /** A message about the whole form (a field's message stands beside the field). */
  readonly error?: string;
}

const USER_TYPES = ['buyer', 'tenant', 'agent', 'other'] as const;

/** A labelled select with its error beside it, keeping what was chosen. */
export function SelectField({
  form,
  idPrefix,
  name,
  label,
  options,
  initial = '',
  required,
  children,
}: {
  form: FormState;
  idPrefix: string;
  name: string;
  label: ComponentChildren;
  options: readonly (readonly [string, string])[];
  initial?: string;
  required?: boolean;
  children?: ComponentChildren;
}) {
  const id = `${idPrefix}-${name}`;
  const error = form.errors[name];
  const value = form.values[name] ?? initial;
  return (
    <div class="field" data-invalid={error ? '' : undefined}>
      <label for={id}>{label}</label>
      <select
        id={id}
        name={name}
        required={required}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {children}
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue} selected={optionValue === value}>
            {text}
          </option>
        ))}
      </select>
      {error ? (
        <p class="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Outcome({ outcome, sentText }: { outcome: FormOutcome; sentText: string }) {
  if (outcome.sent) return <FormNotice>{sentText}</FormNotice>;
  if (outcome.error) return <FormNotice kind="error">{outcome.error}</FormNotice>;
  return null;
}

/** Name, e-mail and phone: what both lead forms ask first. */
function SenderFields({ ctx, form, idPrefix }: { ctx: PageContext; form: FormState; idPrefix: string }) {
  const t = listingText[ctx.lang];
  return (
    <>
      <Field
        form={form}
        idPrefix={idPrefix}
        name="name"
        label={t.name}
        required
        maxLength={200}
        autocomplete="name"
        initial={ctx.visitor?.displayName}
      />
      <Field form={form} idPrefix={idPrefix} name="email" label={t.your_email} type="email" required maxLength={254} autocomplete="email" />
      <Field form={form} idPrefix={idPrefix} name="phone" label={t.phone} type="tel" maxLength={50} autocomplete="tel" />
    </>
  );
}

/** The contact-agent form: a lead as POST /properties/{id}/contact makes it. */
export function ContactForm({
  ctx,
  action,
  form,
  outcome,
  defaultMessage,
}: {
  ctx: PageContext;
  action: string;
  form: FormState;
  outcome: FormOutcome;
  defaultMessage: string;
}) {
  const t = listingText[ctx.lang];
  return (
    <section class="listing-block lead-form" id="contact" aria-labelledby="contact-heading">
      <h2 id="contact-heading">{t.contact_form}</h2>
      <Outcome outcome={outcome} sentText={t.contact_sent} />
      <form class="form" method="post" action={action}>
        <CsrfField ctx={ctx} />
        <Honeypot idPrefix="contact" />
        <SenderFields ctx={ctx} form={form} idPrefix="contact" />
        <TextArea form={form} idPrefix="contact" name="message" label={t.message} required maxLength={5000} initial={defaultMessage} />
        <SelectField
          form={form}
          idPrefix="contact"
          name="user_type"
          label={t.user_type}
          initial="buyer"
          options={USER_TYPES.map((type) => [type, t[`user_${type}`]] as const)}
        />
        <button class="button" type="submit">
          {t.send}
        </button>
      </form>
    </section>
  );
}

/** The request-a-viewing form: a lead too, the preferred day and time written into its message. */
export function ViewingForm({ ctx, action, form, outcome }: { ctx: PageContext; action: string; form: FormState; outcome: FormOutcome }) {
  const t = listingText[ctx.lang];
  return (
    <section class="listing-block lead-form" id="viewing" aria-labelledby="viewing-heading">
      <h2 id="viewing-heading">{t.viewing_form}</h2>
      <Outcome outcome={outcome} sentText={t.viewing_sent} />
      <form class="form" method="post" action={action}>
        <CsrfField ctx={ctx} />
        <Honeypot idPrefix="viewing" />
        <SenderFields ctx={ctx} form={form} idPrefix="viewing" />
        <div class="form__row">
          <Field form={form} idPrefix="viewing" name="date" label={t.viewing_date} type="date" required />
          <Field form={form} idPrefix="viewing" name="time" label={t.viewing_time} type="time" />
        </div>
        <TextArea form={form} idPrefix="viewing" name="message" label={t.viewing_message} maxLength={4000} />
        <button class="button" type="submit">
          {t.viewing_send}
        </button>
      </form>
    </section>
  );
}
