import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { translate } from '../../../i18n/index.js';
import {
  CreateFeedSourceBody,
  FeedSourceDeleted,
  FeedSourceIdParams,
  FeedSourceList,
  MAX_INTERVAL_MINUTES,
  MIN_INTERVAL_MINUTES,
  UpdateFeedSourceBody,
} from './feed-sources.schemas.js';
import type { FeedSources } from './feed-sources.service.js';

export interface FeedSourceRouteOptions {
  feedSources: FeedSources;
}

const FeedSourceRef = Type.Ref('FeedSource');
const administrator = { auth: ['administrator'] } as const;
const security = [{ bearer: [] }];
const tags = ['exchange'];

/** Feed sources: URLs the `feed-imports` job pulls on a schedule, each pull an import run. */
export async function feedSourceRoutes(app: FastifyInstance, { feedSources }: FeedSourceRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/imports/sources',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Add a feed source pulled on a schedule (administrator)',
        description:
          'A URL the import job downloads every `interval_minutes` ' +
          `(${MIN_INTERVAL_MINUTES}–${MAX_INTERVAL_MINUTES}) and imports under the source name \`name\` (unique: → 409 when ` +
          'taken), as POST /imports with that URL would. The first pull is queued at once. The URL may carry a token: ' +
          'it is shown to administrators in these records and never logged; import runs show it without its query. A ' +
          'bad URL, an interval out of range, an unknown format → 400 naming the field.',
        security,
        body: CreateFeedSourceBody,
        response: { 201: Envelope(FeedSourceRef), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        success: true,
        data: await feedSources.create(request.user!, request.body),
        message: translate(request.lang, 'feed_source_created'),
      }),
  );

  api.get(
    '/imports/sources',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'The feed sources (administrator)',
        description: 'Every source, newest first, with its URL and its latest import run. No paging: a site has a handful.',
        security,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: Envelope(FeedSourceList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async () => ({ success: true, data: await feedSources.list() }),
  );

  api.patch(
    '/imports/sources/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Pause, resume or change a feed source (administrator)',
        description:
          '`paused: true` stops its pulls (an import it queued already still runs); `false` resumes them, a pull overdue ' +
          'meanwhile being queued at once. A shorter `interval_minutes` brings the next pull forward to at most one ' +
          'interval from now. Omitted fields stay; an empty body → 400; unknown id → 404.',
        security,
        params: FeedSourceIdParams,
        body: UpdateFeedSourceBody,
        response: { 200: Envelope(FeedSourceRef), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await feedSources.update(request.params.id, request.body) }),
  );

  api.delete(
    '/imports/sources/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Delete a feed source (administrator)',
        description:
          'No more pulls. Its import runs stay listed (their `feed_source_id` becomes null); one still queued fails ' +
          'rather than run. Unknown id → 404.',
        security,
        params: FeedSourceIdParams,
        response: { 200: Envelope(FeedSourceDeleted), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      await feedSources.delete(request.params.id);
      return {
        success: true,
        data: { id: request.params.id, deleted: true as const },
        message: translate(request.lang, 'feed_source_deleted'),
      };
    },
  );
}
