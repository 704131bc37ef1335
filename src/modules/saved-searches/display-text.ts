import type { Taxonomy } from '../../db/schema/index.js';
import { type Language, type MessageKey, translate } from '../../i18n/index.js';
import { TAXONOMY_OF, type GeoPoint, type NumberRange, type SearchQuery, type TaxonomyFilter } from '../search/index.js';

/**
 * The `display_text` of a saved search (docs/api.md 7): its main filters as one line in the reader's language, e.g.
 * "Apartment For Sale in Miami · 2+ beds · $200,000–$500,000". Term names are the terms' own (they are not
 * translated); the glue between them comes from the message catalogues. It describes the search for people;
 * `query` is the exact search (the owner, id and reference filters, land size, garage and year built are not
 * spelled out).
 */

/** The name of the term a search parameter's value (a slug, or an id written as digits) names. */
export type TermNameOf = (filter: TaxonomyFilter, value: string) => string;

/** A term as the names are looked up. */
export interface NamedTerm {
  id: number;
  taxonomy: Taxonomy;
  slug: string;
  name: string;
}

const SEPARATOR = ' · ';
/** Most specific first: the place the text names is the most specific one the search gives. */
const PLACES = ['area', 'city', 'state', 'country'] as const satisfies readonly TaxonomyFilter[];
/** Digits without a leading zero name a term by id, as search-terms.ts reads them; anything else is a slug. */
export const isTermId = (value: string): boolean => /^[1-9][0-9]*$/.test(value);

/**
 * Term names by value, from terms loaded for a whole page of saved searches at once. A value naming no term
 * (deleted since, or never existing: the search then matches nothing) shows as written.
 */
export function termNameLookup(terms: readonly NamedTerm[]): TermNameOf {
  const names = new Map<string, string>();
  for (const term of terms) {
    names.set(`${term.taxonomy}:${term.slug}`, term.name);
    names.set(`${term.taxonomy}#${term.id}`, term.name);
  }
  return (filter, value) => {
    const taxonomy = TAXONOMY_OF[filter];
    return names.get(isTermId(value) ? `${taxonomy}#${value}` : `${taxonomy}:${value}`) ?? value;
  };
}

/** The display text of one search in `language`, with its terms named by `termName`. */
export function displayTextOf(query: SearchQuery, termName: TermNameOf, language: Language): string {
  const t = (key: MessageKey, params?: Record<string, string>) => translate(language, key, params);
  const numbers = new Intl.NumberFormat(language);
  const names = (filter: TaxonomyFilter, type: 'conjunction' | 'disjunction') => {
    const values = query.terms?.[filter];
    return values?.length ? new Intl.ListFormat(language, { type }).format(values.map((value) => termName(filter, value))) : undefined;
  };

  const what = [names('type', 'disjunction'), names('status', 'disjunction')].filter(Boolean).join(' ');
  const placeFilter = PLACES.find((filter) => query.terms?.[filter]?.length);
  const place = placeFilter && names(placeFilter, 'disjunction');
  const parts: string[] = [];
  const label = names('label', 'disjunction');
  if (label) parts.push(label);
  const features = names('feature', 'conjunction');
  if (features) parts.push(t('saved_search_text_with_features', { features }));
  if (query.bedrooms) parts.push(roomsText(query.bedrooms, 'saved_search_text_beds', 'saved_search_text_beds_one', t, numbers));
  if (query.bathrooms) parts.push(roomsText(query.bathrooms, 'saved_search_text_baths', 'saved_search_text_baths_one', t, numbers));
  if (query.price) parts.push(rangeText(query.price, moneyFormat(language, query.price, query.currency), t, true));
  else if (query.currency) parts.push(t('saved_search_text_prices_in', { currency: query.currency }));
  if (query.size) parts.push(t('saved_search_text_size', { range: rangeText(query.size, numbers, t, true) }));
  if (query.keyword) parts.push(t('saved_search_text_keyword', { keyword: query.keyword }));
  if (query.circle) {
    const point = pointText(query.circle);
    if (query.circle.radius === undefined) parts.push(t('saved_search_text_near', { point }));
    else {
      const unit = t(query.circle.unit === 'mi' ? 'saved_search_text_unit_mi' : 'saved_search_text_unit_km');
      parts.push(t('saved_search_text_within', { distance: `${numbers.format(query.circle.radius)} ${unit}`, point }));
    }
  }
  if (query.box) parts.push(t('saved_search_text_in_box'));
  if (query.polygon) parts.push(t('saved_search_text_in_polygon'));
  if (query.featured) parts.push(t('saved_search_text_featured'));
  if (query.include_sold) parts.push(t('saved_search_text_sold'));

  const head = place ? t('saved_search_text_in_place', { what: what || t('saved_search_text_properties'), place }) : what;
  if (!head && parts.length === 0 && !hasFilters(query)) return t('saved_search_text_all');
  return [head || t('saved_search_text_properties'), ...parts].join(SEPARATOR);
}

type Translate = (key: MessageKey, params?: Record<string, string>) => string;

/** `2+`, `up to 3`, `2–3`, `2` (with `from`: `from 2` for a lower bound alone, as prices read). */
function rangeText({ min, max }: NumberRange, format: Intl.NumberFormat, t: Translate, from = false): string {
  if (min !== undefined && max !== undefined) return min === max ? format.format(min) : `${format.format(min)}–${format.format(max)}`;
  if (max !== undefined) return t('saved_search_text_up_to', { max: format.format(max) });
  return from ? t('saved_search_text_from', { min: format.format(min!) }) : `${format.format(min!)}+`;
}

/** `2+ beds`; the singular where the largest count is one (`1 bed`, `up to 1 bed`). */
function roomsText(range: NumberRange, plural: MessageKey, singular: MessageKey, t: Translate, format: Intl.NumberFormat): string {
  const one = range.max === 1 && (range.min === undefined || range.min === 1);
  return t(one ? singular : plural, { count: rangeText(range, format, t) });
}

/** Amounts in the search's currency when it names one, else plain numbers; whole units unless a bound has cents. */
function moneyFormat(language: Language, { min, max }: NumberRange, currency: string | undefined): Intl.NumberFormat {
  const digits = [min, max].some((amount) => amount !== undefined && !Number.isInteger(amount)) ? 2 : 0;
  return new Intl.NumberFormat(language, {
    ...(currency ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } : {}),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** Whether the search filters at all (`sortby` alone does not): an unfiltered one is "All properties". */
function hasFilters(query: SearchQuery): boolean {
  return Object.keys(query).some((name) => name !== 'sortby' && name !== 'facets');
}

/** Coordinates as given, in the one notation every language reads (`25.77, -80.19`). */
function pointText({ latitude, longitude }: GeoPoint): string {
  return `${latitude}, ${longitude}`;
}
