import type { PageContext } from '../page.js';
import { fill } from '../texts.js';
import { componentsText } from './components.text.js';

/** The pages shown around the current one: the first, the last, and two on each side. */
function pageNumbers(current: number, total: number): (number | null)[] {
  const shown = new Set([1, total, current - 2, current - 1, current, current + 1, current + 2].filter((n) => n >= 1 && n <= total));
  const sorted = [...shown].sort((a, b) => a - b);
  const withGaps: (number | null)[] = [];
  for (const n of sorted) {
    const previous = withGaps.at(-1);
    if (typeof previous === 'number' && n > previous + 1) withGaps.push(null);
    withGaps.push(n);
  }
  return withGaps;
}

/**
 * Links to the other pages of a list; `href(page)` builds each page's address (this language's). A page with two
 * paged lists names each one's navigation by `label` (landmarks must differ).
 */
export function Pagination({
  ctx,
  page,
  totalPages,
  href,
  label,
}: {
  ctx: PageContext;
  page: number;
  totalPages: number;
  href: (page: number) => string;
  label?: string;
}) {
  if (totalPages <= 1) return null;
  const t = componentsText[ctx.lang];
  return (
    <nav class="pagination" aria-label={label ? `${label}: ${t.pages}` : t.pages}>
      <ul>
        {page > 1 ? (
          <li>
            <a href={href(page - 1)} rel="prev">
              {t.previous}
            </a>
          </li>
        ) : null}
        {pageNumbers(page, totalPages).map((n, index) =>
          n === null ? (
            <li key={`gap-${index}`}>
              <span aria-hidden="true">…</span>
            </li>
          ) : (
            <li key={n}>
              <a href={href(n)} aria-current={n === page ? 'page' : undefined} aria-label={fill(t.page, { page: n })}>
                {ctx.format.number(n)}
              </a>
            </li>
          ),
        )}
        {page < totalPages ? (
          <li>
            <a href={href(page + 1)} rel="next">
              {t.next}
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
