import type { NumberRange, SearchQuery, SearchResult, TaxonomyFilter } from '../../../modules/search/index.js';
import { componentsText } from '../../components/components.text.js';
import type { PageContext } from '../../page.js';
import { fill } from '../../texts.js';
import { hasTerm, isLandingSearch, resultsUrl, type TermBook, toggledTerm, without, withTerms } from './results-query.js';
import { resultsText } from './results.text.js';

/**
 * The filters of a results page as links: the active ones as removable chips, and the facets (counts per value,
 * each link turning its value on or off). Links to searches beyond the landing pages are `nofollow`, so that
 * crawlers keep to the pages meant for them.
 */

type FacetCount = NonNullable<SearchResult['facets']>[string][number];
export type Facets = Readonly<Record<string, readonly FacetCount[]>>;

/** The facets the page asks for, in the order it shows them. */
export const PAGE_FACETS = ['status', 'type', 'city', 'area', 'bedrooms', 'feature', 'currency', 'price'] as const;

/** Values shown at once; the others fold under "More", up to the cap. */
const SHOWN = 8;
const MAX_VALUES = 20;

interface FilterLink {
  readonly label: string;
  readonly href: string;
  readonly follow: boolean;
}

function linkTo(ctx: PageContext, book: TermBook, query: SearchQuery, label: string): FilterLink {
  return { label, href: ctx.path(resultsUrl(query, book)), follow: isLandingSearch(query, book) };
}

/** `2–3`, `from 2`, `up to 3`, `2`. */
function rangeText(ctx: PageContext, range: NumberRange, format: (value: number) => string = ctx.format.number): string {
  const t = resultsText[ctx.lang];
  const { min, max } = range;
  if (min !== undefined && max !== undefined) return min === max ? format(min) : `${format(min)}–${format(max)}`;
  if (max !== undefined) return fill(t.range_up_to, { max: format(max) });
  return fill(t.range_from, { min: format(min!) });
}

/** Bedrooms by count: "Studio" for none, "1 bedroom", "3 bedrooms". */
function roomsLabel(ctx: PageContext, count: number): string {
  const t = resultsText[ctx.lang];
  if (count === 0) return componentsText[ctx.lang].studio;
  return count === 1 ? t.rooms_one : fill(t.rooms_count, { count: ctx.format.number(count) });
}

/** Every active filter of the search, each with the link that removes it. */
function chipsOf(ctx: PageContext, query: SearchQuery, book: TermBook): FilterLink[] {
  const t = resultsText[ctx.lang];
  const chips: FilterLink[] = [];
  const chip = (label: string, next: SearchQuery) => chips.push(linkTo(ctx, book, next, label));
  if (query.keyword) chip(fill(t.chip_keyword, { keyword: query.keyword }), without(query, 'keyword'));
  for (const [filter, values] of Object.entries(query.terms ?? {}) as [TaxonomyFilter, string[]][]) {
    for (const value of values)
      chip(
        book.name(filter, value),
        withTerms(
          query,
          filter,
          values.filter((other) => other !== value),
        ),
      );
  }
  if (query.price) {
    const money = (amount: number) => (query.currency ? ctx.format.money(amount, query.currency) : ctx.format.number(amount));
    chip(rangeText(ctx, query.price, money), without(query, 'price'));
  }
  if (query.currency) chip(fill(t.chip_prices_in, { currency: query.currency }), without(query, 'currency', 'price'));
  const bedrooms = query.bedrooms;
  if (bedrooms) {
    const exact = bedrooms.min !== undefined && bedrooms.min === bedrooms.max;
    chip(exact ? roomsLabel(ctx, bedrooms.min!) : fill(t.chip_beds, { range: rangeText(ctx, bedrooms) }), without(query, 'bedrooms'));
  }
  if (query.bathrooms) chip(fill(t.chip_baths, { range: rangeText(ctx, query.bathrooms) }), without(query, 'bathrooms'));
  if (query.size) chip(fill(t.chip_size, { range: rangeText(ctx, query.size) }), without(query, 'size'));
  if (query.land_size) chip(fill(t.chip_land, { range: rangeText(ctx, query.land_size) }), without(query, 'land_size'));
  if (query.garage !== undefined) chip(fill(t.chip_garage, { range: rangeText(ctx, { min: query.garage }) }), without(query, 'garage'));
  if (query.year_built) {
    chip(fill(t.chip_year, { range: rangeText(ctx, query.year_built, String) }), without(query, 'year_built'));
  }
  if (query.featured) chip(t.chip_featured, without(query, 'featured'));
  if (query.include_sold) chip(t.chip_sold, without(query, 'include_sold'));
  if (query.box) chip(t.chip_box, without(query, 'box'));
  if (query.circle) chip(t.chip_circle, without(query, 'circle', ...(query.sortby === 'distance' ? (['sortby'] as const) : [])));
  if (query.polygon) chip(t.chip_polygon, without(query, 'polygon'));
  if (query.agent_id !== undefined) chip(t.chip_agent, without(query, 'agent_id'));
  if (query.agency_id !== undefined) chip(t.chip_agency, without(query, 'agency_id'));
  if (query.user_id !== undefined) chip(t.chip_owner, without(query, 'user_id'));
  if (query.ids) chip(t.chip_ids, without(query, 'ids'));
  if (query.reference) chip(fill(t.chip_reference, { reference: query.reference }), without(query, 'reference'));
  return chips;
}

export function ActiveFilters({ ctx, query, book }: { ctx: PageContext; query: SearchQuery; book: TermBook }) {
  const chips = chipsOf(ctx, query, book);
  if (chips.length === 0) return null;
  const t = resultsText[ctx.lang];
  return (
    <nav class="chips" aria-label={t.active_filters}>
      <ul>
        {chips.map((chip) => (
          <li key={chip.href}>
            <a class="chip" href={chip.href} rel={chip.follow ? undefined : 'nofollow'} aria-label={fill(t.remove, { name: chip.label })}>
              <span>{chip.label}</span>
              <span class="chip__x" aria-hidden="true">
                ×
              </span>
            </a>
          </li>
        ))}
        <li>
          <a class="chips__clear" href={ctx.path('/properties')}>
            {t.clear_all}
          </a>
        </li>
      </ul>
    </nav>
  );
}

interface FacetValue extends FilterLink {
  readonly count: number;
  readonly active: boolean;
}

/** A range of the price facet: prices of one currency and of one status (the API never mixes them). */
interface PriceBucket {
  readonly min: number;
  readonly max: number;
  readonly currency: string;
  readonly status: string | null;
}

function facetValues(
  ctx: PageContext,
  query: SearchQuery,
  book: TermBook,
  name: (typeof PAGE_FACETS)[number],
  facets: Facets,
): FacetValue[] {
  const counts = (facets[name] ?? []).slice(0, MAX_VALUES);
  const value = (count: FacetCount, label: string, active: boolean, next: SearchQuery): FacetValue => ({
    ...linkTo(ctx, book, next, label),
    count: count.count,
    active,
  });
  switch (name) {
    case 'bedrooms':
      return counts.map((count) => {
        const rooms = Number(count.value);
        const active = query.bedrooms?.min === rooms && query.bedrooms.max === rooms;
        const next = active ? without(query, 'bedrooms') : { ...query, bedrooms: { min: rooms, max: rooms } };
        return value(count, roomsLabel(ctx, rooms), active, next);
      });
    case 'currency':
      return counts.map((count) => {
        const code = String(count.value);
        const active = query.currency === code;
        return value(count, code, active, active ? without(query, 'currency', 'price') : { ...without(query, 'price'), currency: code });
      });
    case 'price': {
      const ordered = [...counts].sort((a, b) => (a.value as PriceBucket).min - (b.value as PriceBucket).min);
      return ordered.map((count) => {
        const { min, max, currency, status } = count.value as PriceBucket;
        const active = query.price?.min === min && query.price.max === max && query.currency === currency;
        let next: SearchQuery = active ? without(query, 'price') : { ...query, price: { min, max }, currency };
        // The range counts one market's listings (for sale, for rent): choosing it chooses that market too.
        if (!active && status && !query.terms?.status?.length) next = withTerms(next, 'status', [status]);
        return value(
          count,
          rangeText(ctx, { min, max }, (amount) => ctx.format.money(amount, currency)),
          active,
          next,
        );
      });
    }
    default: {
      return counts.map((count) => {
        const slug = String(count.value);
        const active = hasTerm(query, book, name, slug);
        return value(count, count.name, active, toggledTerm(query, book, name, slug));
      });
    }
  }
}

function facetTitle(ctx: PageContext, name: (typeof PAGE_FACETS)[number], book: TermBook, facets: Facets): string {
  const t = resultsText[ctx.lang];
  if (name === 'price') {
    const bucket = facets.price?.[0]?.value as PriceBucket | undefined;
    const title = fill(t.facet_price, { currency: bucket?.currency ?? '' });
    return bucket?.status ? `${title} · ${book.name('status', bucket.status)}` : title;
  }
  return t[`facet_${name}`];
}

/** The facets as lists of links with counts; a facet with one value and nothing chosen offers nothing and is left out. */
export function FacetLists({ ctx, query, book, facets }: { ctx: PageContext; query: SearchQuery; book: TermBook; facets: Facets }) {
  const t = resultsText[ctx.lang];
  const sections = PAGE_FACETS.map((name) => {
    const values = facetValues(ctx, query, book, name, facets);
    if (values.length === 0 || (values.length === 1 && !values[0]!.active && name === 'currency')) return null;
    const item = (entry: FacetValue) => (
      <li key={entry.href}>
        <a href={entry.href} rel={entry.follow ? undefined : 'nofollow'} data-active={entry.active ? '' : undefined}>
          <span class="facet__name">{entry.label}</span>
          {entry.active ? <span class="visually-hidden"> ({t.selected})</span> : null}
          <span class="facet__count">{ctx.format.number(entry.count)}</span>
        </a>
      </li>
    );
    return (
      <section class="facet" key={name} aria-labelledby={`facet-${name}`}>
        <h3 id={`facet-${name}`}>{facetTitle(ctx, name, book, facets)}</h3>
        <ul>{values.slice(0, SHOWN).map(item)}</ul>
        {values.length > SHOWN ? (
          <details class="facet__more">
            <summary>{t.more}</summary>
            <ul>{values.slice(SHOWN).map(item)}</ul>
          </details>
        ) : null}
      </section>
    );
  });
  return <div class="facets">{sections}</div>;
}
