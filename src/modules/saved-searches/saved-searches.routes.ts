import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { PageQueryFields, pageWindow } from '../../lib/paging.js';
import { translate } from '../../i18n/index.js';
import { SearchAnswer } from '../search/index.js';
import {
  CreateSavedSearchBody,
  SavedSearchDeleted,
  SavedSearchesQuery,
  SavedSearchList,
  SavedSearchIdParams,
  UpdateSavedSearchBody,
} from './saved-searches.schemas.js';
import type { SavedSearchesService } from './saved-searches.service.js';

export interface SavedSearchRouteOptions {
  savedSearches: SavedSearchesService;
  /** The absolute URL of `/saved-searches` (PUBLIC_URL + namespace): the deprecated aliases' successor. */
  successorUrl: string;
  /** SAVED_SEARCHES_PER_USER, for the documentation. */
  perUser: number;
}

/**
 * The /users/saved-searches aliases (docs/api.md 3.2) were deprecated on this day, and may be removed from this one
 * on: a year's notice. Sent as RFC 9745 `Deprecation: @<unix seconds>` and RFC 8594 `Sunset: <HTTP date>`.
 */
const ALIASES_DEPRECATED_AT = new Date('2026-11-21T00:00:00Z');
const ALIASES_SUNSET_AT = new Date('2027-11-21T00:00:00Z');

const security = [{ bearer: [] }];
const signedIn = { auth: 'user' } as const;
const SavedSearchRef = Type.Ref('SavedSearch');
const MatchesQuery = Type.Object({ ...PageQueryFields }, { additionalProperties: false });

const RECORD_NOTES =
  '`query` is the search as stored: canonical parameter names (aliases such as `min-price`, `location`, `lat` ' +
  'converted), lists as arrays, typed numbers and flags, defaults left out; `query_string` is the same search as a ' +
  'query string. `display_text` names the main filters in the request’s language (term names as the terms have ' +
  'them; a term deleted since shows its slug or id); `query` is the exact search.';

/**
 * The successor of a deprecated alias naming one saved search: the same search under /saved-searches. The hook
 * also runs for answers refused before validation, whose `id` is the raw path text: only an id that passed
 * validation (a number by then) goes into the header; otherwise the successor is the collection.
 */
function successorOf(successorUrl: string, params: unknown): string {
  const id = (params as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? `${successorUrl}/${id}` : successorUrl;
}

/** Adds the deprecation headers of docs/api.md 12 to every answer of a deprecated alias, errors included. */
function deprecatedAlias(successor: (request: FastifyRequest) => string) {
  const deprecation = `@${Math.floor(ALIASES_DEPRECATED_AT.getTime() / 1000)}`;
  const sunset = ALIASES_SUNSET_AT.toUTCString();
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    reply
      .header('deprecation', deprecation)
      .header('sunset', sunset)
      .header('link', `<${successor(request)}>; rel="successor-version"`);
    return payload;
  };
}

/** Saved searches (docs/api.md 7) and their deprecated aliases under /users (3.2). */
export async function savedSearchRoutes(app: FastifyInstance, { savedSearches, successorUrl, perUser }: SavedSearchRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/saved-searches',
    {
      config: signedIn,
      schema: {
        tags: ['saved-searches'],
        summary: 'Save a search',
        description:
          'Body: exactly one of `query` (an object of GET /properties/search parameters; values as text or typed: ' +
          '`"min_price": 200000`, `"type": ["apartment", "villa"]`) and `query_string` (`type=apartment&min-price=2e5`, ' +
          'with or without `?`; `type[]=` arrays and the Houzez aliases accepted) — both or neither → 400. The ' +
          'parameters follow the rules of GET /properties/search, and a broken one → 400 naming `query.<name>` or ' +
          '`query_string.<name>`. A saved search keeps its filters and `sortby` (the order of `/matches`); `facets`, ' +
          '`page`, `paged` and `per_page` belong to one request and are refused (400). `name`: plain text (HTML tags ' +
          'and control characters removed, white space collapsed), at most 200 characters; blank once cleaned → 400; ' +
          'without it the search is named by its `display_text` (in the request’s language, cut to 200 characters). ' +
          '`email_alerts` (default true) and `frequency` (`instant`, `daily` (default), `weekly`) choose how new ' +
          `matches are announced. At most ${perUser} saved searches per user (SAVED_SEARCHES_PER_USER): the next → ` +
          `409 \`conflict\`, also when several are created at once. Unknown fields (\`user_id\`, \`last_notified_at\`) → 400. ${RECORD_NOTES}`,
        security,
        body: CreateSavedSearchBody,
        response: { 201: Envelope(SavedSearchRef), ...errorResponses(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const data = await savedSearches.create(request.user!, request.body, request.lang);
      return reply.status(201).send({ success: true, data });
    },
  );

  const listOptions = (deprecated: boolean) => ({
    config: signedIn,
    ...(deprecated ? { onSend: deprecatedAlias(() => successorUrl) } : {}),
    schema: {
      tags: deprecated ? ['users', 'saved-searches'] : ['saved-searches'],
      summary: deprecated ? 'The caller’s saved searches (deprecated alias of GET /saved-searches)' : 'The caller’s saved searches',
      description:
        (deprecated
          ? 'Deprecated: use GET /saved-searches, which answers the same. Answers carry `Deprecation`, `Sunset` ' +
            `(${ALIASES_SUNSET_AT.toUTCString()}) and a \`Link\` to the successor. `
          : '') + `Newest first (ties: id descending), paged; only the caller’s own. ${RECORD_NOTES}`,
      ...(deprecated ? { deprecated: true } : {}),
      security,
      querystring: SavedSearchesQuery,
      response: { 200: Envelope(SavedSearchList), ...errorResponses(400, 401, 429) },
    },
  });
  for (const [path, deprecated] of [
    ['/saved-searches', false],
    ['/users/saved-searches', true],
  ] as const) {
    api.get(path, listOptions(deprecated), async (request) => ({
      success: true,
      data: await savedSearches.list(request.user!, request.query, request.lang),
    }));
  }

  api.get(
    '/saved-searches/:id',
    {
      config: signedIn,
      schema: {
        tags: ['saved-searches'],
        summary: 'One saved search',
        description: `Only the caller’s own saved searches; another user’s, or an unknown id → 404. ${RECORD_NOTES}`,
        security,
        params: SavedSearchIdParams,
        response: { 200: Envelope(SavedSearchRef), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await savedSearches.get(request.user!, request.params.id, request.lang),
    }),
  );

  api.put(
    '/saved-searches/:id',
    {
      config: signedIn,
      schema: {
        tags: ['saved-searches'],
        summary: 'Rename a saved search or change its alerts',
        description:
          'Any of `name` (cleaned as on creation; blank → 400), `email_alerts`, `frequency`; at least one (`{}` → ' +
          '400); omitted fields stay. The search itself cannot change: save a new one. Only the caller’s own saved ' +
          `searches; another user’s, or an unknown id → 404. Answers the updated record. ${RECORD_NOTES}`,
        security,
        params: SavedSearchIdParams,
        body: UpdateSavedSearchBody,
        response: { 200: Envelope(SavedSearchRef), ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await savedSearches.update(request.user!, request.params.id, request.body, request.lang),
    }),
  );

  const deleteOptions = (deprecated: boolean) => ({
    config: signedIn,
    ...(deprecated ? { onSend: deprecatedAlias((request) => successorOf(successorUrl, request.params)) } : {}),
    schema: {
      tags: deprecated ? ['users', 'saved-searches'] : ['saved-searches'],
      summary: deprecated ? 'Delete a saved search (deprecated alias of DELETE /saved-searches/{id})' : 'Delete a saved search',
      description:
        (deprecated
          ? 'Deprecated: use DELETE /saved-searches/{id}, which answers the same. Answers carry `Deprecation`, ' +
            `\`Sunset\` (${ALIASES_SUNSET_AT.toUTCString()}) and a \`Link\` to the successor, the same saved search under /saved-searches. `
          : '') +
        'Only the caller’s own: another user’s, an unknown id or one deleted already → 404. Its record of announced ' +
        'matches goes with it.',
      ...(deprecated ? { deprecated: true } : {}),
      security,
      params: SavedSearchIdParams,
      response: { 200: Envelope(SavedSearchDeleted), ...errorResponses(400, 401, 404, 429) },
    },
  });
  for (const [path, deprecated] of [
    ['/saved-searches/:id', false],
    ['/users/saved-searches/:id', true],
  ] as const) {
    api.delete(path, deleteOptions(deprecated), async (request) => {
      await savedSearches.delete(request.user!, request.params.id);
      return {
        success: true,
        data: { id: request.params.id, deleted: true as const },
        message: translate(request.lang, 'saved_search_deleted'),
      };
    });
  }

  api.get(
    '/saved-searches/:id/matches',
    {
      config: signedIn,
      schema: {
        tags: ['saved-searches'],
        summary: 'The listings a saved search finds now',
        description:
          'The answer of GET /properties/search for the saved parameters (its order included), paged by this ' +
          'request’s `page`/`per_page`; no other parameter is accepted. Only the caller’s own saved searches; ' +
          'another user’s → 404.',
        security,
        params: SavedSearchIdParams,
        querystring: MatchesQuery,
        response: { 200: Envelope(SearchAnswer), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await savedSearches.matches(request.user!, request.params.id, pageWindow(request.query)),
    }),
  );
}
