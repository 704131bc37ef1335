import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Static } from 'typebox';
import { type Language, translate } from '../../../i18n/index.js';
import { AppError } from '../../../lib/errors.js';
import { EMPTY_FORM, type FormState } from '../../components/Form.js';
import { fieldMessagesOf, postedValues } from '../../forms.js';
import type { PageContext, RenderedPage } from '../../page.js';
import { PAGE_ROUTE, type SiteRoutes } from '../../site-routes.js';
import { fill } from '../../texts.js';
import { accountText } from './account.text.js';
import { accountListRoutes } from './account-lists.routes.js';
import { ForgotBody, ForgotQuery, NextQuery, ResetBody, ResetQuery, SignInBody, SignOutBody, SignUpBody } from './account.schemas.js';
import { ForgotPasswordPage, type Notice, ResetPasswordPage, type ResetState, SignInPage, SignUpPage } from './AuthPages.js';
import { safeNextPath } from './next-path.js';

/** Fields whose posted value is never sent back into the page. */
const SECRET_FIELDS = new Set(['password', 'password_confirm', 'csrf', 'token']);

/**
 * The account pages (docs/site.md): sign in, sign up, sign out, the password reset, and the visitor's favourites
 * and saved searches (account-lists.routes.tsx). Every one is private (never kept by a shared cache or the page
 * cache) and `noindex`; their forms are limited per address as the API's sign-in routes are.
 */
export const accountRoutes: SiteRoutes = (scope, site, lang) => {
  const { auth, passwordReset } = site.services;
  const t = accountText[lang];
  const limited = { ...PAGE_ROUTE.config, rateLimit: site.settings.rateLimits.auth };
  const page = (request: FastifyRequest, reply: FastifyReply, render: (ctx: PageContext) => RenderedPage) =>
    site.formPage(request, reply, lang, render);

  scope.get('/sign-in', { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, querystring: NextQuery } }, async (request, reply) => {
    const next = safeNextPath((request.query as Static<typeof NextQuery>).next);
    if (await site.callerOf(request, reply)) return site.seeOther(reply, lang, next ?? '/');
    return page(request, reply, (ctx) => signInPage(ctx, EMPTY_FORM, next));
  });

  scope.post(
    '/sign-in',
    { ...PAGE_ROUTE, config: limited, attachValidation: true, schema: { ...PAGE_ROUTE.schema, body: SignInBody } },
    async (request, reply) => {
      const { caller, isBot } = await site.checkPost(request, reply);
      const body = request.body as Static<typeof SignInBody>;
      const next = safeNextPath(body?.next);
      if (isBot) return site.seeOther(reply, lang, next ?? '/');
      const values = keptValues(request.body);
      if (request.validationError) {
        return page(request, reply, (ctx) => signInPage(ctx, failed(values, request.validationError, lang), next, 400));
      }
      try {
        const session = await auth.browserSignIn({ username: body.login, password: body.password });
        // A visitor signing in as someone else leaves no session of the first behind.
        if (caller) await auth.logout(caller, undefined);
        site.sessions.start(reply, session);
        return site.seeOther(reply, lang, next ?? '/');
      } catch (error) {
        const notice = signInNotice(error, lang, reply);
        if (!notice) throw error;
        return page(request, reply, (ctx) => signInPage(ctx, { values, errors: {} }, next, notice.status, notice));
      }
    },
  );

  scope.get('/sign-up', { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, querystring: NextQuery } }, async (request, reply) => {
    const next = safeNextPath((request.query as Static<typeof NextQuery>).next);
    if (await site.callerOf(request, reply)) return site.seeOther(reply, lang, next ?? '/');
    return page(request, reply, (ctx) => signUpPage(ctx, EMPTY_FORM, next, site.settings.registrationOpen));
  });

  scope.post(
    '/sign-up',
    { ...PAGE_ROUTE, config: limited, attachValidation: true, schema: { ...PAGE_ROUTE.schema, body: SignUpBody } },
    async (request, reply) => {
      const { caller, isBot } = await site.checkPost(request, reply);
      const body = request.body as Static<typeof SignUpBody>;
      const next = safeNextPath(body?.next);
      if (isBot) return site.seeOther(reply, lang, next ?? '/');
      const values = keptValues(request.body);
      const open = site.settings.registrationOpen;
      if (!open) return page(request, reply, (ctx) => signUpPage(ctx, { values, errors: {} }, next, false, 403));
      if (request.validationError) {
        return page(request, reply, (ctx) => signUpPage(ctx, failed(values, request.validationError, lang), next, true, 400));
      }
      try {
        const session = await auth.browserRegister({
          username: body.username,
          email: body.email,
          password: body.password,
          ...(body.first_name ? { first_name: body.first_name } : {}),
          ...(body.last_name ? { last_name: body.last_name } : {}),
        });
        if (caller) await auth.logout(caller, undefined);
        site.sessions.start(reply, session);
        return site.seeOther(reply, lang, next ?? '/');
      } catch (error) {
        // Taken names are said beside their field, as the API says them (409): registration needs it, and the
        // reset form below tells nothing.
        const taken = error instanceof AppError ? TAKEN_FIELDS[error.code] : undefined;
        if (taken) {
          return page(request, reply, (ctx) => signUpPage(ctx, { values, errors: { [taken]: t[`${taken}_taken`] } }, next, true, 409));
        }
        if (error instanceof AppError && error.code === 'forbidden') {
          return page(request, reply, (ctx) => signUpPage(ctx, { values, errors: {} }, next, false, 403));
        }
        if (error instanceof AppError && error.code === 'conflict') {
          const notice: Notice = { kind: 'error', text: t.try_again };
          return page(request, reply, (ctx) => signUpPage(ctx, { values, errors: {} }, next, true, 409, notice));
        }
        const errors = fieldMessagesOf(error, lang);
        if (!errors) throw error;
        return page(request, reply, (ctx) => signUpPage(ctx, { values, errors }, next, true, 400));
      }
    },
  );

  scope.post(
    '/sign-out',
    { ...PAGE_ROUTE, attachValidation: true, schema: { ...PAGE_ROUTE.schema, body: SignOutBody } },
    async (request, reply) => {
      // checkPost refuses a signed-in visitor's post without their CSRF token (403): no other site signs them out.
      const { caller } = await site.checkPost(request, reply);
      if (caller) {
        await auth.logout(caller, undefined);
        site.sessions.clear(reply);
      }
      return site.seeOther(reply, lang, '/');
    },
  );

  scope.get('/forgot-password', { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, querystring: ForgotQuery } }, (request, reply) =>
    page(request, reply, (ctx) => forgotPage(ctx, EMPTY_FORM, (request.query as Static<typeof ForgotQuery>).sent !== undefined)),
  );

  scope.post(
    '/forgot-password',
    { ...PAGE_ROUTE, config: limited, attachValidation: true, schema: { ...PAGE_ROUTE.schema, body: ForgotBody } },
    async (request, reply) => {
      const { isBot } = await site.checkPost(request, reply);
      if (request.validationError && !isBot) {
        const form = failed(keptValues(request.body), request.validationError, lang);
        return page(request, reply, (ctx) => forgotPage(ctx, form, false, 400));
      }
      // The same answer whatever the address: requestReset does the same work for a known and an unknown one.
      if (!isBot) await passwordReset.requestReset((request.body as Static<typeof ForgotBody>).email, lang);
      return site.seeOther(reply, lang, '/forgot-password?sent=1');
    },
  );

  // The reset link's token is in the address: nothing of these pages is kept, by any cache (a scope of their own).
  void scope.register(async (reset) => {
    reset.addHook('onSend', noStoreHook);
    reset.get('/reset-password', { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, querystring: ResetQuery } }, (request, reply) => {
      const query = request.query as Static<typeof ResetQuery>;
      const state: ResetState =
        query.done !== undefined
          ? { kind: 'done' }
          : typeof query.token === 'string' && query.token.length > 0 && query.token.length <= 200
            ? { kind: 'form', token: query.token }
            : { kind: 'missing' };
      return page(request, reply, (ctx) => resetPage(ctx, EMPTY_FORM, state));
    });

    reset.post(
      '/reset-password',
      { ...PAGE_ROUTE, config: limited, attachValidation: true, schema: { ...PAGE_ROUTE.schema, body: ResetBody } },
      async (request, reply) => {
        const { caller } = await site.checkPost(request, reply);
        const body = request.body as Static<typeof ResetBody>;
        const token = typeof body?.token === 'string' && body.token.length <= 200 ? body.token : '';
        if (token === '') return page(request, reply, (ctx) => resetPage(ctx, EMPTY_FORM, { kind: 'missing' }, 400));
        const form = (errors: Record<string, string>): FormState => ({ values: {}, errors });
        if (request.validationError) {
          const errors = fieldMessagesOf(request.validationError, lang) ?? {};
          return page(request, reply, (ctx) => resetPage(ctx, form(errors), { kind: 'form', token }, 400));
        }
        if (body.password !== body.password_confirm) {
          return page(request, reply, (ctx) => resetPage(ctx, form({ password_confirm: t.reset_mismatch }), { kind: 'form', token }, 400));
        }
        try {
          await passwordReset.confirmReset(token, body.password);
        } catch (error) {
          if (error instanceof AppError && error.fields.some((field) => field.field === 'token')) {
            return page(request, reply, (ctx) => resetPage(ctx, EMPTY_FORM, { kind: 'invalid' }, 400));
          }
          throw error;
        }
        // Every session of the account has ended, this one too if it was the account's.
        if (caller || site.sessions.hasCookie(request)) site.sessions.clear(reply);
        return site.seeOther(reply, lang, '/reset-password?done=1');
      },
    );
  });

  accountListRoutes(scope, site, lang);
};

/** The API's 409s of registration, by the field they are about. */
const TAKEN_FIELDS: Partial<Record<string, 'email' | 'username'>> = { email_taken: 'email', username_taken: 'username' };

/** What a post sent, for the form again: never a password, a token or the CSRF token. */
function keptValues(body: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(postedValues(body)).filter(([name]) => !SECRET_FIELDS.has(name)));
}

function failed(values: Record<string, string>, error: unknown, lang: Language): FormState {
  return { values, errors: fieldMessagesOf(error, lang) ?? {} };
}

/**
 * The sign-in failures a visitor can act on, as one notice each: a wrong name or password (one message, whether
 * the account exists or not), a suspended account, and the account lock or rate limit (429, with Retry-After).
 */
function signInNotice(error: unknown, lang: Language, reply: FastifyReply): (Notice & { status: number }) | undefined {
  if (!(error instanceof AppError)) return undefined;
  const t = accountText[lang];
  switch (error.code) {
    case 'invalid_credentials':
    case 'validation_failed':
      return { kind: 'error', text: t.wrong_credentials, status: 400 };
    case 'account_suspended':
      return { kind: 'error', text: t.suspended, status: 403 };
    case 'rate_limited':
      if (error.messageParams.seconds !== undefined) reply.header('retry-after', String(error.messageParams.seconds));
      return { kind: 'error', text: translate(lang, 'rate_limited', error.messageParams), status: 429 };
    default:
      return undefined;
  }
}

const noStoreHook: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('cache-control', 'no-store');
  done(null, payload);
};

const meta = (ctx: PageContext, title: string, description: string) => ({
  title,
  description: fill(description, { site: ctx.brand.siteName }),
  canonical: null,
  noindex: true,
});

function signInPage(ctx: PageContext, form: FormState, next: string | null, status = 200, notice?: Notice): RenderedPage {
  const t = accountText[ctx.lang];
  return {
    status,
    meta: meta(ctx, t.sign_in_title, t.sign_in_description),
    body: <SignInPage ctx={ctx} form={form} next={next} notice={notice ?? null} />,
  };
}

function signUpPage(ctx: PageContext, form: FormState, next: string | null, open: boolean, status = 200, notice?: Notice): RenderedPage {
  const t = accountText[ctx.lang];
  return {
    status,
    meta: meta(ctx, t.sign_up_title, t.sign_up_description),
    body: <SignUpPage ctx={ctx} form={form} next={next} open={open} notice={notice ?? null} />,
  };
}

function forgotPage(ctx: PageContext, form: FormState, sent: boolean, status = 200): RenderedPage {
  const t = accountText[ctx.lang];
  return { status, meta: meta(ctx, t.forgot_title, t.forgot_description), body: <ForgotPasswordPage ctx={ctx} form={form} sent={sent} /> };
}

function resetPage(ctx: PageContext, form: FormState, state: ResetState, status = 200): RenderedPage {
  const t = accountText[ctx.lang];
  return { status, meta: meta(ctx, t.reset_title, t.reset_description), body: <ResetPasswordPage ctx={ctx} form={form} state={state} /> };
}
