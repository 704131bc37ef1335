import type { ComponentChildren } from 'preact';
import { SITE_LANGUAGES, localPath } from '../paths.js';
import type { PageContext, PageMeta } from '../page.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import { layoutText } from './layout.text.js';

/** The whole HTML document of a page: the head search engines and link previews read, the frame, the page. */
export function Document({ ctx, meta, children }: { ctx: PageContext; meta: PageMeta; children: ComponentChildren }) {
  const t = layoutText[ctx.lang];
  const title = meta.title === ctx.brand.siteName ? meta.title : `${meta.title} | ${ctx.brand.siteName}`;
  const absolute = (plain: string, lang = ctx.lang) => `${ctx.publicUrl}${localPath(lang, plain)}`;
  return (
    <html lang={ctx.lang} dir={ctx.dir}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={meta.description} />
        {meta.noindex || meta.canonical === null ? <meta name="robots" content="noindex, follow" /> : null}
        {meta.canonical !== null ? <link rel="canonical" href={absolute(meta.canonical)} /> : null}
        {meta.canonical !== null && !meta.noindex
          ? [
              ...SITE_LANGUAGES.map((lang) => <link key={lang} rel="alternate" hrefLang={lang} href={absolute(meta.canonical!, lang)} />),
              <link key="x-default" rel="alternate" hrefLang="x-default" href={absolute(meta.canonical, 'en')} />,
            ]
          : null}
        <meta name="theme-color" content={ctx.brand.primaryColor} />
        <link rel="icon" href={ctx.asset('icon.svg')} type="image/svg+xml" />
        <link rel="stylesheet" href={ctx.asset('site.css')} />
        <link rel="stylesheet" href={ctx.brandStylesheet} />
        <link rel="stylesheet" href={ctx.asset('print.css')} media="print" />
        {(meta.styles ?? []).map((name) => (
          <link key={name} rel="stylesheet" href={ctx.asset(name)} />
        ))}
        {meta.preloadImage ? (
          <link
            rel="preload"
            as="image"
            href={meta.preloadImage.href}
            {...{ imagesrcset: meta.preloadImage.srcset, imagesizes: meta.preloadImage.sizes, fetchpriority: 'high' }}
          />
        ) : null}
        <meta property="og:site_name" content={ctx.brand.siteName} />
        <meta property="og:title" content={meta.title} />
        <meta property="og:description" content={meta.description} />
        <meta property="og:type" content={meta.ogType ?? 'website'} />
        <meta property="og:locale" content={ctx.format.locale.slice(0, 5).replace('-', '_')} />
        {meta.canonical !== null ? <meta property="og:url" content={absolute(meta.canonical)} /> : null}
        {meta.image ? <meta property="og:image" content={meta.image.url} /> : null}
        {meta.image?.width ? <meta property="og:image:width" content={String(meta.image.width)} /> : null}
        {meta.image?.height ? <meta property="og:image:height" content={String(meta.image.height)} /> : null}
        {meta.image ? <meta property="og:image:alt" content={meta.image.alt} /> : null}
        <meta name="twitter:card" content={meta.image ? 'summary_large_image' : 'summary'} />
        <meta name="twitter:title" content={meta.title} />
        <meta name="twitter:description" content={meta.description} />
        {meta.image ? <meta name="twitter:image" content={meta.image.url} /> : null}
        {(meta.jsonLd ?? []).map((data, index) => (
          <script key={index} type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(data) }} />
        ))}
        {(meta.scripts ?? []).map((name) => (
          <script key={name} type="module" src={ctx.asset(name)} />
        ))}
      </head>
      <body>
        <a class="skip-link" href="#main">
          {t.skip_to_content}
        </a>
        <Header ctx={ctx} />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <Footer ctx={ctx} />
      </body>
    </html>
  );
}

/** JSON inside a script element: `<` escaped, so that no text in the data can close the element or open a comment. */
function jsonForScript(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
