import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { sendCacheable } from '../../http/cache.js';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { translate } from '../../i18n/index.js';
import type { TaxonomiesService } from './taxonomies.service.js';
import { CreateTermBody, TaxonomyParam, TERM_ENDPOINTS, TermIdParams, termQuerySchema, UpdateTermBody } from './taxonomies.schemas.js';

const TermRef = Type.Ref('Term');
const TERM_CACHE_SECONDS = 60;

export async function taxonomyRoutes(app: FastifyInstance, { taxonomies }: { taxonomies: TaxonomiesService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  for (const endpoint of TERM_ENDPOINTS) {
    api.get(
      endpoint.path,
      {
        schema: {
          tags: ['taxonomies'],
          summary: `List ${endpoint.taxonomy} terms`,
          description:
            'WordPress term-query semantics. No match answers 200 with `success: false`, ' +
            '`message: "Record not found"` and an empty list. Cacheable: ETag, `Cache-Control: public, max-age=60`.',
          querystring: termQuerySchema(endpoint),
          response: {
            200: Envelope(Type.Object({ [endpoint.dataKey]: Type.Array(TermRef) })),
            ...errorResponses(400, 401, 429),
          },
        },
      },
      async (request, reply) => {
        const terms = await taxonomies.listTerms(endpoint, request.query);
        return sendCacheable(request, reply, terms, `public, max-age=${TERM_CACHE_SECONDS}`, () =>
          terms.length > 0
            ? { success: true, data: { [endpoint.dataKey]: terms } }
            : { success: false, message: translate(request.lang, 'record_not_found'), data: { [endpoint.dataKey]: [] } },
        );
      },
    );
  }

  api.get(
    '/terms/:taxonomy/:id',
    {
      schema: {
        tags: ['taxonomies'],
        summary: 'One term, with a place’s centre',
        description:
          'The term as the lists give it; a location term (country, state, city, area) has its `center`: the one an ' +
          'administrator set, else the mean position of its published listings (absent when none has a position). ' +
          'An unknown term, or one of another taxonomy → 404.',
        params: TermIdParams,
        response: { 200: Envelope(TermRef), ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const term = await taxonomies.term(request.params.taxonomy, request.params.id);
      return reply.header('cache-control', `public, max-age=${TERM_CACHE_SECONDS}`).send({ success: true, data: term });
    },
  );

  const manage = { auth: ['administrator'] } as const;
  const security = [{ bearer: [] }];

  api.post(
    '/terms/:taxonomy',
    {
      config: manage,
      schema: {
        tags: ['taxonomies'],
        summary: 'Create a term (administrator)',
        description:
          'A new term of the taxonomy: `name` required, the slug made from it unless given, `parent` and the place links (`country_id`, `state_id`, `city_id`) optional. An unknown taxonomy or an invalid `color` (not `#rrggbb`) → 400; a slug taken in the taxonomy → 409.',
        security,
        params: TaxonomyParam,
        body: CreateTermBody,
        response: { 201: Envelope(TermRef), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const term = await taxonomies.createTerm(request.params.taxonomy, request.body);
      return reply.code(201).send({ success: true, data: term });
    },
  );

  api.put(
    '/terms/:taxonomy/:id',
    {
      config: manage,
      schema: {
        tags: ['taxonomies'],
        summary: 'Update a term (administrator); omitted fields stay, null clears an optional one',
        description: 'Changes the given fields of the term. A slug taken in the taxonomy → 409; an unknown term → 404.',
        security,
        params: TermIdParams,
        body: UpdateTermBody,
        response: { 200: Envelope(TermRef), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await taxonomies.updateTerm(request.params.taxonomy, request.params.id, request.body),
    }),
  );

  api.delete(
    '/terms/:taxonomy/:id',
    {
      config: manage,
      schema: {
        tags: ['taxonomies'],
        summary: 'Delete a term (administrator): removed from listings; its children become top-level',
        description: 'The term is removed from every listing that had it, and its child terms lose their parent. An unknown term → 404.',
        security,
        params: TermIdParams,
        response: {
          200: Envelope(Type.Object({ id: Type.Integer(), deleted: Type.Boolean() })),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => {
      await taxonomies.deleteTerm(request.params.taxonomy, request.params.id);
      return {
        success: true,
        data: { id: request.params.id, deleted: true },
        message: translate(request.lang, 'term_deleted'),
      };
    },
  );
}
