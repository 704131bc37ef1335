import './explore.css';
import { type HttpError, useCustom } from '@refinedev/core';
import { keepPreviousData } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { SaveSearchButton } from '../saved-searches/SaveSearchButton';
import { ErrorNotice, isForbidden, Forbidden, PageHeader, Pager } from '../../components/ui';
import type { ViewChange } from './ClusterMap';
import { FacetPanel } from './FacetPanel';
import {
  type BoundingBox,
  clearFilters,
  clusterQuery,
  type ExploreState,
  filterQuery,
  listQuery,
  parseState,
  filterPrice,
  selectFacet,
  stateSearch,
  type Sort,
  SORTS,
} from './explore-state';
import { imageUrl } from './format';
import type { ClusterAnswer, ListingSummary, SearchAnswer } from './types';
import { formatCount, formatListingPrice, formatNumber } from '../../format';

const ClusterMap = lazy(() => import('./ClusterMap'));

const PER_PAGE = 12;
/** Where the filters fold behind their button (explore.css has the same width). */
const NARROW = '(max-width: 800px)';
/** How long typing in the keyword box rests before it searches (Enter searches at once). */
const TYPING_MS = 400;

/** How the page's searches are read: quietly on failure (the page shows it), keeping the last answer while the next loads. */
function whileNext(enabled: boolean) {
  return { errorNotification: false as const, queryOptions: { enabled, placeholderData: keepPreviousData } };
}

/**
 * The map search: filters with counts (the search's facets), the listings' clusters on a map of the current
 * view, and the matching listings beside it. Every filter lives in the URL, so a view can be shared and
 * reloaded; both the map and the list follow the same filters.
 */
export default function ExplorePage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // The filters as the address says them. The router applies a navigation as a transition, so the page keeps
  // its own copy that changes at once (a ticked box shows ticked immediately) and follows the address when it
  // changes from outside (back and forward buttons, a link).
  const [search, setSearch] = useState(location.search);
  const latest = useRef(location.search);
  useEffect(() => {
    latest.current = location.search;
    setSearch(location.search);
  }, [location.search]);
  const state = useMemo(() => parseState(new URLSearchParams(search)), [search]);
  const [area, setArea] = useState<{ box: BoundingBox; zoom: number } | null>(null);
  const [highlighted, setHighlighted] = useState<number | null>(null);
  // On a narrow screen the filters fold behind a button (explore.css), so that the map and the results come first.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  // Folded filters are not drawn at all: a phone's first screen costs less work.
  const narrow = useSyncExternalStore(
    (listener) => {
      const query = window.matchMedia(NARROW);
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    () => window.matchMedia(NARROW).matches,
  );

  // The browser's address moves as soon as a link is followed, while the router renders the next page in a
  // transition; a change reported meanwhile (the map settling after a move) must not take the user back here.
  const ownPath = useRef(window.location.pathname);

  const update = useCallback(
    (change: (current: ExploreState) => ExploreState, replace = false) => {
      if (window.location.pathname !== ownPath.current) return;
      const next = stateSearch(change(parseState(new URLSearchParams(latest.current))));
      if (next === latest.current) return;
      latest.current = next;
      setSearch(next);
      navigate({ search: next }, { replace });
    },
    [navigate],
  );

  // The data provider hands React Query's abort signal to each read, so a newer search (panning the map, ticking
  // filters quickly) stops the one it replaces; the previous answer stays shown meanwhile (no flicker).
  const results = useCustom<SearchAnswer, HttpError>({
    url: '/properties/search',
    method: 'get',
    config: { query: listQuery(state, PER_PAGE, area?.box ?? null) },
    ...whileNext(!state.inView || area !== null),
  });
  const clusters = useCustom<ClusterAnswer, HttpError>({
    url: '/properties/search/map',
    method: 'get',
    config: { query: area ? clusterQuery(state, area.box, area.zoom) : {} },
    ...whileNext(area !== null),
  });
  const answer = results.query.data?.data;
  const listings = useMemo(() => answer?.properties ?? [], [answer]);
  const spot = useMemo(() => {
    const listing = listings.find((item) => item.id === highlighted);
    return listing ? { id: listing.id, latitude: listing.address.latitude, longitude: listing.address.longitude } : null;
  }, [listings, highlighted]);
  const titles = useMemo(() => new Map(listings.map((listing) => [listing.id, listing.title])), [listings]);

  const onView = useCallback(
    (change: ViewChange) => {
      setArea({ box: change.box, zoom: change.zoom });
      update((current) => ({ ...current, view: change.view, page: current.inView ? 1 : current.page }), true);
    },
    [update],
  );
  const open = useCallback((id: number) => navigate(`/explore/${id}`, { state: { from: location.search } }), [navigate, location.search]);

  if (isForbidden(results.query.error)) return <Forbidden />;
  const total = answer?.pagination.total_records;
  const count = (value: number) => formatCount(value, i18n.language);

  return (
    <section className="explore">
      <PageHeader title={t('explore.title')}>
        <KeywordSearch
          keyword={state.keyword}
          onSearch={(keyword) =>
            update((current) => ({
              ...current,
              keyword,
              page: 1,
              sort: current.sort === 'relevance' && !keyword ? '' : current.sort,
            }))
          }
        />
        <label className="explore-sort">
          {t('explore.sort')}{' '}
          <select
            value={state.sort}
            onChange={(event) => update((current) => ({ ...current, sort: event.target.value as Sort | '', page: 1 }))}
          >
            <option value="">{t('explore.sort_default')}</option>
            {SORTS.filter((sort) => sort !== 'relevance' || state.keyword).map((sort) => (
              <option key={sort} value={sort}>
                {t(`explore.sort_${sort}`)}
              </option>
            ))}
          </select>
        </label>
        <SaveSearchButton query={Object.fromEntries(Object.entries(filterQuery(state)).map(([key, value]) => [key, String(value)]))} />
      </PageHeader>

      <div className={filtersOpen ? 'explore-layout explore-filters-open' : 'explore-layout'}>
        <button
          type="button"
          className="explore-filters-toggle"
          aria-expanded={filtersOpen}
          aria-controls={filtersId}
          onClick={() => setFiltersOpen((open) => !open)}
        >
          {t('explore.filters')}
          {activeFilters(state) > 0 ? ` (${count(activeFilters(state))})` : null}
        </button>
        {filtersOpen || !narrow ? (
          <FacetPanel
            id={filtersId}
            state={state}
            facets={answer?.facets}
            busy={results.query.isFetching}
            onSelect={(facet, value, on) => update((current) => selectFacet(current, facet, value, on))}
            onPrice={(min, max, currency) => update((current) => filterPrice(current, min, max, currency))}
            onClear={() => update(clearFilters)}
          />
        ) : null}

        <div className="explore-map-pane" aria-busy={clusters.query.isFetching}>
          <Suspense fallback={<p className="explore-map explore-map-loading muted">{t('explore.map_loading')}</p>}>
            <ClusterMap
              initialView={state.view}
              clusters={clusters.query.data?.data.clusters}
              highlighted={spot}
              titles={titles}
              label={t('explore.map_label')}
              clusterLabel={(value) => t('explore.cluster_label', { value: count(value) })}
              markerLabel={(id, title) => (title ? t('explore.marker_label', { title }) : t('explore.marker_label_id', { id }))}
              countText={(value) => new Intl.NumberFormat(i18n.language, { notation: 'compact' }).format(value)}
              onView={onView}
              onOpen={open}
            />
          </Suspense>
          <div className="explore-map-foot">
            <span className="muted" data-testid="explore-map-total">
              {clusters.query.data ? t('explore.map_total', { value: count(clusters.query.data.data.total) }) : '\u00a0'}
            </span>
            <label>
              <input
                type="checkbox"
                checked={state.inView}
                onChange={(event) => update((current) => ({ ...current, inView: event.target.checked, page: 1 }))}
              />{' '}
              {t('explore.in_view')}
            </label>
          </div>
          <ErrorNotice error={clusters.query.error} onRetry={() => void clusters.query.refetch()} />
        </div>

        <section className="explore-results" aria-labelledby="explore-results-heading" aria-busy={results.query.isFetching}>
          <h2 id="explore-results-heading">{t('explore.results')}</h2>
          <p role="status" className="explore-total">
            {total !== undefined ? t('explore.result_count', { value: count(total) }) : t('common.loading')}
            {results.query.isFetching && answer ? <span className="muted"> {t('explore.updating')}</span> : null}
          </p>
          <ErrorNotice error={results.query.error} onRetry={() => void results.query.refetch()} />
          {answer && listings.length === 0 ? <p className="muted">{t('explore.no_results')}</p> : null}
          <ol className="explore-list">
            {listings.map((listing) => (
              <ResultItem
                key={listing.id}
                listing={listing}
                from={location.search}
                active={highlighted === listing.id}
                onHighlight={setHighlighted}
              />
            ))}
          </ol>
          {answer ? (
            <Pager
              currentPage={answer.pagination.current_page}
              pageCount={answer.pagination.total_pages}
              total={answer.pagination.total_records}
              onPage={(page) => update((current) => ({ ...current, page }))}
            />
          ) : null}
        </section>
      </div>
    </section>
  );
}

/** How many filters are chosen (the filters button says so while the panel is folded). */
function activeFilters(state: ExploreState): number {
  return (
    state.types.length + state.statuses.length + state.cities.length + (state.bedrooms === null ? 0 : 1) + (state.price === null ? 0 : 1)
  );
}

/** The keyword box: searches on Enter or the button, and by itself when typing pauses. */
function KeywordSearch({ keyword, onSearch }: { keyword: string; onSearch: (keyword: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [draft, setDraft] = useState(keyword);
  const applied = useRef(keyword);
  // A keyword set from elsewhere (clear filters, back button) replaces the draft; our own does not.
  useEffect(() => {
    if (keyword !== applied.current) {
      applied.current = keyword;
      setDraft(keyword);
    }
  }, [keyword]);
  const apply = (value: string) => {
    const next = value.trim();
    if (next === applied.current) return;
    applied.current = next;
    onSearch(next);
  };
  useEffect(() => {
    const timer = setTimeout(() => apply(draft), TYPING_MS);
    return () => clearTimeout(timer);
    // Only typing restarts the pause.
  }, [draft]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  return (
    <form role="search" className="explore-search" onSubmit={submit}>
      <label htmlFor={id}>{t('explore.keyword')}</label>
      <input
        id={id}
        type="search"
        value={draft}
        maxLength={200}
        title={t('explore.keyword_hint')}
        onChange={(event) => setDraft(event.target.value)}
      />
      <button type="submit" className="primary">
        {t('common.search')}
      </button>
    </form>
  );
}

/** One listing of the results; hovering or focusing it marks its pin on the map. */
/** Result cards show whole amounts, as the listings' own prices mostly are. */
const WHOLE = { maximumFractionDigits: 0 };

function ResultItem({
  listing,
  from,
  active,
  onHighlight,
}: {
  listing: ListingSummary;
  from: string;
  active: boolean;
  onHighlight: (id: number | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const image = listing.featured_image ?? listing.gallery[0] ?? null;
  const facts = [
    listing.bedrooms === 0
      ? t('common.studio')
      : listing.bedrooms !== null
        ? t('explore.beds', { value: formatNumber(listing.bedrooms, i18n.language) })
        : null,
    listing.bathrooms !== null ? t('explore.baths', { value: formatNumber(listing.bathrooms, i18n.language) }) : null,
    listing.size !== null
      ? t(listing.size_unit === 'm2' ? 'explore.size_m2' : 'explore.size_sqft', { value: formatNumber(listing.size, i18n.language) })
      : null,
  ].filter(Boolean);
  const place = [listing.address.area?.name, listing.address.city?.name].filter(Boolean).join(', ');
  return (
    <li
      className={active ? 'explore-item explore-item-active' : 'explore-item'}
      onMouseEnter={() => onHighlight(listing.id)}
      onMouseLeave={() => onHighlight(null)}
      onFocus={() => onHighlight(listing.id)}
      onBlur={() => onHighlight(null)}
    >
      {image ? (
        <img className="thumb explore-thumb" src={imageUrl(image, 'thumbnail')} alt="" width={96} height={96} loading="lazy" />
      ) : (
        <span className="thumb explore-thumb image-placeholder">{t('explore.no_photo')}</span>
      )}
      <div className="explore-item-text">
        <Link to={`/explore/${listing.id}`} state={{ from }} className="explore-item-title">
          <bdi dir="auto">{listing.title}</bdi>
        </Link>
        <strong className="explore-price">
          <bdi>{formatListingPrice(listing, i18n.language, WHOLE, t) ?? t('common.price_on_request')}</bdi>
        </strong>
        {facts.length ? <span>{facts.join(' · ')}</span> : null}
        {place ? <span className="muted">{place}</span> : null}
        {listing.featured ? <span className="tag">{t('explore.featured')}</span> : null}
      </div>
    </li>
  );
}
