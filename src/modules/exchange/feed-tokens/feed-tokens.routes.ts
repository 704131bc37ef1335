import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../../config.js';
import { ifNoneMatch, PRIVATE_REVALIDATE } from '../../../http/cache.js';
import { sendCompressed } from '../../../http/compressed-body.js';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { perKeyRateLimit } from '../../../http/rate-limit.js';
import { translate } from '../../../i18n/index.js';
import { sendFeedFile } from '../export/export.routes.js';
import { PortalFeedResponse } from '../export/export.schemas.js';
import type { PortalFeedAnswer } from '../export/portal-feeds.service.js';
import {
  CreatedFeedToken,
  CreateFeedTokenBody,
  FeedPullParams,
  FeedPullRest,
  FeedTokenDeleted,
  FeedTokenIdParams,
  FeedTokenList,
} from './feed-tokens.schemas.js';
import type { FeedTokens } from './feed-tokens.service.js';

export interface FeedTokenRouteOptions {
  feedTokens: FeedTokens;
  /** The rate limits: FEED_RATE_LIMIT_PER_MINUTE per token, beside the per-address budget. */
  config: Config;
}

const administrator = { auth: ['administrator'] } as const;
const security = [{ bearer: [] }];
const tags = ['exchange'];

/** Portal feed tokens: the administrator's routes, and the public feed URL they open. */
export async function feedTokenRoutes(app: FastifyInstance, { feedTokens, config }: FeedTokenRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/exports/tokens',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Make a portal feed URL (administrator)',
        description:
          'A secret URL from which a portal (Kyero, idealista, …) pulls the published listings in `format` without ' +
          'signing in: GET `url` (`/feeds/{token}`). The token (32 random bytes, base64url) is in this answer only: ' +
          'the server keeps its SHA-256. `name` (1–100) says who it is for. Unknown fields → 400.',
        security,
        body: CreateFeedTokenBody,
        response: { 201: Envelope(CreatedFeedToken), ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        success: true,
        data: await feedTokens.create(request.user!, request.body),
        message: translate(request.lang, 'feed_token_created'),
      }),
  );

  api.get(
    '/exports/tokens',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'The portal feed tokens (administrator)',
        description:
          'Every token, newest first, without the token itself (only its last 4 characters, `hint`). No paging: a ' +
          'site has one per portal. `last_used_at` is the last pull, written at most once a minute.',
        security,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: Envelope(FeedTokenList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async () => ({ success: true, data: await feedTokens.list() }),
  );

  api.delete(
    '/exports/tokens/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Revoke a portal feed token (administrator)',
        description: 'Deletes the token: its URL answers 404 from the next pull. Unknown or already revoked → 404.',
        security,
        params: FeedTokenIdParams,
        response: { 200: Envelope(FeedTokenDeleted), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      await feedTokens.revoke(request.params.id);
      return {
        success: true,
        data: { id: request.params.id, deleted: true as const },
        message: translate(request.lang, 'feed_token_revoked'),
      };
    },
  );

  const perToken = perKeyRateLimit(app, config, {
    name: 'feed-pulls',
    max: config.rateLimit.feedPullsPerMinute,
    key: (request) => feedTokens.pullKeyOf(tokenOf(request)),
  });
  const onRequest = perToken ? [perToken] : [];
  const pull = async (request: FastifyRequest, reply: FastifyReply) =>
    sendPortalFeed(request, reply, await feedTokens.pull(tokenOf(request)));

  api.get(
    '/feeds/:token',
    {
      onRequest,
      schema: {
        tags,
        summary: 'A portal’s feed, by the token in its URL (no sign-in)',
        description:
          'The published listings (state `publish` only: no drafts, nothing sold or expired) with every agent and ' +
          'agency, in the token’s format. A wrong, malformed (any length or characters) or revoked token → 404 ' +
          '(never 401: a guess learns nothing). The feed is kept built while the listings and terms are unchanged: ' +
          'the answer has an `ETag` and `Cache-Control: private, no-cache`, and a pull with a matching ' +
          '`If-None-Match` is a 304 without a body; gzip or brotli when the client accepts them. A feed larger than ' +
          'PORTAL_FEED_CACHE_MB is streamed as GET /exports/{format} streams, without an ETag. Each token may pull ' +
          'FEED_RATE_LIMIT_PER_MINUTE times a minute (default 10), beside the per-address limit: then 429 with ' +
          '`Retry-After`. A path that cannot be percent-decoded is a 400, as on every route.',
        params: FeedPullParams,
        response: {
          200: PortalFeedResponse,
          304: { description: 'Not modified: the feed is the one of the ETag sent' },
          ...errorResponses(400, 401, 404, 429),
        },
      },
    },
    pull,
  );

  // NOTE: the router refuses a parameter past 100 characters (400) before any route runs; a catch-all twin,
  // which that limit does not cover, answers longer tokens (and any with a slash) as unknown ones.
  api.get('/feeds/*', { onRequest, schema: { hide: true, params: FeedPullRest } }, pull);
}

/** The presented token: the parameter, or the rest of the path on the catch-all twin. */
function tokenOf(request: FastifyRequest): string {
  const params = request.params as { token?: string; '*'?: string };
  return params.token ?? params['*'] ?? '';
}

/**
 * Sends a pull's answer: a kept feed with its ETag (304 when the client holds it) in the best encoding the client
 * takes; `private`: the URL is a secret, so no shared cache may keep the feed; `no-cache`: the portal revalidates
 * each time, which costs it a 304 while nothing changed. A feed too large to keep streams as an export does.
 */
function sendPortalFeed(request: FastifyRequest, reply: FastifyReply, answer: PortalFeedAnswer): FastifyReply {
  if ('streamed' in answer) return sendFeedFile(reply, answer.streamed);
  const { built } = answer;
  reply.headers({ etag: built.etag, 'cache-control': PRIVATE_REVALIDATE });
  if (ifNoneMatch(request.headers['if-none-match'], built.etag)) return reply.header('vary', 'Accept-Encoding').code(304).send();
  reply.headers({ 'content-type': built.mediaType, 'content-disposition': `attachment; filename="${built.filename}"` });
  return sendCompressed(request, reply, built.body);
}
