import { TAXONOMY_OF, type SearchQuery, type TaxonomyFilter } from '../../../modules/search/index.js';
import type { TermRecord } from '../../../modules/taxonomies/index.js';
import type { SiteServices } from '../../site-services.js';
import { byPlaceName, TermBook } from './results-query.js';

/**
 * The terms a results page needs, from the taxonomy service, which keeps each listing while the terms hold: the
 * terms its search names (one lookup per filter used, by slug and by id), the choices of its filter form, and,
 * for a keyword, every place by name.
 */

type Taxonomies = SiteServices['taxonomies'];

/** Digits without a leading zero name a term by id (search-terms.ts reads them so). */
const TERM_ID = /^[1-9][0-9]*$/;

/** The popular terms first, as the home page asks for them (the same listings, so the same cache entries). */
const POPULAR = { hide_empty: 'true', orderby: 'count', order: 'desc' } as const;
/** Places offered by the filter form. */
const PLACES_OFFERED = 50;

export async function termBookOf(taxonomies: Taxonomies, query: SearchQuery): Promise<TermBook> {
  const filters = Object.entries(query.terms ?? {}) as [TaxonomyFilter, string[]][];
  const found = await Promise.all(
    filters.map(async ([filter, values]) => {
      const slugs = values.filter((value) => !TERM_ID.test(value));
      const ids = values.filter((value) => TERM_ID.test(value));
      const taxonomy = TAXONOMY_OF[filter];
      const [bySlug, byId] = await Promise.all([
        slugs.length > 0 ? taxonomies.termsOf(taxonomy, { slug: slugs.join(',') }) : [],
        ids.length > 0 ? taxonomies.termsOf(taxonomy, { include: ids.join(',') }) : [],
      ]);
      return [filter, [...bySlug, ...byId]] as const;
    }),
  );
  return new TermBook(new Map(found));
}

export interface FormChoices {
  readonly types: readonly TermRecord[];
  readonly statuses: readonly TermRecord[];
  readonly cities: readonly TermRecord[];
  readonly areas: readonly TermRecord[];
}

/** The choices of the filter form: types, statuses and the most used places. */
export async function formChoicesOf(taxonomies: Taxonomies): Promise<FormChoices> {
  const [types, statuses, cities, areas] = await Promise.all([
    taxonomies.termsOf('property_type', POPULAR),
    taxonomies.termsOf('property_status', POPULAR),
    taxonomies.termsOf('property_city', { ...POPULAR, number: PLACES_OFFERED }),
    taxonomies.termsOf('property_area', { ...POPULAR, number: PLACES_OFFERED }),
  ]);
  return { types, statuses, cities, areas };
}

/** Every city and area with listings, by name (a keyword naming one is that place). */
export async function placesByName(taxonomies: Taxonomies) {
  const [cities, areas] = await Promise.all([taxonomies.termsOf('property_city', POPULAR), taxonomies.termsOf('property_area', POPULAR)]);
  return { city: byPlaceName(cities), area: byPlaceName(areas) };
}
