import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { translate } from '../../../i18n/index.js';
import { ListRedirectsQuery, RedirectDeleted, RedirectIdParams, RedirectList } from './redirects.schemas.js';
import type { Redirects } from './redirects.service.js';

const administrator = { auth: ['administrator'] } as const;
const security = [{ bearer: [] }];
const tags = ['exchange'];

/** GET /redirects and DELETE /redirects/{id}: the old addresses imports kept, for administrators. */
export async function redirectRoutes(app: FastifyInstance, { redirects }: { redirects: Redirects }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/redirects',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'The old addresses imports kept, newest first (administrator)',
        description:
          'Each path an import kept for a listing, agent or agency (a WordPress permalink, a feed’s `url`), with the ' +
          'record it names and the `url` a GET of the path answers 301 to (docs/data-exchange.md, "Old addresses"). ' +
          '`public`: false while the record’s page is not public (the path answers 404 meanwhile).',
        security,
        querystring: ListRedirectsQuery,
        response: { 200: Envelope(RedirectList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await redirects.list(request.query) }),
  );

  api.delete(
    '/redirects/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Remove a redirect (administrator)',
        description: 'Its path answers 404 from now on (unless a route answers it). Unknown or already removed → 404.',
        security,
        params: RedirectIdParams,
        response: { 200: Envelope(RedirectDeleted), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      await redirects.remove(request.params.id);
      return {
        success: true,
        data: { id: request.params.id, deleted: true as const },
        message: translate(request.lang, 'redirect_deleted'),
      };
    },
  );
}
