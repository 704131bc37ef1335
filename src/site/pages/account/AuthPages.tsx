import type { ComponentChildren } from 'preact';
import { CsrfField, Field, type FormState, FormNotice, Honeypot } from '../../components/Form.js';
import type { PageContext } from '../../page.js';
import { withQuery } from '../../paths.js';
import { accountText } from './account.text.js';

/** A message above a form: what a post achieved, or why it failed as a whole. */
export interface Notice {
  readonly kind: 'success' | 'error';
  readonly text: string;
}

/** The frame of the account forms: one narrow card with its heading, a notice, the form and links below it. */
function AccountCard({
  title,
  intro,
  notice,
  children,
}: {
  title: string;
  intro?: string;
  notice?: Notice | null;
  children: ComponentChildren;
}) {
  return (
    <section class="wrap account">
      <div class="account__card">
        <h1>{title}</h1>
        {intro ? <p class="muted">{intro}</p> : null}
        {notice ? <FormNotice kind={notice.kind}>{notice.text}</FormNotice> : null}
        {children}
      </div>
    </section>
  );
}

/** Where the visitor goes back to after signing in, carried through the form. */
function NextField({ next }: { next: string | null }) {
  return next ? <input type="hidden" name="next" value={next} /> : null;
}

export function SignInPage({
  ctx,
  form,
  next,
  notice,
}: {
  ctx: PageContext;
  form: FormState;
  next: string | null;
  notice?: Notice | null;
}) {
  const t = accountText[ctx.lang];
  return (
    <AccountCard title={t.sign_in_title} intro={t.sign_in_intro} notice={notice}>
      <form class="form" method="post" action={ctx.path('/sign-in')} noValidate>
        <CsrfField ctx={ctx} />
        <NextField next={next} />
        <Honeypot idPrefix="sign-in" />
        <Field form={form} idPrefix="sign-in" name="login" label={t.login} required autocomplete="username" maxLength={254} />
        <Field
          form={form}
          idPrefix="sign-in"
          name="password"
          label={t.password}
          type="password"
          required
          autocomplete="current-password"
          maxLength={128}
        />
        <button class="button button--large" type="submit">
          {t.sign_in_button}
        </button>
      </form>
      <p class="account__links">
        <a href={ctx.path('/forgot-password')}>{t.forgot_link}</a>
      </p>
      <p class="account__links">
        {t.no_account} <a href={ctx.path(withQuery('/sign-up', { next }))}>{t.create_account_link}</a>
      </p>
    </AccountCard>
  );
}

export function SignUpPage({
  ctx,
  form,
  next,
  open,
  notice,
}: {
  ctx: PageContext;
  form: FormState;
  next: string | null;
  /** Whether registration is open (REGISTRATION_ENABLED). */
  open: boolean;
  notice?: Notice | null;
}) {
  const t = accountText[ctx.lang];
  const optional = (label: string) => `${label} (${t.optional})`;
  return (
    <AccountCard
      title={t.sign_up_title}
      intro={open ? t.sign_up_intro : undefined}
      notice={open ? notice : { kind: 'error', text: t.registration_closed }}
    >
      {open ? (
        <form class="form" method="post" action={ctx.path('/sign-up')} noValidate>
          <CsrfField ctx={ctx} />
          <NextField next={next} />
          <Honeypot idPrefix="sign-up" />
          <Field
            form={form}
            idPrefix="sign-up"
            name="username"
            label={t.username}
            hint={t.username_hint}
            required
            autocomplete="username"
            maxLength={60}
          />
          <Field form={form} idPrefix="sign-up" name="email" label={t.email} type="email" required autocomplete="email" maxLength={254} />
          <Field
            form={form}
            idPrefix="sign-up"
            name="password"
            label={t.new_password}
            hint={t.password_hint}
            type="password"
            required
            autocomplete="new-password"
            maxLength={128}
          />
          <div class="account__pair">
            <Field
              form={form}
              idPrefix="sign-up"
              name="first_name"
              label={optional(t.first_name)}
              autocomplete="given-name"
              maxLength={200}
            />
            <Field
              form={form}
              idPrefix="sign-up"
              name="last_name"
              label={optional(t.last_name)}
              autocomplete="family-name"
              maxLength={200}
            />
          </div>
          <button class="button button--large" type="submit">
            {t.sign_up_button}
          </button>
        </form>
      ) : null}
      <p class="account__links">
        {t.have_account} <a href={ctx.path(withQuery('/sign-in', { next }))}>{t.sign_in_link}</a>
      </p>
    </AccountCard>
  );
}

export function ForgotPasswordPage({ ctx, form, sent }: { ctx: PageContext; form: FormState; sent: boolean }) {
  const t = accountText[ctx.lang];
  return (
    <AccountCard
      title={t.forgot_title}
      intro={sent ? undefined : t.forgot_intro}
      notice={sent ? { kind: 'success', text: t.forgot_sent } : null}
    >
      <form class="form" method="post" action={ctx.path('/forgot-password')} noValidate>
        <CsrfField ctx={ctx} />
        <Honeypot idPrefix="forgot" />
        <Field form={form} idPrefix="forgot" name="email" label={t.email} type="email" required autocomplete="email" maxLength={254} />
        <button class="button button--large" type="submit">
          {t.forgot_button}
        </button>
      </form>
      <p class="account__links">
        <a href={ctx.path('/sign-in')}>{t.sign_in_link}</a>
      </p>
    </AccountCard>
  );
}

/** What the reset page shows: the form for a link's token, the outcome, or why there is no form. */
export type ResetState = { readonly kind: 'form'; readonly token: string } | { readonly kind: 'done' | 'invalid' | 'missing' };

export function ResetPasswordPage({ ctx, form, state }: { ctx: PageContext; form: FormState; state: ResetState }) {
  const t = accountText[ctx.lang];
  if (state.kind === 'done') {
    return (
      <AccountCard title={t.reset_title} notice={{ kind: 'success', text: t.reset_done }}>
        <p>
          <a class="button button--large" href={ctx.path('/sign-in')}>
            {t.sign_in_button}
          </a>
        </p>
      </AccountCard>
    );
  }
  if (state.kind !== 'form') {
    return (
      <AccountCard title={t.reset_title} notice={{ kind: 'error', text: state.kind === 'invalid' ? t.reset_invalid : t.reset_missing }}>
        <p>
          <a class="button button--large" href={ctx.path('/forgot-password')}>
            {t.ask_new_link}
          </a>
        </p>
      </AccountCard>
    );
  }
  return (
    <AccountCard title={t.reset_title}>
      <form class="form" method="post" action={ctx.path('/reset-password')} noValidate>
        <CsrfField ctx={ctx} />
        <input type="hidden" name="token" value={state.token} />
        <Field
          form={form}
          idPrefix="reset"
          name="password"
          label={t.reset_password}
          hint={t.password_hint}
          type="password"
          required
          autocomplete="new-password"
          maxLength={128}
        />
        <Field
          form={form}
          idPrefix="reset"
          name="password_confirm"
          label={t.reset_confirm}
          type="password"
          required
          autocomplete="new-password"
          maxLength={128}
        />
        <button class="button button--large" type="submit">
          {t.reset_button}
        </button>
      </form>
    </AccountCard>
  );
}
