import type { Language } from '../../../i18n/index.js';
import type { SearchQuery, TaxonomyFilter } from '../../../modules/search/index.js';
import type { Crumb } from '../../components/Breadcrumbs.js';
import { fill } from '../../texts.js';
import { LANDING_FACETS, PLACE_FACETS } from './landing-paths.js';
import { isLandingSearch, landingTerm, resultsUrl, type TermBook } from './results-query.js';
import { resultsText } from './results.text.js';

/**
 * The words naming a search: the h1 and title of its page ("Apartment For Sale in Miami": a template per
 * language filled with the terms' own names) and its breadcrumb trail.
 */

const listFormats = new Map<Language, Intl.ListFormat>();

function either(lang: Language, names: readonly string[]): string {
  let format = listFormats.get(lang);
  if (!format) listFormats.set(lang, (format = new Intl.ListFormat(lang, { type: 'disjunction' })));
  return format.format(names);
}

/** The names of a filter's values, joined with "or"; undefined without the filter. */
function namesOf(lang: Language, query: SearchQuery, book: TermBook, filter: TaxonomyFilter): string | undefined {
  const values = query.terms?.[filter];
  return values?.length
    ? either(
        lang,
        values.map((value) => book.name(filter, value)),
      )
    : undefined;
}

/** The heading of a search's results: its type, status and place, and its keyword. */
export function headingOf(lang: Language, query: SearchQuery, book: TermBook): string {
  const t = resultsText[lang];
  const type = namesOf(lang, query, book, 'type');
  const status = namesOf(lang, query, book, 'status');
  const what = type || status ? fill(t.what, { type: type ?? t.properties, status: status ?? '' }).trim() : undefined;
  const at = PLACE_FACETS.findIndex((facet) => query.terms?.[facet]?.length);
  let heading: string;
  if (at < 0) heading = what ?? t.all_title;
  else {
    const place = [namesOf(lang, query, book, PLACE_FACETS[at]!)];
    // The next wider place, when the search names one: "Brickell, Miami".
    const wider = PLACE_FACETS.slice(at + 1).find((facet) => query.terms?.[facet]?.length);
    if (wider && query.terms?.[PLACE_FACETS[at]!]?.length === 1) place.push(namesOf(lang, query, book, wider));
    heading = fill(t.heading_in, { what: what ?? t.properties, place: place.join(', ') });
  }
  return query.keyword ? fill(t.heading_keyword, { heading, keyword: query.keyword }) : heading;
}

/** The trail of a results page: home, all properties, then each landing facet of the search in turn. */
export function crumbsOf(lang: Language, query: SearchQuery, book: TermBook): Crumb[] {
  const t = resultsText[lang];
  const crumbs: Crumb[] = [
    { name: t.home, path: '/' },
    { name: t.properties, path: '/properties' },
  ];
  const terms: Partial<Record<TaxonomyFilter, string[]>> = {};
  for (const facet of LANDING_FACETS) {
    const term = landingTerm(query, book, facet);
    if (!term) continue;
    terms[facet] = [term.slug];
    crumbs.push({ name: term.name, path: resultsUrl({ terms: { ...terms } }, book) });
  }
  if (!isLandingSearch(query, book)) crumbs.push({ name: t.filtered });
  return crumbs;
}
