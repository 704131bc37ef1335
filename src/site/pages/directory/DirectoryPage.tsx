import type { AgencyListRecord, AgentListRecord, DirectorySort } from '../../../modules/directory/index.js';
import type { MediaRecord } from '../../../modules/media/index.js';
import type { TermRecord } from '../../../modules/taxonomies/index.js';
import type { PaginationRecord } from '../../../lib/paging.js';
import { breadcrumbJsonLd, Breadcrumbs, type Crumb } from '../../components/Breadcrumbs.js';
import { Pagination } from '../../components/Pagination.js';
import type { PageContext, RenderedPage } from '../../page.js';
import { withQuery } from '../../paths.js';
import { fill } from '../../texts.js';
import { AgencyCard, AgentCard } from './cards.js';
import { directoryText, type DirectoryTextKey } from './directory.text.js';
import { countOf } from './profile-parts.js';

/** The search of a directory page as the visitor asked it (empty fields left out). */
export interface DirectorySearch {
  readonly keyword?: string;
  readonly city?: string;
  readonly category?: string;
  readonly language?: string;
  readonly sortby?: DirectorySort;
  readonly page?: number;
}

export type DirectoryData =
  | {
      readonly kind: 'agents';
      readonly list: AgentListRecord;
      readonly images: ReadonlyMap<number, MediaRecord>;
      readonly cities: readonly TermRecord[];
      readonly categories: readonly TermRecord[];
    }
  | { readonly kind: 'agencies'; readonly list: AgencyListRecord; readonly images: ReadonlyMap<number, MediaRecord> };

const SORT_KEYS: Readonly<Record<DirectorySort, DirectoryTextKey>> = {
  a_name: 'sort_a_name',
  d_name: 'sort_d_name',
  d_rating: 'sort_d_rating',
  d_properties: 'sort_d_properties',
};

/** Whether the search narrows or reorders the plain list: such pages are not indexed (docs/site.md). */
function isFiltered(search: DirectorySearch): boolean {
  return [search.keyword, search.city, search.category, search.language, search.sortby].some((value) => value !== undefined);
}

/**
 * `/agents` and `/agencies`: the directory with its GET search form, cards and paging. The plain list and its pages
 * are indexed; a searched or re-sorted one is `noindex`, canonical at the plain list.
 */
export function directoryPage(ctx: PageContext, data: DirectoryData, search: DirectorySearch): RenderedPage {
  const t = directoryText[ctx.lang];
  const base = `/${data.kind}`;
  const page = search.page ?? 1;
  const filtered = isFiltered(search);
  const heading = data.kind === 'agents' ? t.agents_title : t.agencies_title;
  const crumbs: Crumb[] = [{ name: t.home, path: '/' }, { name: data.kind === 'agents' ? t.agents : t.agencies }];
  const params = {
    keyword: search.keyword,
    city: search.city,
    category: search.category,
    language: search.language,
    sortby: search.sortby,
  };
  const pagination: PaginationRecord = data.list.pagination;
  const found = countOf(
    ctx,
    pagination.total_records,
    data.kind === 'agents' ? 'found_agents_one' : 'found_agencies_one',
    data.kind === 'agents' ? 'found_agents_other' : 'found_agencies_other',
  );
  return {
    meta: {
      title: page > 1 ? fill(t.page_suffix, { title: heading, page: ctx.format.number(page) }) : heading,
      description: fill(data.kind === 'agents' ? t.agents_description : t.agencies_description, { site: ctx.brand.siteName }),
      canonical: filtered ? base : withQuery(base, { page: page > 1 ? page : undefined }),
      noindex: filtered,
      jsonLd: [breadcrumbJsonLd(ctx, crumbs)],
    },
    body: (
      <div class="wrap directory">
        <Breadcrumbs ctx={ctx} crumbs={crumbs} />
        <h1>{heading}</h1>
        <SearchForm ctx={ctx} data={data} search={search} />
        <p class="directory__found" role="status">
          {found}
        </p>
        {data.kind === 'agents' ? (
          data.list.agents.length > 0 ? (
            <ul class="profile-grid">
              {data.list.agents.map((agent) => (
                <li key={agent.id}>
                  <AgentCard ctx={ctx} agent={agent} picture={data.images.get(agent.id)} />
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">{t.no_agents_found}</p>
          )
        ) : data.list.agencies.length > 0 ? (
          <ul class="profile-grid">
            {data.list.agencies.map((agency) => (
              <li key={agency.id}>
                <AgencyCard ctx={ctx} agency={agency} logo={data.images.get(agency.id)} />
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">{t.no_agencies_found}</p>
        )}
        <Pagination
          ctx={ctx}
          page={pagination.current_page}
          totalPages={pagination.total_pages}
          href={(n) => ctx.path(withQuery(base, { ...params, page: n > 1 ? n : undefined }))}
        />
      </div>
    ),
  };
}

function SearchForm({ ctx, data, search }: { ctx: PageContext; data: DirectoryData; search: DirectorySearch }) {
  const t = directoryText[ctx.lang];
  const label = data.kind === 'agents' ? t.search_agents : t.search_agencies;
  return (
    <form class="directory-search" method="get" action={ctx.path(`/${data.kind}`)} role="search" aria-label={label}>
      <div class="field">
        <label for="directory-keyword">{t.keyword}</label>
        <input id="directory-keyword" name="keyword" type="search" value={search.keyword ?? ''} maxLength={200} autocomplete="off" />
      </div>
      {data.kind === 'agents' ? (
        <>
          <TermSelect ctx={ctx} id="directory-city" name="city" label={t.city} terms={data.cities} chosen={search.city} />
          <TermSelect
            ctx={ctx}
            id="directory-category"
            name="category"
            label={t.category}
            terms={data.categories}
            chosen={search.category}
          />
          <div class="field">
            <label for="directory-language">{t.language}</label>
            <input
              id="directory-language"
              name="language"
              type="text"
              value={search.language ?? ''}
              maxLength={50}
              placeholder={t.language_placeholder}
              autocomplete="off"
            />
          </div>
        </>
      ) : null}
      <div class="field">
        <label for="directory-sort">{t.sort}</label>
        <select id="directory-sort" name="sortby">
          {(Object.keys(SORT_KEYS) as DirectorySort[]).map((sort) => (
            // The default order is the empty value, so that an untouched form opens the plain list.
            <option key={sort} value={sort === 'a_name' ? '' : sort} selected={(search.sortby ?? 'a_name') === sort}>
              {t[SORT_KEYS[sort]]}
            </option>
          ))}
        </select>
      </div>
      <div class="directory-search__actions">
        <button class="button" type="submit">
          {t.search}
        </button>
        {isFiltered(search) ? (
          <a class="button button--quiet" href={ctx.path(`/${data.kind}`)}>
            {t.clear}
          </a>
        ) : null}
      </div>
    </form>
  );
}

function TermSelect({
  ctx,
  id,
  name,
  label,
  terms,
  chosen,
}: {
  ctx: PageContext;
  id: string;
  name: string;
  label: string;
  terms: readonly TermRecord[];
  chosen: string | undefined;
}) {
  const t = directoryText[ctx.lang];
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name}>
        <option value="">{t.any}</option>
        {terms.map((term) => (
          <option key={term.id} value={term.slug} selected={term.slug === chosen}>
            {term.name}
          </option>
        ))}
      </select>
    </div>
  );
}
