import type { Language } from '../../i18n/index.js';
import type { PageContext } from '../page.js';
import { fill } from '../texts.js';
import { layoutText } from './layout.text.js';

/** The page of a failed request: what happened in the visitor's words, and the way home. */
export function ErrorPage({ ctx, status, message, requestId }: { ctx: PageContext; status: number; message: string; requestId: string }) {
  const t = layoutText[ctx.lang];
  const title = errorTitle(ctx.lang, status);
  const text = status === 404 ? t.not_found_text : status === 429 ? t.rate_limited_text : status < 500 ? message : t.error_text;
  return (
    <section class="wrap error-page">
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <a class="button" href={ctx.path('/')}>
          {t.back_home}
        </a>
      </p>
      {status >= 500 ? <p class="muted">{fill(t.request_id, { id: requestId })}</p> : null}
    </section>
  );
}

export function errorTitle(lang: Language, status: number): string {
  const t = layoutText[lang];
  return status === 404 ? t.not_found_title : status === 429 ? t.rate_limited_title : status < 500 ? t.bad_request_title : t.error_title;
}
