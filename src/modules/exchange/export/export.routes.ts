import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorResponses } from '../../../http/envelope.js';
import { ExportParams, FeedFileResponse } from './export.schemas.js';
import type { FeedDownloads, FeedFile } from './feed-downloads.service.js';

export interface ExportRouteOptions {
  downloads: FeedDownloads;
}

/** The roles that may export; the service narrows agencies and agents to their own listings. */
const EXPORTERS = { auth: ['administrator', 'manager', 'agency', 'agent'] } as const;

/**
 * Sends a feed file. The body is a stream: Fastify pipes it out (through compression when the client asks for
 * it) without serializing, and a failure halfway ends the connection, so a client never takes a cut file for
 * a whole one. `no-store`: the file holds the site's data as it is now, for this caller.
 */
export function sendFeedFile(reply: FastifyReply, file: FeedFile): FastifyReply {
  return reply
    .header('content-type', file.mediaType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(file.body);
}

/** GET /exports/{format}: the listings the caller stands behind as a feed file. */
export async function exportRoutes(app: FastifyInstance, { downloads }: ExportRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/exports/:format',
    {
      config: EXPORTERS,
      schema: {
        tags: ['exchange'],
        summary: 'Download the listings as a feed file (administrators, managers, agencies, agents)',
        description:
          'What `realty-api export --format F` writes (docs/data-exchange.md), streamed: the server holds one page of ' +
          '500 listings at a time. Administrators and managers get every listing, agent and agency. An agency user ' +
          'gets the listings of their agency, with the agency and its agents; an agent user the listings that name ' +
          'them, with their own agent record; every state is included (RESO leaves out draft, pending and ' +
          'disapproved listings, Kyero all but published ones, as their formats say). An agency or agent user ' +
          'without an agency or agent record → 403; other roles → 403; an unknown format → 400. A failure after ' +
          'the first bytes ends the connection without the file’s closing part.',
        security: [{ bearer: [] }],
        params: ExportParams,
        response: { 200: FeedFileResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => sendFeedFile(reply, await downloads.forCaller(request.user!, request.params.format)),
  );
}
