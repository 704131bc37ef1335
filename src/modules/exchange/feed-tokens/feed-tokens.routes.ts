import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { translate } from '../../../i18n/index.js';
import { sendFeedFile } from '../export/export.routes.js';
import { FeedFileResponse } from '../export/export.schemas.js';
import {
  CreatedFeedToken,
  CreateFeedTokenBody,
  FeedPullParams,
  FeedTokenDeleted,
  FeedTokenIdParams,
  FeedTokenList,
} from './feed-tokens.schemas.js';
import type { FeedTokens } from './feed-tokens.service.js';

export interface FeedTokenRouteOptions {
  feedTokens: FeedTokens;
}

const administrator = { auth: ['administrator'] } as const;
const security = [{ bearer: [] }];
const tags = ['exchange'];

/** Portal feed tokens: the administrator's routes, and the public feed URL they open. */
export async function feedTokenRoutes(app: FastifyInstance, { feedTokens }: FeedTokenRouteOptions) {
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

  api.get(
    '/feeds/:token',
    {
      schema: {
        tags,
        summary: 'A portal’s feed, by the token in its URL (no sign-in)',
        description:
          'The published listings (state `publish` only: no drafts, nothing sold or expired) with every agent and ' +
          'agency, in the token’s format, streamed as GET /exports/{format} streams. A wrong or revoked token → ' +
          '404 (never 401: a guess learns nothing).',
        params: FeedPullParams,
        response: { 200: FeedFileResponse, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => sendFeedFile(reply, await feedTokens.pull(request.params.token)),
  );
}
