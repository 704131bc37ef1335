import { layoutText } from '../layout/layout.text.js';
import type { PageContext } from '../page.js';

/** One step of a trail: its name and plain path (the last step, the page itself, may have none). */
export interface Crumb {
  readonly name: string;
  readonly path?: string;
}

/** The visible trail; `breadcrumbJsonLd` gives search engines the same steps. */
export function Breadcrumbs({ ctx, crumbs }: { ctx: PageContext; crumbs: readonly Crumb[] }) {
  return (
    <nav class="breadcrumbs" aria-label={layoutText[ctx.lang].breadcrumbs}>
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={index}>
            {crumb.path !== undefined && index < crumbs.length - 1 ? (
              <a href={ctx.path(crumb.path)}>{crumb.name}</a>
            ) : (
              <span aria-current="page">{crumb.name}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** schema.org BreadcrumbList of the same steps, with absolute URLs in the page's language. */
export function breadcrumbJsonLd(ctx: PageContext, crumbs: readonly Crumb[]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      ...(crumb.path !== undefined ? { item: `${ctx.publicUrl}${ctx.path(crumb.path)}` } : {}),
    })),
  };
}
