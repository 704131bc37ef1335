import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Language } from '../../../i18n/index.js';
import { AppError } from '../../../lib/errors.js';
import { pageWindow } from '../../../lib/paging.js';
import {
  normalizeSavedSearchQuery,
  normalizeSearchQuery,
  searchQueryString,
  type SearchQuery,
  type SearchQueryInput,
  type TaxonomyFilter,
} from '../../../modules/search/index.js';
import { breadcrumbJsonLd } from '../../components/Breadcrumbs.js';
import { fieldMessagesOf } from '../../forms.js';
import { searchListings } from '../../listings.js';
import { localPath, plainPathOf } from '../../paths.js';
import type { Site } from '../../site.js';
import { PAGE_ROUTE, type SiteRoutes } from '../../site-routes.js';
import { fill } from '../../texts.js';
import { type PathFacet, parseLandingPath } from './landing-paths.js';
import { PAGE_FACETS } from './ResultsFacets.js';
import { BadSearchPage, itemListJsonLd, ResultsPage } from './ResultsPage.js';
import { crumbsOf, headingOf } from './results-headings.js';
import {
  dropEmptyParams,
  hadEmptyParams,
  isLandingSearch,
  landingOf,
  pathOf,
  placeNamed,
  rawValuesOf,
  RESULTS_PER_PAGE,
  ResultsQuery,
  resultsUrl,
  searchParamsOf,
  type TermBook,
  unknownParamsOf,
  without,
  withPlace,
} from './results-query.js';
import { formChoicesOf, placesByName, termBookOf } from './results-terms.js';
import { resultsText } from './results.text.js';

/** The aliases of the landing facets (docs/api.md 4.4), merged into the facet a path names. */
const FACET_ALIASES: Partial<Record<TaxonomyFilter, string>> = { city: 'location', area: 'areas', state: 'states' };

const SaveBody = Type.Object(
  { query: Type.String({ maxLength: 20_000 }), csrf: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: true },
);

/**
 * `/properties` and the landing pages `/properties/<facet>/<slug>…` (docs/site.md): the results of a search of
 * docs/api.md 4.4, with facets, paging, the map and the filters; and POST `/saved-searches`, which saves the
 * search shown. Each search has one URL: a request in another form is redirected to it (301), a submitted
 * filter form or a keyword naming a place to the URL of the search it means (303).
 */
export const resultsRoutes: SiteRoutes = (scope, site, lang) => {
  const options = {
    ...PAGE_ROUTE,
    schema: { ...PAGE_ROUTE.schema, querystring: ResultsQuery },
    attachValidation: true,
    preValidation: dropEmptyParams,
  };
  scope.get('/properties', options, (request, reply) => resultsPage(site, lang, request, reply, ''));
  scope.get('/properties/*', options, (request, reply) =>
    resultsPage(site, lang, request, reply, (request.params as { '*': string })['*']),
  );
  scope.post(
    '/saved-searches',
    { ...PAGE_ROUTE, schema: { ...PAGE_ROUTE.schema, body: SaveBody }, attachValidation: true },
    (request, reply) => saveSearch(site, lang, request, reply),
  );
};

async function resultsPage(site: Site, lang: Language, request: FastifyRequest, reply: FastifyReply, rest: string) {
  const { taxonomies } = site.services;
  const pathFacets = rest === '' ? [] : parseLandingPath(rest);
  if (!pathFacets) throw AppError.notFound();
  if (request.validationError) return badSearch(site, lang, request, reply, request.validationError, pathFacets);

  const query = request.query as Record<string, unknown>;
  const input = withPathFacets(searchParamsOf(query), pathFacets);
  const place = typeof query.place === 'string' ? query.place : undefined;
  if (place) {
    const [facet, slug] = place.split(':') as ['city' | 'area', string];
    for (const name of ['city', 'location', 'area', 'areas']) delete input[name];
    input[facet] = slug;
  }
  let search: SearchQuery;
  try {
    search = normalizeSearchQuery(input as SearchQueryInput);
  } catch (error) {
    return badSearch(site, lang, request, reply, error, pathFacets);
  }
  const { page } = pageWindow(input as { page?: number; paged?: number });
  const [found, places] = await Promise.all([termBookOf(taxonomies, search), search.keyword ? placesByName(taxonomies) : undefined]);
  let book = found;
  // A path naming no term is a 404 (the form's place replaces the path's city and area: they are not looked up).
  const checked = place ? pathFacets.filter(({ facet }) => facet !== 'city' && facet !== 'area') : pathFacets;
  if (checked.some(({ facet, slug }) => !book.find(facet, slug))) throw AppError.notFound();

  const carried = unknownParamsOf(request.url);
  if (typeof query.saved === 'string') carried.push(['saved', query.saved]);
  // A keyword that is a place's name is that place: the home page's suggestions land on its page.
  const named = search.keyword && places ? placeNamed(search.keyword, places) : undefined;
  if (named) {
    search = withPlace(without(search, 'keyword'), named.facet, named.term.slug);
    book = book.with(named.facet, [named.term]);
  }
  if (named || place || hadEmptyParams(request))
    return redirect(site, lang, reply, 303, resultsUrl(search, book, named ? 1 : page, carried));
  const url = resultsUrl(search, book, page);
  if (pathOf(url) !== pathOf(plainPathOf(request.url, lang)))
    return redirect(site, lang, reply, 301, resultsUrl(search, book, page, carried));

  return site.page(request, reply, lang, async (ctx) => {
    const [result, choices] = await Promise.all([
      searchListings(site.services, ctx.visitor?.caller ?? null, {
        ...(input as SearchQueryInput),
        per_page: RESULTS_PER_PAGE,
        facets: PAGE_FACETS.join(','),
      }),
      formChoicesOf(taxonomies),
    ]);
    // Facet values name terms too: a link to one of them is a landing path.
    const known = bookWithFacets(book, result.facets);
    const t = resultsText[lang];
    const { total_records: total, total_pages: totalPages } = result.pagination;
    const heading = headingOf(lang, search, known);
    const crumbs = crumbsOf(lang, search, known);
    const indexable = isLandingSearch(search, known) && total > 0 && page <= totalPages;
    const saved = ctx.visitor && query.saved === '1' ? 'saved' : ctx.visitor && query.saved === 'limit' ? 'limit' : null;
    return {
      meta: {
        title: titleOf(
          heading,
          page > 1 ? (title) => fill(t.title_page, { title, page: ctx.format.number(page) }) : (title) => title,
          ctx.brand.siteName,
        ),
        description: fill(t.description, { heading, count: ctx.format.number(total), site: ctx.brand.siteName }),
        canonical: indexable ? url : resultsUrl(landingOf(search, known), known),
        noindex: !indexable,
        jsonLd: [itemListJsonLd(ctx, result), breadcrumbJsonLd(ctx, crumbs)],
        scripts: ['results-map.js'],
      },
      body: (
        <ResultsPage
          ctx={ctx}
          data={{ search, book: known, result, heading, crumbs, choices, notice: saved, apiBase: site.settings.apiBase }}
        />
      ),
    };
  });
}

/** The search's parameters with the path's facets among them (a facet also given in the query adds its values). */
function withPathFacets(params: Record<string, unknown>, pathFacets: readonly PathFacet[]): Record<string, unknown> {
  for (const { facet, slug } of pathFacets) {
    const alias = FACET_ALIASES[facet];
    const values = [slug, params[facet], alias === undefined ? undefined : params[alias]].filter((value) => value !== undefined);
    params[facet] = values.join(',');
    if (alias !== undefined) delete params[alias];
  }
  return params;
}

function bookWithFacets(book: TermBook, facets: Record<string, { value: unknown; name: string }[]> | undefined): TermBook {
  let known = book;
  for (const facet of ['status', 'type', 'city', 'area', 'feature'] as const) {
    const values = facets?.[facet];
    if (values)
      known = known.with(
        facet,
        values.map((count) => ({ slug: String(count.value), name: count.name })),
      );
  }
  return known;
}

function redirect(site: Site, lang: Language, reply: FastifyReply, status: 301 | 303, plainUrl: string) {
  const { sharedMaxAgeSeconds } = site.settings;
  return reply
    .header('cache-control', `public, max-age=${status === 301 ? 3600 : 0}, s-maxage=${sharedMaxAgeSeconds}`)
    .redirect(localPath(lang, plainUrl), status);
}

/**
 * A search that cannot be run: the results page's frame with status 400, what is wrong with each value in the
 * page's language, and the filter form with the values as typed (never the API's JSON, never a 500).
 */
async function badSearch(
  site: Site,
  lang: Language,
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  pathFacets: readonly PathFacet[],
) {
  const fields = fieldMessagesOf(error, lang);
  if (!fields) throw error;
  const t = resultsText[lang];
  const raw = rawValuesOf(request.url);
  for (const { facet, slug } of pathFacets) raw[facet] = raw[facet] ? `${slug},${raw[facet]}` : slug;
  const place =
    raw.place ?? (raw.area && !raw.area.includes(',') ? `area:${raw.area}` : raw.city && !raw.city.includes(',') ? `city:${raw.city}` : '');
  const labels = t as Readonly<Record<string, string>>;
  const messages = Object.entries(fields).map(([field, message]) => {
    const name = field.replace(/^\//, '');
    return [labels[name] ?? name, message] as const;
  });
  return site.page(request, reply, lang, async (ctx) => ({
    status: 400,
    meta: { title: t.bad_title, description: t.bad_text, canonical: null },
    body: (
      <BadSearchPage
        ctx={ctx}
        choices={await formChoicesOf(site.services.taxonomies)}
        values={{ params: raw, place, names: {}, currencies: raw.currency ? [raw.currency] : [], errors: fields }}
        messages={messages}
      />
    ),
  }));
}

/**
 * POST /saved-searches: saves the search of the page it was sent from, with e-mail alerts, named by its display
 * text, and answers 303 back to its results with a notice. An anonymous visitor is sent to sign in first, and
 * comes back to the same results.
 */
async function saveSearch(site: Site, lang: Language, request: FastifyRequest, reply: FastifyReply) {
  const { caller } = await site.checkPost(request, reply);
  if (request.validationError) throw request.validationError;
  const search = normalizeSavedSearchQuery((request.body as { query: string }).query);
  const back = resultsUrl(search, await termBookOf(site.services.taxonomies, search));
  if (!caller) return site.seeOther(reply, lang, `/sign-in?next=${encodeURIComponent(localPath(lang, back))}`);
  let notice = '1';
  try {
    await site.services.savedSearches.create(caller, { query_string: searchQueryString(search), email_alerts: true }, lang);
  } catch (error) {
    if (!(error instanceof AppError && error.status === 409)) throw error;
    notice = 'limit';
  }
  return site.seeOther(reply, lang, `${back}${back.includes('?') ? '&' : '?'}saved=${notice}`);
}

/** What a title may hold with the site's name after it (` | Realty`): search engines cut longer ones anyway. */
const TITLE_LENGTH = 70;

/** The page's title: its heading in `frame`, the heading cut (with an ellipsis) where the whole would be too long. */
function titleOf(heading: string, frame: (title: string) => string, siteName: string): string {
  const room = TITLE_LENGTH - ` | ${siteName}`.length - [...frame('')].length;
  const chars = [...heading];
  return frame(
    chars.length <= room
      ? heading
      : `${chars
          .slice(0, Math.max(room - 1, 1))
          .join('')
          .trimEnd()}…`,
  );
}
