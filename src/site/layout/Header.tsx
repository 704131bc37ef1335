import { LANGUAGE_NAMES, layoutText } from './layout.text.js';
import { SITE_LANGUAGES, localPath } from '../paths.js';
import type { PageContext } from '../page.js';
import { fill } from '../texts.js';

/**
 * The site's header: the brand, the main navigation and the language switch. On a phone the navigation folds
 * into a <details> menu, which opens and closes without any script.
 */
export function Header({ ctx }: { ctx: PageContext }) {
  const t = layoutText[ctx.lang];
  const { visitor, brand } = ctx;
  return (
    <header class="site-header">
      <div class="wrap site-header__bar">
        <a class="brand" href={ctx.path('/')}>
          {brand.logoUrl ? <img class="brand__logo" src={brand.logoUrl} alt="" width={40} height={40} /> : null}
          <span class="brand__name">{brand.siteName}</span>
        </a>
        <details class="menu">
          <summary class="menu__toggle">
            <span class="menu__icon" aria-hidden="true" />
            <span>{t.main_menu}</span>
          </summary>
          <div class="menu__panel">
            <nav aria-label={t.main_menu}>
              <ul class="menu__links">
                <li>
                  <a href={ctx.path('/properties')}>{t.search}</a>
                </li>
                <li>
                  <a href={ctx.path('/agents')}>{t.agents}</a>
                </li>
                <li>
                  <a href={ctx.path('/agencies')}>{t.agencies}</a>
                </li>
                <li>
                  <a href={ctx.path('/compare')}>{t.compare}</a>
                </li>
                {visitor ? (
                  <>
                    <li>
                      <a href={ctx.path('/account/favorites')}>{t.favorites}</a>
                    </li>
                    <li>
                      <a href={ctx.path('/account/saved-searches')}>{t.saved_searches}</a>
                    </li>
                    {visitor.isStaff && ctx.consoleUrl ? (
                      <li>
                        <a href={ctx.consoleUrl}>{t.console}</a>
                      </li>
                    ) : null}
                  </>
                ) : null}
              </ul>
            </nav>
            <div class="menu__account">
              {visitor ? (
                <form method="post" action={ctx.path('/sign-out')} class="inline-form">
                  <input type="hidden" name="csrf" value={visitor.csrfToken} />
                  <span class="menu__who">{fill(t.signed_in_as, { name: visitor.displayName })}</span>
                  <button type="submit" class="button button--quiet">
                    {t.sign_out}
                  </button>
                </form>
              ) : (
                <>
                  <a class="button button--quiet" href={ctx.path('/sign-in')}>
                    {t.sign_in}
                  </a>
                  <a class="button" href={ctx.path('/sign-up')}>
                    {t.sign_up}
                  </a>
                </>
              )}
            </div>
            <nav aria-label={t.language}>
              <ul class="languages">
                {SITE_LANGUAGES.map((lang) => (
                  <li key={lang}>
                    <a
                      href={localPath(lang, ctx.plainPath)}
                      hrefLang={lang}
                      lang={lang}
                      aria-current={lang === ctx.lang ? 'true' : undefined}
                    >
                      {LANGUAGE_NAMES[lang]}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        </details>
      </div>
    </header>
  );
}
