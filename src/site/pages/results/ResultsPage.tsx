import { type SearchQuery, type SearchResult, searchQueryParams, searchQueryString } from '../../../modules/search/index.js';
import { Breadcrumbs, type Crumb } from '../../components/Breadcrumbs.js';
import { FormNotice } from '../../components/Form.js';
import { ListingCard } from '../../components/ListingCard.js';
import { Pagination } from '../../components/Pagination.js';
import type { PageContext } from '../../page.js';
import { listingPath } from '../../paths.js';
import { fill } from '../../texts.js';
import { ActiveFilters, FacetLists, type Facets } from './ResultsFacets.js';
import { FilterForm, type FilterFormValues, SaveSearchForm, SortForm } from './ResultsForm.js';
import { pathOf, placeValueOf, resultsUrl, type TermBook, without } from './results-query.js';
import type { FormChoices } from './results-terms.js';
import { resultsText } from './results.text.js';

export interface ResultsData {
  readonly search: SearchQuery;
  readonly book: TermBook;
  readonly result: SearchResult;
  readonly heading: string;
  readonly crumbs: readonly Crumb[];
  readonly choices: FormChoices;
  /** What saving this search did, shown to the signed-in visitor who saved it. */
  readonly notice: 'saved' | 'limit' | null;
  /** The API's base path (`/realty-api/v1`, after API_PREFIX): the map island reads its clusters there. */
  readonly apiBase: string;
}

/** The results of a search: heading, chips, the list with its sort and paging, the map, the filters. */
export function ResultsPage({ ctx, data }: { ctx: PageContext; data: ResultsData }) {
  const t = resultsText[ctx.lang];
  const { search, book, result, heading } = data;
  const { pagination, properties } = result;
  const facets: Facets = result.facets ?? {};
  const page = pagination.current_page;
  const offset = (page - 1) * pagination.per_page;
  const total = pagination.total_records;
  const here = resultsUrl(search, book);
  let firstPicture = true;
  return (
    <div class="results">
      <Breadcrumbs ctx={ctx} crumbs={data.crumbs} />
      <header class="results__head">
        <h1>{heading}</h1>
        <p class="results__count">
          {total === 0
            ? t.none
            : properties.length === 0
              ? fill(t.count, { count: ctx.format.number(total) })
              : total === 1
                ? t.count_one
                : fill(t.showing, {
                    from: ctx.format.number(offset + 1),
                    to: ctx.format.number(offset + properties.length),
                    count: ctx.format.number(total),
                  })}
        </p>
        {data.notice === 'saved' ? (
          <FormNotice>
            {t.saved} <a href={ctx.path('/account/saved-searches')}>{t.saved_link}</a>
          </FormNotice>
        ) : data.notice === 'limit' ? (
          <FormNotice kind="error">
            {t.saved_limit} <a href={ctx.path('/account/saved-searches')}>{t.saved_link}</a>
          </FormNotice>
        ) : null}
        <ActiveFilters ctx={ctx} query={search} book={book} />
        <p class="results__jump">
          <a class="button button--quiet" href="#filters">
            {t.to_filters}
          </a>
        </p>
      </header>
      <div class="results__body">
        <section class="results__list" aria-labelledby="results-heading">
          <h2 class="visually-hidden" id="results-heading">
            {t.list_heading}
          </h2>
          <div class="results__tools">
            <SortForm
              ctx={ctx}
              action={ctx.path(pathOf(here))}
              params={[...new URLSearchParams(here.slice(pathOf(here).length + 1))].filter(([name]) => name !== 'sortby')}
              sortby={search.sortby ?? (search.keyword ? 'relevance' : 'd_date')}
            />
            <SaveSearchForm ctx={ctx} query={searchQueryString(without(search, 'facets'))} />
          </div>
          {properties.length > 0 ? (
            <ul class="results__cards">
              {properties.map((listing) => {
                const priority = firstPicture && listing.featured_image !== null;
                if (priority) firstPicture = false;
                return (
                  <li key={listing.id}>
                    <ListingCard ctx={ctx} listing={listing} priority={priority} />
                  </li>
                );
              })}
            </ul>
          ) : total > 0 ? (
            <p class="results__empty">
              {t.past_last} <a href={ctx.path(here)}>{t.first_page}</a>
            </p>
          ) : (
            <p class="results__empty">{t.none_hint}</p>
          )}
          <Pagination ctx={ctx} page={page} totalPages={pagination.total_pages} href={(n) => ctx.path(resultsUrl(search, book, n))} />
        </section>
        <ResultsMap ctx={ctx} data={data} />
        <aside id="filters" class="results__filters" aria-labelledby="filters-heading">
          <h2 id="filters-heading">{t.filters}</h2>
          <FacetLists ctx={ctx} query={search} book={book} facets={facets} />
          <FilterForm ctx={ctx} choices={data.choices} values={formValuesOf(search, book, facets)} />
        </aside>
      </div>
    </div>
  );
}

/** The filter form's values of a search that ran: its canonical parameters and the names of its terms. */
function formValuesOf(search: SearchQuery, book: TermBook, facets: Facets): FilterFormValues {
  const params = searchQueryParams(without(search, 'facets', 'sortby'));
  if (search.sortby) params.sortby = search.sortby;
  const names: Record<string, string> = {};
  for (const field of ['type', 'status'] as const) {
    const values = search.terms?.[field];
    if (values?.length) names[`${field}:${values.join(',')}`] = values.map((value) => book.name(field, value)).join(', ');
  }
  const place = placeValueOf(search);
  if (place) {
    const [facet, slug] = place.split(':') as ['city' | 'area', string];
    names[`place:${place}`] = book.name(facet, slug);
  }
  const currencies = (facets.currency ?? []).map((count) => String(count.value));
  return { params, place, names, currencies, errors: {} };
}

/**
 * The map of the results: an island (browser/results-map.js) that draws the search's clusters once it is in
 * view, loading Leaflet only then. Without script it is a fixed box with a short note; the list has every result.
 */
function ResultsMap({ ctx, data }: { ctx: PageContext; data: ResultsData }) {
  const t = resultsText[ctx.lang];
  const { search } = data;
  // The map's own box replaces the search's; the order and paging do not change clusters.
  const filters = searchQueryString(without(search, 'facets', 'sortby', 'box'));
  const box = search.box ? [search.box.south, search.box.west, search.box.north, search.box.east].join(',') : undefined;
  const points = data.result.properties.flatMap(({ address }) =>
    address.latitude !== null && address.longitude !== null ? [[address.latitude, address.longitude] as const] : [],
  );
  const bounds =
    !box && points.length > 0
      ? [
          Math.min(...points.map(([lat]) => lat)),
          Math.min(...points.map(([, lng]) => lng)),
          Math.max(...points.map(([lat]) => lat)),
          Math.max(...points.map(([, lng]) => lng)),
        ].join(',')
      : undefined;
  return (
    <section class="results__map" aria-label={t.map}>
      <div
        class="results-map"
        data-clusters={`${data.apiBase}/properties/search/map`}
        data-listings={`${data.apiBase}/properties/search`}
        data-filters={filters}
        data-box={box}
        data-bounds={box ?? bounds}
        data-prefix={ctx.path('')}
        data-tiles={ctx.tiles.url}
        data-attribution={ctx.tiles.attribution}
        data-leaflet={ctx.asset('leaflet.js')}
        data-leaflet-css={ctx.asset('leaflet.css')}
        data-text-loading={t.map_loading}
        data-text-failed={t.map_failed}
        data-text-search-area={t.search_area}
        data-text-cluster={t.cluster}
        data-locale={ctx.format.locale}
      >
        <p class="results-map__note">{t.map_note}</p>
      </div>
    </section>
  );
}

/** A search that cannot be run (a value out of range, a typo): what is wrong, and the form to correct it. */
export function BadSearchPage({
  ctx,
  choices,
  values,
  messages,
}: {
  ctx: PageContext;
  choices: FormChoices;
  values: FilterFormValues;
  messages: readonly (readonly [string, string])[];
}) {
  const t = resultsText[ctx.lang];
  return (
    <div class="results results--bad">
      <h1>{t.bad_title}</h1>
      <div class="form-notice form-notice--error" role="alert">
        <p>{t.bad_text}</p>
        <ul>
          {messages.map(([field, message]) => (
            <li key={field}>
              <strong>{field}</strong>: {message}
            </li>
          ))}
        </ul>
      </div>
      <FilterForm ctx={ctx} choices={choices} values={values} />
    </div>
  );
}

/** schema.org ItemList of the page's listings, each at its place in the whole result and at its page in this language. */
export function itemListJsonLd(ctx: PageContext, result: SearchResult): object {
  const offset = (result.pagination.current_page - 1) * result.pagination.per_page;
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    numberOfItems: result.properties.length,
    itemListElement: result.properties.map((listing, index) => ({
      '@type': 'ListItem',
      position: offset + index + 1,
      url: `${ctx.publicUrl}${ctx.path(listingPath(listing.slug))}`,
    })),
  };
}
