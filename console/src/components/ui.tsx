import type { HttpError } from '@refinedev/core';
import { type ReactNode, useId, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { session } from '../api/session';

/** The page's heading and, beside it, its main actions. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children ? <div className="page-actions">{children}</div> : null}
    </div>
  );
}

/** Paging controls of a Refine `useTable`: previous, "page n of m", next, and the total. */
export function Pager({
  currentPage,
  pageCount,
  total,
  onPage,
}: {
  currentPage: number;
  pageCount: number;
  total: number | undefined;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, pageCount);
  return (
    <nav className="pager" aria-label={t('common.page_of', { page: currentPage, pages })}>
      <button type="button" onClick={() => onPage(currentPage - 1)} disabled={currentPage <= 1}>
        {t('common.previous_page')}
      </button>
      <span>{t('common.page_of', { page: currentPage, pages })}</span>
      <button type="button" onClick={() => onPage(currentPage + 1)} disabled={currentPage >= pages}>
        {t('common.next_page')}
      </button>
      {total !== undefined ? <span className="muted">{t('common.total_records', { count: total })}</span> : null}
    </nav>
  );
}

/** A failed request, said plainly, with the API's message and a way to try again. */
export function ErrorNotice({ error, onRetry }: { error: HttpError | Error | null | undefined; onRetry?: () => void }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      <strong>{t('common.error_title')}</strong>
      <span>{error.message}</span>
      {onRetry ? (
        <button type="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      ) : null}
    </div>
  );
}

export function Loading() {
  const { t } = useTranslation();
  // A session renewal held back by a rate limit says so rather than looking stuck (api/session.ts).
  const retryAt = useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.retryingAt(),
  );
  return (
    <p className="muted" role="status" data-loading="">
      {retryAt === null
        ? t('common.loading')
        : t('common.renewal_rate_limited', { seconds: Math.max(1, Math.ceil((retryAt - Date.now()) / 1000)) })}
    </p>
  );
}

/** A labelled form control with its error message tied to it for screen readers. */
export function Field({
  label,
  error,
  children,
  hint,
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode;
}) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy })}
      {hint && !error ? (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      ) : null}
    </div>
  );
}

/** The page a role may not open: the API would refuse its data with 403 as well. */
export function Forbidden() {
  const { t } = useTranslation();
  return (
    <section className="status-page">
      <h1>{t('common.forbidden_title')}</h1>
      <p>{t('common.forbidden_text')}</p>
      <Link to="/">{t('common.go_home')}</Link>
    </section>
  );
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="status-page">
      <h1>{t('common.not_found_title')}</h1>
      <p>{t('common.not_found_text')}</p>
      <Link to="/">{t('common.go_home')}</Link>
    </section>
  );
}

/** Whether a failed request was refused for the caller's role (403): pages then show Forbidden. */
export function isForbidden(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as HttpError).statusCode === 403;
}

/**
 * A list's read as the page shows it: its failure (with a retry), the loading line, and, once read without error,
 * `empty` when there is nothing (`isEmpty`) to show.
 */
export function QueryStatus({
  query,
  isEmpty,
  empty,
}: {
  query: { error: HttpError | Error | null | undefined; isLoading: boolean; refetch: () => unknown };
  isEmpty?: boolean;
  empty?: ReactNode;
}) {
  return (
    <>
      <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      {query.isLoading ? <Loading /> : null}
      {isEmpty && !query.isLoading && !query.error ? <p className="muted">{empty}</p> : null}
    </>
  );
}

/** The header row of a `table.data`: one column header cell per label. */
function TableHead({ columns }: { columns: readonly ReactNode[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) => (
          <th key={index} scope="col">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A box that scrolls sideways on its own when what it holds (a wide table) is wider than the screen, so that the page
 * itself never does. It is a labelled region in the tab order, so that a keyboard can scroll it too.
 */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/**
 * A `table.data` with its column headers and its caption (for screen readers), its rows the children, in a box of its
 * own that scrolls sideways on a narrow screen.
 */
export function DataTable({
  columns,
  caption,
  className,
  children,
}: {
  columns: readonly ReactNode[];
  caption: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <ScrollBox label={caption}>
      <table className={className ? `data ${className}` : 'data'}>
        <caption className="visually-hidden">{caption}</caption>
        <TableHead columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </ScrollBox>
  );
}
