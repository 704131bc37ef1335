import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_REVALIDATE, sendCacheable } from '../../http/cache.js';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { sendListAnswer } from '../../http/list-answer.js';
import { MapQuery, SearchQuery as SearchQuerySchema } from './query/search-query.schemas.js';
import { normalizeMapQuery } from './query/search-query.js';
import { MapAnswer, SearchAnswer } from './search.schemas.js';
import type { SearchService } from './search.service.js';

export interface SearchRouteOptions {
  search: SearchService;
}

const SEARCH_DESCRIPTION =
  'Every parameter of docs/api.md 4.4 with its Houzez aliases; lists as `a,b` or repeated `x[]=`. Term parameters take ' +
  'slugs or ids (an unknown one matches nothing); `feature` needs all of its values, the others any. Ranges are ' +
  'inclusive; prices are compared as stored, `currency` restricts. `keyword`: every word must occur (stemmed, ' +
  'accents and case ignored) in the title, description, address, zipcode or reference. Geo: `radius` around ' +
  '`latitude`/`longitude` (great circle, `radius_unit` km or mi; each result then has `distance`), the box ' +
  '`ne_*`/`sw_*` (may cross the antimeridian), `polygon` (not across the antimeridian). Published listings only; ' +
  '`include_sold=true` adds sold ones. Orders end with id descending; listings without the sorted value come last. ' +
  'Default order: `relevance` with a keyword (an exact `reference` first, then listings with more of the words in ' +
  'the title, then newest), else `d_date`. Unknown parameters and values out of range → 400.';

/** GET /properties and /properties/search (docs/api.md 4.2, 4.4). */
export async function searchRoutes(app: FastifyInstance, { search }: SearchRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  for (const [path, summary] of [
    ['/properties', 'Published listings, with every search parameter (newest publication first by default)'],
    ['/properties/search', 'Search listings'],
  ] as const) {
    api.get(
      path,
      {
        schema: {
          tags: ['properties'],
          summary,
          description: SEARCH_DESCRIPTION,
          querystring: SearchQuerySchema,
          response: { 200: Envelope(SearchAnswer), ...errorResponses(400, 401, 429) },
        },
      },
      async (request, reply) => sendListAnswer(request, reply, await search.answer(request.user, request.query)),
    );
  }

  api.get(
    '/properties/search/map',
    {
      schema: {
        tags: ['properties'],
        summary: 'Map clusters of a search',
        description: MAP_DESCRIPTION,
        querystring: MapQuery,
        response: { 200: Envelope(MapAnswer), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      // Nothing in a map answer depends on the caller: it is shared even when signed in.
      const data = await search.map(normalizeMapQuery(request.query));
      return sendCacheable(request, reply, data, PUBLIC_REVALIDATE, () => ({ success: true, data }));
    },
  );
}

const MAP_DESCRIPTION =
  'The matching listings inside the box (`ne_*`, `sw_*`, required; it may cross the antimeridian) grouped into at ' +
  'most 500 clusters for `zoom` (0–22): each cluster is one cell of a grid about 64 screen pixels wide at that zoom ' +
  '(coarser when the box would need more than 500), placed at the centroid of its listings; every matching listing ' +
  'inside the box is in exactly one cluster, and a cluster of one names it in `property_id`. Clusters come in a fixed ' +
  'order (the grid’s Z-order). Any filter of GET /properties/search applies; without filters beyond the box the ' +
  'counts come from aggregates kept by the database, at a cost that does not grow with the number of listings.';
