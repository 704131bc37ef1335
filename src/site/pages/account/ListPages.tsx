import type { ComponentChildren } from 'preact';
import type { PropertySummaryRecord } from '../../../modules/properties/index.js';
import { CsrfField, FormNotice } from '../../components/Form.js';
import { ListingCard } from '../../components/ListingCard.js';
import { Pagination } from '../../components/Pagination.js';
import type { PageContext } from '../../page.js';
import { withQuery } from '../../paths.js';
import type { SiteServices } from '../../site-services.js';
import { fill } from '../../texts.js';
import { accountText } from './account.text.js';
import type { Notice } from './AuthPages.js';

export type SavedSearch = Awaited<ReturnType<SiteServices['savedSearches']['list']>>['saved_searches'][number];

/** A page of one of the visitor's lists, with its figures. */
export interface ListPage<T> {
  readonly items: readonly T[];
  readonly page: number;
  readonly totalPages: number;
  readonly total: number;
}

/** The frame of the account lists: the heading, the figure, a notice and a way back when the page is empty. */
function ListFrame({
  ctx,
  title,
  count,
  notice,
  children,
}: {
  ctx: PageContext;
  title: string;
  count: string | null;
  notice: Notice | null;
  children: ComponentChildren;
}) {
  return (
    <section class="wrap section account-list">
      <h1>{title}</h1>
      {count ? <p class="muted">{count}</p> : null}
      {notice ? <FormNotice kind={notice.kind}>{notice.text}</FormNotice> : null}
      {children}
      <p class="account-list__more">
        <a class="button button--quiet" href={ctx.path('/properties')}>
          {accountText[ctx.lang].browse}
        </a>
      </p>
    </section>
  );
}

/** An empty page: nothing saved yet, or a page past the last one. */
function EmptyList({ ctx, list, empty }: { ctx: PageContext; list: ListPage<unknown>; empty: string }) {
  const t = accountText[ctx.lang];
  if (list.total === 0) return <p>{empty}</p>;
  return (
    <p>
      {t.page_empty} <a href={ctx.path(ctx.plainPath.split('?')[0]!)}>{t.first_page}</a>
    </p>
  );
}

export function FavoritesPage({ ctx, list, notice }: { ctx: PageContext; list: ListPage<PropertySummaryRecord>; notice: Notice | null }) {
  const t = accountText[ctx.lang];
  return (
    <ListFrame
      ctx={ctx}
      title={t.favorites_title}
      count={list.total > 0 ? fill(t.favorites_count, { count: ctx.format.number(list.total) }) : null}
      notice={notice}
    >
      {list.items.length === 0 ? (
        <EmptyList ctx={ctx} list={list} empty={t.favorites_empty} />
      ) : (
        <ul class="card-grid">
          {list.items.map((listing) => (
            <li key={listing.id} class="favorite">
              <ListingCard ctx={ctx} listing={listing} headingLevel={2} />
              <form class="favorite__remove" method="post" action={ctx.path(`/account/favorites/${listing.id}/remove`)}>
                <CsrfField ctx={ctx} />
                <input type="hidden" name="page" value={String(list.page)} />
                <button class="button button--quiet" type="submit" aria-label={fill(t.remove_label, { title: listing.title })}>
                  {t.remove}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <Pagination
        ctx={ctx}
        page={list.page}
        totalPages={list.totalPages}
        href={(page) => ctx.path(withQuery('/account/favorites', { page: page > 1 ? page : null }))}
      />
    </ListFrame>
  );
}

/** The alerts choices of a saved search: off, or on at one of the frequencies. */
const ALERT_CHOICES = ['off', 'instant', 'daily', 'weekly'] as const;
export type AlertChoice = (typeof ALERT_CHOICES)[number];

function alertChoiceOf(search: Pick<SavedSearch, 'email_alerts' | 'frequency'>): AlertChoice {
  return search.email_alerts ? search.frequency : 'off';
}

export function SavedSearchesPage({ ctx, list, notice }: { ctx: PageContext; list: ListPage<SavedSearch>; notice: Notice | null }) {
  const t = accountText[ctx.lang];
  const choiceName = (choice: AlertChoice) => t[`alerts_${choice}`];
  return (
    <ListFrame
      ctx={ctx}
      title={t.saved_title}
      count={list.total > 0 ? fill(t.saved_count, { count: ctx.format.number(list.total) }) : null}
      notice={notice}
    >
      {list.items.length === 0 ? (
        <EmptyList ctx={ctx} list={list} empty={t.saved_empty} />
      ) : (
        <ul class="saved-list">
          {list.items.map((search) => {
            const choice = alertChoiceOf(search);
            const id = `saved-${search.id}`;
            return (
              <li key={search.id} class="saved">
                <h2 class="saved__name" id={`${id}-name`}>
                  {search.name}
                </h2>
                {search.display_text !== search.name ? <p class="saved__text">{search.display_text}</p> : null}
                <p class="saved__meta muted">
                  <span>{choice === 'off' ? t.alerts_now_off : fill(t.alerts_now_on, { frequency: choiceName(choice) })}</span>
                  <span>{fill(t.saved_on, { date: ctx.format.date(search.created_at) })}</span>
                  {search.last_notified_at ? <span>{fill(t.last_alert, { date: ctx.format.date(search.last_notified_at) })}</span> : null}
                </p>
                <div class="saved__actions">
                  <a class="button" href={ctx.path(`/properties?${search.query_string}`)}>
                    {t.run}
                  </a>
                  <form class="saved__alerts" method="post" action={ctx.path(`/account/saved-searches/${search.id}/alerts`)}>
                    <CsrfField ctx={ctx} />
                    <input type="hidden" name="page" value={String(list.page)} />
                    <label for={`${id}-alerts`}>{t.alerts}</label>
                    <select id={`${id}-alerts`} name="alerts">
                      {ALERT_CHOICES.map((value) => (
                        <option key={value} value={value} selected={value === choice}>
                          {choiceName(value)}
                        </option>
                      ))}
                    </select>
                    <button class="button button--quiet" type="submit">
                      {t.save_alerts}
                    </button>
                  </form>
                  <form method="post" action={ctx.path(`/account/saved-searches/${search.id}/delete`)}>
                    <CsrfField ctx={ctx} />
                    <input type="hidden" name="page" value={String(list.page)} />
                    <button
                      class="button button--quiet button--danger"
                      type="submit"
                      aria-label={fill(t.delete_label, { name: search.name })}
                    >
                      {t.delete}
                    </button>
                  </form>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination
        ctx={ctx}
        page={list.page}
        totalPages={list.totalPages}
        href={(page) => ctx.path(withQuery('/account/saved-searches', { page: page > 1 ? page : null }))}
      />
    </ListFrame>
  );
}
