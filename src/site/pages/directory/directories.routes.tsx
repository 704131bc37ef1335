import { Type, type Static } from 'typebox';
import { AgencyListQuery, AgentSearchQuery } from '../../../modules/directory/index.js';
import { localPath } from '../../paths.js';
import { PAGE_ROUTE, type SiteRoutes } from '../../site-routes.js';
import { directoryPage, type DirectorySearch } from './DirectoryPage.js';

/** Cards a directory page shows at once (docs/site.md). */
const DIRECTORY_PER_PAGE = 24;
/** The agent cities and categories offered in the search form, the busiest first. */
const TERMS_OFFERED = 200;

const { keyword, city, category, language, sortby, page } = AgentSearchQuery.properties;
/** GET /agents/search's parameters and rules, unknown ones let through (a campaign's `utm_source`). */
const AgentsQuery = Type.Object({ keyword, city, category, language, sortby, page }, { additionalProperties: true });
/** GET /agencies' parameters and rules, likewise. */
const AgenciesQuery = Type.Object(
  { keyword: AgencyListQuery.properties.keyword, sortby: AgencyListQuery.properties.sortby, page: AgencyListQuery.properties.page },
  { additionalProperties: true },
);

/** A GET form sends its empty fields too (`?city=&language=`): they mean "any", so they are dropped before validation. */
function dropEmptyParams(query: unknown): void {
  const params = query as Record<string, unknown>;
  for (const name of Object.keys(params)) {
    const value = params[name];
    if (typeof value === 'string' && value.trim() === '') delete params[name];
  }
}

/** The search as asked, with its text trimmed. */
function searchOf(query: Partial<Record<keyof DirectorySearch, unknown>>): DirectorySearch {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  return {
    ...(text(query.keyword) !== undefined ? { keyword: text(query.keyword) } : {}),
    ...(text(query.city) !== undefined ? { city: text(query.city) } : {}),
    ...(text(query.category) !== undefined ? { category: text(query.category) } : {}),
    ...(text(query.language) !== undefined ? { language: text(query.language) } : {}),
    ...(query.sortby !== undefined ? { sortby: query.sortby as DirectorySearch['sortby'] } : {}),
    ...(typeof query.page === 'number' ? { page: query.page } : {}),
  } as DirectorySearch;
}

/** `/agents` and `/agencies`: the directories, searched and paged as GET /agents/search and GET /agencies are. */
export const directoriesRoutes: SiteRoutes = (scope, site, lang) => {
  const { agents, agencies, taxonomies } = site.services;

  scope.get(
    '/agents',
    {
      ...PAGE_ROUTE,
      preValidation: async (request) => dropEmptyParams(request.query),
      schema: { ...PAGE_ROUTE.schema, querystring: AgentsQuery },
    },
    (request, reply) =>
      site.page(request, reply, lang, async (ctx) => {
        const search = searchOf(request.query as Static<typeof AgentsQuery>);
        const terms = { hide_empty: 'true', orderby: 'name', order: 'asc', number: TERMS_OFFERED } as const;
        const [list, cities, categories] = await Promise.all([
          agents.search({ ...search, per_page: DIRECTORY_PER_PAGE }),
          taxonomies.termsOf('agent_city', terms),
          taxonomies.termsOf('agent_category', terms),
        ]);
        const images = await agents.picturesOf(list.agents.map((agent) => agent.id));
        return directoryPage(ctx, { kind: 'agents', list, images, cities, categories }, search);
      }),
  );

  scope.get(
    '/agencies',
    {
      ...PAGE_ROUTE,
      preValidation: async (request) => dropEmptyParams(request.query),
      schema: { ...PAGE_ROUTE.schema, querystring: AgenciesQuery },
    },
    (request, reply) =>
      site.page(request, reply, lang, async (ctx) => {
        const search = searchOf(request.query as Static<typeof AgenciesQuery>);
        const list = await agencies.list({ ...search, per_page: DIRECTORY_PER_PAGE });
        const images = await agencies.logosOf(list.agencies.map((agency) => agency.id));
        return directoryPage(ctx, { kind: 'agencies', list, images }, search);
      }),
  );

  // One more slash is the same list, said once (301, the query kept).
  for (const path of ['/agents', '/agencies']) {
    scope.get(`${path}/`, PAGE_ROUTE, (request, reply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.redirect(`${localPath(lang, path)}${query}`, 301);
    });
  }
};
